/**
 * The connection's vault in the site's store. Each kind of record goes where its readers need it:
 *
 * | vault key | stored in | why |
 * |---|---|---|
 * | `connection:registration` | option `connection_registration` | rare writes; every worker must see it at once, and module availability follows it (the write bumps the options version) |
 * | `connection:user:<id>` | user meta `connection_account` of that user, listed in option `connection_linked_users` | tokens per user, never cached, deleted with the user; the list changes only on link/unlink, so a daily token refresh does not bump the options version |
 * | `connection:pending:<hash>` | status row | short-lived login states, written on every login start: never cached, never bumping the options version |
 *
 * Secret fields arrive here already sealed (connection-records.ts).
 */
import type { JsonValue as StoreJson } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { KEYS } from './connection-records.js';
import type { ConnectionVault, JsonValue } from './connection-vault.js';

export const OPTION_NAMES = {
  registration: 'connection_registration',
  linkedUsers: 'connection_linked_users',
  masterUser: 'connection_master_user',
} as const;

export const ACCOUNT_META_KEY = 'connection_account';

type Place =
  | { readonly kind: 'registration' }
  | { readonly kind: 'user'; readonly userId: number }
  | { readonly kind: 'pending'; readonly key: string };

function placeOf(key: string): Place {
  if (key === KEYS.registration) return { kind: 'registration' };
  if (key.startsWith(KEYS.pendingPrefix)) return { kind: 'pending', key };
  if (key.startsWith(KEYS.userPrefix)) {
    const id = key.slice(KEYS.userPrefix.length);
    if (/^[1-9]\d{0,15}$/.test(id)) return { kind: 'user', userId: Number(id) };
  }
  throw new Error(`the connection vault has no place for "${key}"`);
}

/** The ids in the linked-users option (sorted, numbers only). */
export function linkedIdsOf(value: StoreJson | undefined): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0) : [];
}

export class StoreVault implements ConnectionVault {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
  ) {}

  async get(key: string): Promise<unknown> {
    const place = placeOf(key);
    switch (place.kind) {
      case 'registration':
        return this.store.options.get(OPTION_NAMES.registration);
      case 'user':
        return this.store.userMeta.get(place.userId, ACCOUNT_META_KEY);
      case 'pending':
        return (await this.store.status.get(place.key))?.value;
    }
  }

  async set(key: string, value: JsonValue): Promise<void> {
    const place = placeOf(key);
    switch (place.kind) {
      case 'registration':
        return this.store.options.set(OPTION_NAMES.registration, value);
      case 'user':
        await this.store.userMeta.set(place.userId, ACCOUNT_META_KEY, value);
        // Written only when the list changes: a token refresh must not throw every cache away.
        if (!(await this.#linkedIds()).includes(place.userId)) {
          await this.store.options.update(OPTION_NAMES.linkedUsers, (current) =>
            [...new Set([...linkedIdsOf(current), place.userId])].sort((a, b) => a - b),
          );
        }
        return;
      case 'pending':
        return this.store.status.set(place.key, value, this.clock());
    }
  }

  async delete(key: string): Promise<void> {
    const place = placeOf(key);
    switch (place.kind) {
      case 'registration':
        return this.store.options.delete(OPTION_NAMES.registration);
      case 'user':
        await this.store.userMeta.delete(place.userId, ACCOUNT_META_KEY);
        if ((await this.#linkedIds()).includes(place.userId)) {
          await this.store.options.update(OPTION_NAMES.linkedUsers, (current) => {
            const rest = linkedIdsOf(current).filter((id) => id !== place.userId);
            return rest.length > 0 ? rest : undefined;
          });
        }
        return;
      case 'pending':
        return this.store.status.delete(place.key);
    }
  }

  async keys(prefix: string): Promise<string[]> {
    const overlaps = (group: string) => group.startsWith(prefix) || prefix.startsWith(group);
    const keys: string[] = [];
    if (overlaps(KEYS.registration) && (await this.store.options.get(OPTION_NAMES.registration)) !== undefined)
      keys.push(KEYS.registration);
    if (overlaps(KEYS.userPrefix)) {
      // A user deleted from the site takes their meta along; the list may still name them.
      for (const id of await this.#linkedIds()) {
        if ((await this.store.userMeta.get(id, ACCOUNT_META_KEY)) !== undefined) keys.push(`${KEYS.userPrefix}${id}`);
      }
    }
    if (overlaps(KEYS.pendingPrefix)) keys.push(...(await this.store.status.keys(KEYS.pendingPrefix)));
    return keys.filter((key) => key.startsWith(prefix));
  }

  async #linkedIds(): Promise<number[]> {
    return linkedIdsOf(await this.store.options.get(OPTION_NAMES.linkedUsers));
  }
}
