/**
 * The WordPress platform routes today's clients call (docs/spec/current-clients.md §B–§D):
 * `wp/v2/users`, `wp/v2/users/{id|me}/application-passwords` and `wp/v2/settings`, registered
 * through the plugin API like any plugin's. (`batch/v1` belongs to the REST layer itself.)
 * Siteward has no content: no posts, pages, comments, media or taxonomies are served.
 */
import type { Feature } from '../contract.js';
import { registerAppPasswordRoutes } from './app-password-routes.js';
import { registerSettingsRoute } from './settings-routes.js';
import { registerUserRoutes } from './users-routes.js';
import { registerUserAbilities } from './abilities.js';

export const wpPlatformFeature: Feature = {
  name: 'wp-platform',
  register(ctx) {
    const deps = { store: ctx.store, authenticator: ctx.auth.authenticator };
    registerUserRoutes(ctx, deps);
    registerUserAbilities(ctx.api, ctx.store);
    registerAppPasswordRoutes(ctx, deps);
    registerSettingsRoute(ctx);
  },
};
