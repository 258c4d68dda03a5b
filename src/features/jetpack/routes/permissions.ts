/**
 * Permission callbacks of the plugin's endpoints (reference §2 with compat.md §9). The
 * meta-capabilities are mapped to WordPress primitives here, so the plugin does not depend on
 * the auth layer knowing Jetpack's capability names or the dev mode.
 */
import type { PermissionCallback, Principal } from '../../../rest/types.js';
import type { PluginContext } from '../context.js';
import { permissionError, type PermissionCheck } from '../errors.js';

/** Whether `user` passes `check` (reference §2 table). */
export function passes(check: PermissionCheck, user: Principal, ctx: PluginContext): boolean {
  switch (check) {
    case 'view_admin': {
      // jetpack_admin_page: manage_options in dev mode, otherwise read.
      const mode = ctx.site.devMode();
      return user.can(mode.constant || mode.url ? 'manage_options' : 'read');
    }
    case 'manage_modules': // jetpack_manage_modules
    case 'configure_modules': // jetpack_configure_modules
    case 'manage_settings': // manage_options
      return user.can('manage_options');
  }
}

/** A permission callback answering true or the check's 401/403 error. */
export function requirePermission(check: PermissionCheck, ctx: PluginContext): PermissionCallback {
  return (request) => (passes(check, request.user, ctx) ? true : permissionError(check, request.user));
}
