/**
 * Permission checks of the `jetpack/v4` endpoints (docs/spec/jetpack-v4-reference.md §2 with
 * docs/spec/compat.md §9), shared by the plugin and the connection routes. The
 * meta-capabilities are mapped to WordPress primitives here, so neither depends on the auth
 * layer knowing Jetpack's capability names or the dev mode.
 */
import { RestError, authorizationRequiredStatus } from '../../rest/errors.js';
import { permission, type NamedPermission } from '../../rest/define-route.js';
import type { PermissionCallback, Principal, RestRequest } from '../../rest/types.js';

/** The shared permission message; docs/spec/compat.md §8 puts one space where the historical text had a newline and tabs. */
export const PERMISSION_MESSAGE =
  'You do not have the correct user permissions to perform this action. Please contact your site admin if you think this is a mistake.';

/** The permission checks of docs/spec/jetpack-v4-reference.md §2, each with its failure code. */
export const permissionCodes = {
  view_admin: 'invalid_user_permission_view_admin',
  manage_modules: 'invalid_user_permission_manage_modules',
  configure_modules: 'invalid_user_permission_configure_modules',
  manage_settings: 'invalid_user_permission_manage_settings',
  // The connection routes (docs/spec/jetpack-v4-reference.md §2; docs/spec/compat.md §9 replaces the codes marked "sic" by the natural ones).
  connect_url: 'invalid_user_permission_jetpack_connect',
  user_connection_data: 'invalid_user_permission_user_connection_data',
  link_user: 'invalid_user_permission_link_user',
  // The 4.3+ `connection/user`: allowed to link, and linked (docs/spec/current-clients.md A.1).
  unlink_user: 'invalid_user_permission_unlink_user',
  disconnect: 'invalid_user_permission_jetpack_disconnect',
} as const;

export type PermissionCheck = keyof typeof permissionCodes;

/** A permission failure: 401 when nobody is logged in, 403 otherwise (docs/spec/compat.md §9). */
export function permissionError(check: PermissionCheck, user: Principal): RestError {
  return new RestError(permissionCodes[check], PERMISSION_MESSAGE, { status: authorizationRequiredStatus(user.id !== 0) });
}

/** Which dev (offline) mode triggers are on (docs/spec/compat.md §9: `filter` is always false). */
export interface DevModeState {
  /** `SITEWARD_OFFLINE` is set. */
  constant: boolean;
  /** The site URL's host has no dot (e.g. `localhost`). */
  url: boolean;
  filter: false;
}

/** What a check reads of the site: only its dev mode. */
export interface DevModeSource {
  readonly site: { devMode(): DevModeState };
}

/** Whether `user` passes `check` (docs/spec/jetpack-v4-reference.md §2 table). */
export function passes(check: PermissionCheck, user: Principal, ctx: DevModeSource): boolean {
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
    case 'link_user':
    case 'unlink_user': {
      // jetpack_connect_user: refused in dev mode, otherwise read.
      const mode = ctx.site.devMode();
      return !(mode.constant || mode.url) && user.can('read');
    }
  }
}

/** A permission callback answering true or the check's 401/403 error. */
export function requirePermission(check: PermissionCheck, ctx: DevModeSource): PermissionCallback {
  return namedPermission(check, ctx).check as PermissionCallback;
}

/** The check as `defineRoute`'s named permission (the route table shows the check's name). */
export function namedPermission(check: PermissionCheck, ctx: DevModeSource): NamedPermission {
  return permission(check, (request: RestRequest) => (passes(check, request.user, ctx) ? true : permissionError(check, request.user)));
}
