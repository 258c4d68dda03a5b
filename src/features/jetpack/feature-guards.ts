/**
 * What features that add routes to `jetpack/v4` (backups, stats, updates, site data) need of
 * the plugin: its permission checks (docs/spec/jetpack-v4-reference.md §2) and the module activation state, so their
 * endpoints refuse and answer `not_active` exactly like the plugin's own.
 */
import type { PermissionCallback } from '../../rest/types.js';
import type { ModuleCatalog } from './catalog/module-catalog.js';
import type { PluginContext } from './context.js';
import type { PermissionCheck } from './errors.js';
import { readActiveSlugs } from './operations/active-modules.js';
import { isAvailable, siteStatus } from './operations/site-status.js';
import { requirePermission } from './routes/permissions.js';

export interface PluginGuards {
  /** The permission callback of `check`: true, or its 401/403 `invalid_user_permission_*` error. */
  requirePermission(check: PermissionCheck): PermissionCallback;
  /** As the module's record says `activated`: in the active list and available. */
  isModuleActive(slug: string): Promise<boolean>;
}

export function pluginGuards(ctx: PluginContext, catalog: ModuleCatalog): PluginGuards {
  return {
    requirePermission: (check) => requirePermission(check, ctx),
    isModuleActive: async (slug) => {
      const mod = catalog.get(slug);
      if (!mod || !(await readActiveSlugs(ctx.store.options, catalog)).includes(slug)) return false;
      return isAvailable(mod, await siteStatus(ctx));
    },
  };
}
