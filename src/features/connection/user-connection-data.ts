/**
 * The `/user-connection-data` body (docs/spec/jetpack-v4-reference.md §3.3), also `Initial_State.userData`.
 * The linked account comes from the provider's userinfo (docs/spec/compat.md §9's mapping, wpcom-user.ts).
 */
import { gravatarUrl } from '../../core/gravatar.js';
import { statsRoles } from '../jetpack-v4/stats-roles.js';
import type { JsonValue, Principal } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import type { ConnectionError } from './connection-errors.js';
import type { ConnectionService } from './connection-service.js';

type JsonObject = { [key: string]: JsonValue };

export interface UserDataDeps {
  readonly store: Store;
  readonly service: ConnectionService;
  /** Dev (offline) mode is on. */
  readonly devMode: () => boolean;
}

/** `false` unless at least two administrators exist and at least two of them are linked; then their count (docs/spec/jetpack-v4-reference.md §3.3). */
async function othersLinked(store: Store, linked: readonly number[]): Promise<number | false> {
  if (linked.length < 2 || (await store.users.countByRole('administrator')) < 2) return false;
  let admins = 0;
  for (const id of linked) if ((await store.users.roles(id)).includes('administrator')) admins += 1;
  return admins >= 2 ? admins : false;
}

/**
 * The body for `user`. With `refresh`, a linked account's userinfo older than a day is fetched
 * again (refresh token, then userinfo); a provider failure then is the answer. Without it (the
 * admin page) the stored userinfo is served and the provider is never asked.
 */
export async function userConnectionData(
  deps: UserDataDeps,
  user: Principal,
  refresh: boolean,
): Promise<{ ok: true; body: JsonObject } | { ok: false; error: ConnectionError }> {
  const facts = await deps.service.facts();
  const account = await deps.service.account(user.id, refresh);
  if (!account.ok && 'error' in account) return account;
  const devMode = deps.devMode();
  const manage = user.can('manage_options');
  const roles = await statsRoles(deps.store.options);
  const wpcomUser: JsonObject = account.ok ? { ...account.user } : { avatar: gravatarUrl(user.email, 64) };
  return {
    ok: true,
    body: {
      othersLinked: await othersLinked(deps.store, facts.linked),
      currentUser: {
        isConnected: account.ok,
        isMaster: facts.master === user.id,
        username: user.login,
        wpcomUser,
        gravatar: `<img alt='' src='${gravatarUrl(user.email, 40)}' class='avatar avatar-40 photo' height='40' width='40' />`,
        permissions: {
          admin_page: user.can(devMode ? 'manage_options' : 'read'),
          connect: !devMode && manage,
          disconnect: manage,
          manage_modules: manage,
          network_admin: false,
          network_sites_page: false,
          edit_posts: user.can('edit_posts'),
          manage_options: manage,
          view_stats: user.roles.some((role) => roles.includes(role)),
        },
      },
    },
  };
}
