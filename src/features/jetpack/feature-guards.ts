/**
 * What features that add routes to `jetpack/v4` (backups, stats, updates, site data) need of
 * the plugin: its permission checks (docs/spec/jetpack-v4-reference.md §2) and the module activation state, so their
 * endpoints refuse and answer `not_active` exactly like the plugin's own.
 */
import type { Guard, NamedPermission } from '../../rest/define-route.js';
import type { RestError } from '../../rest/errors.js';
import type { PermissionCallback, Principal } from '../../rest/types.js';
import type { ModuleCatalog } from './catalog/module-catalog.js';
import type { PluginContext } from './context.js';
import { pluginError } from '../jetpack-v4/errors.js';
import type { PermissionCheck } from '../jetpack-v4/permissions.js';
import { readActiveSlugs } from './operations/active-modules.js';
import { isAvailable, siteStatus } from './operations/site-status.js';
import { namedPermission, passes, requirePermission } from '../jetpack-v4/permissions.js';

export interface PluginGuards {
  /** The permission callback of `check`: true, or its 401/403 `invalid_user_permission_*` error. */
  requirePermission(check: PermissionCheck): PermissionCallback;
  /** The same check as `defineRoute`'s named permission. */
  permission(check: PermissionCheck): NamedPermission;
  /** The same check for a user outside a request (an ability's permission callback). */
  allows(check: PermissionCheck, user: Principal): boolean;
  /** A `defineRoute` guard: 404 `not_active` (the catalogue's `module_not_active`) while the module is not active. */
  moduleActive(slug: string): Guard;
  /** As the module's record says `activated`: in the active list and available. */
  isModuleActive(slug: string): Promise<boolean>;
  /**
   * `answer`, guarded: while the module is not active the endpoint answers 404 `not_active`
   * (the catalogue's `module_not_active`), as the plugin's own module routes do.
   *
   * @example
   * const data = jetpack.whenModuleActive('vaultpress', () => vaultpressData(...));
   * ctx.api.registerRoute('jetpack/v4', '/module/vaultpress/data', { permissionCallback, callback: data });
   */
  whenModuleActive<A extends unknown[], R>(slug: string, answer: (...args: A) => R | Promise<R>): (...args: A) => Promise<R | RestError>;
}

export function pluginGuards(ctx: PluginContext, catalog: ModuleCatalog): PluginGuards {
  const isModuleActive = async (slug: string) => {
    const mod = catalog.get(slug);
    if (!mod || !(await readActiveSlugs(ctx.store.options, catalog)).includes(slug)) return false;
    return isAvailable(mod, await siteStatus(ctx));
  };
  return {
    requirePermission: (check) => requirePermission(check, ctx),
    permission: (check) => namedPermission(check, ctx),
    allows: (check, user) => passes(check, user, ctx),
    moduleActive: (slug) => async () => ((await isModuleActive(slug)) ? null : pluginError('module_not_active')),
    isModuleActive,
    whenModuleActive:
      (slug, answer) =>
      async (...args) =>
        (await isModuleActive(slug)) ? answer(...args) : pluginError('module_not_active'),
  };
}
