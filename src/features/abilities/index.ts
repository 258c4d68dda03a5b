/**
 * The Abilities API (issue 42, docs/spec/abilities-mcp.md): the registry every feature and plugin
 * registers abilities in (`api.registerAbility`), WordPress's core abilities and the
 * `wp-abilities/v1` routes. Registered first, so that every later feature may register abilities
 * over its own operations (one function, two doors: its REST route and its ability).
 */
import type { Feature } from '../contract.js';
import type { BearerSlot } from './bearer-slot.js';
import { registerCoreAbilities } from './core-abilities.js';
import { AbilityRegistry } from './registry.js';
import { registerAbilityRoutes } from './rest-routes.js';

export { AbilityRegistry, type Ability, type RunOutcome } from './registry.js';
// The surface other features use (test/layers.test.ts): who called an ability, bearer tokens, the REST namespace.
export { callerActor } from './caller.js';
export { bearerToken, type AbilityCall, type BearerCheck } from './bearer-slot.js';
export { ABILITIES_NAMESPACE } from './rest-routes.js';

declare module '../contract.js' {
  interface FeatureServices {
    /** The whole registry, for the features that serve abilities through another door (MCP). */
    abilityRegistry: AbilityRegistry;
    /** Where the MCP feature plugs its bearer-token check into `wp-abilities/v1`. */
    abilityBearer: BearerSlot;
  }
}

export const abilitiesFeature: Feature = {
  name: 'abilities',
  register(ctx) {
    const registry = new AbilityRegistry();
    ctx.provide('abilities', registry);
    ctx.provide('abilityRegistry', registry);
    registerCoreAbilities(registry, {
      store: ctx.store,
      homeUrl: ctx.site.homeUrl,
      siteName: ctx.config.siteName,
      siteDescription: ctx.config.siteDescription,
      development: () => {
        const mode = ctx.site.devMode();
        return mode.constant || mode.url;
      },
    });
    const bearer: BearerSlot = { check: null };
    ctx.provide('abilityBearer', bearer);
    registerAbilityRoutes(ctx.api, registry, bearer);
  },
};
