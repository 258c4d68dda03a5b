import type { Principal } from '../rest/types.js';
import { capabilitiesOfRoles } from './roles.js';

/** Dev (offline) mode is an input: a fixed value or a function read at every check. */
export type DevModeInput = boolean | (() => boolean);

/** The capability no one has. */
export const DO_NOT_ALLOW = 'do_not_allow';

/**
 * Meta capabilities → the primitive capabilities they require (WordPress's `map_meta_cap`
 * with the plugin's `jetpack_custom_caps`, docs/spec/jetpack-v4-reference.md §2). Siteward is a single
 * site, so the network (multisite) capabilities map to `do_not_allow`.
 */
export function mapMetaCapability(capability: string, devMode: boolean): readonly string[] {
  switch (capability) {
    case 'jetpack_connect':
    case 'jetpack_reconnect':
      return devMode ? [DO_NOT_ALLOW] : ['manage_options'];
    case 'jetpack_disconnect':
    case 'jetpack_manage_modules':
    case 'jetpack_activate_modules':
    case 'jetpack_deactivate_modules':
    case 'jetpack_configure_modules':
      return ['manage_options'];
    case 'jetpack_admin_page':
      return devMode ? ['manage_options'] : ['read'];
    case 'jetpack_connect_user':
      return devMode ? [DO_NOT_ALLOW] : ['read'];
    case 'jetpack_network_admin_page':
    case 'jetpack_network_settings_page':
    case 'jetpack_network_sites_page':
    case 'manage_network':
    case 'manage_network_plugins':
    case 'manage_network_users':
    case 'manage_network_themes':
    case 'manage_network_options':
    case 'manage_sites':
    case 'create_sites':
    case 'delete_sites':
    case 'upgrade_network':
    case 'setup_network':
      return [DO_NOT_ALLOW];
    default:
      return [capability];
  }
}

export interface PrincipalUser {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
}

/**
 * The REST layer's principal for a user with the given roles.
 *
 * @example
 * const p = makePrincipal(user, ['administrator'], { devMode: () => config.offline });
 * p.can('jetpack_manage_modules'); // true
 */
export function makePrincipal(user: PrincipalUser, roles: readonly string[], options: { devMode: DevModeInput }): Principal {
  const primitives = capabilitiesOfRoles(roles);
  const devMode = options.devMode;
  const frozenRoles = Object.freeze([...roles]);
  return Object.freeze({
    id: user.id,
    login: user.login,
    email: user.email,
    displayName: user.displayName,
    roles: frozenRoles,
    can(capability: string): boolean {
      // WordPress grants `exist` to every user object, the logged-out one included.
      if (capability === 'exist') return true;
      const required = mapMetaCapability(capability, typeof devMode === 'function' ? devMode() : devMode);
      return required.every((cap) => cap !== DO_NOT_ALLOW && primitives.has(cap));
    },
  });
}

const anonymous = makePrincipal({ id: 0, login: '', email: '', displayName: '' }, [], { devMode: false });

/** The logged-out user: id 0, no roles, only `exist`. */
export function anonymousPrincipal(): Principal {
  return anonymous;
}
