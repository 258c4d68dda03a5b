/**
 * Permission callbacks of the plugin's endpoints (docs/spec/jetpack-v4-reference.md §2 with docs/spec/compat.md §9). The
 * meta-capabilities are mapped to WordPress primitives here, so the plugin does not depend on
 * the auth layer knowing Jetpack's capability names or the dev mode.
 */
import { labelPermission } from '../../../rest/permission-label.js';
import type { PermissionCallback, Principal } from '../../../rest/types.js';
import type { PluginContext } from '../context.js';
import { permissionError, type PermissionCheck } from '../errors.js';

/** Whether `user` passes `check` (docs/spec/jetpack-v4-reference.md §2 table). */
export function passes(check: PermissionCheck, user: Principal, ctx: { readonly site: Pick<PluginContext['site'], 'devMode'> }): boolean {
  switch (check) {
    case 'view_admin': {
      // jetpack_admin_page: manage_options in dev mode, otherwise read.
      const mode = ctx.site.devMode();
      return user.can(mode.constant || mode.url ? 'manage_options' : 'read');
    }
    case 'manage_modules': // jetpack_manage_modules
    case 'configure_modules': // jetpack_configure_modules
    case 'manage_settings': // manage_options
    case 'disconnect': // jetpack_disconnect
      return user.can('manage_options');
    case 'connect_url':
    case 'user_connection_data':
    case 'link_user': {
      // jetpack_connect_user: refused in dev mode, otherwise read.
      const mode = ctx.site.devMode();
      return !(mode.constant || mode.url) && user.can('read');
    }
  }
}

/** A permission callback answering true or the check's 401/403 error. */
export function requirePermission(check: PermissionCheck, ctx: { readonly site: Pick<PluginContext['site'], 'devMode'> }): PermissionCallback {
  return labelPermission((request) => (passes(check, request.user, ctx) ? true : permissionError(check, request.user)), check);
}
