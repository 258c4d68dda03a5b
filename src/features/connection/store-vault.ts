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
 *
 * The writes that change the connection (storing a registration, linking a user, unlinking one,
 * forgetting the registration on disconnect) each run in one store transaction with their audit
 * event (docs/audit-log.md), the source taken from `currentAct()`. Token and userinfo refreshes
 * of a linked user and pending logins record nothing.
 */
import type { JsonValue as StoreJson } from '../../rest/types.js';
import type { Store, StoreTransaction } from '../../store/types.js';
import { auditEvent } from '../audit/index.js';
import { currentAct } from './connection-audit.js';
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
        return this.#register(value);
      case 'user':
        // A refresh of a linked user's tokens is no link: one write, and the list (and every cache) stays.
        if ((await this.#linkedIds()).includes(place.userId) && (await this.#sameAccount(place.userId, value)))
          return this.store.userMeta.set(place.userId, ACCOUNT_META_KEY, value);
        return this.#link(place.userId, value);
      case 'pending':
        return this.store.status.set(place.key, value, this.clock());
    }
  }

  async delete(key: string): Promise<void> {
    const place = placeOf(key);
    switch (place.kind) {
      case 'registration':
        return this.#forgetRegistration();
      case 'user':
        if (!(await this.#linkedIds()).includes(place.userId)) return this.store.userMeta.delete(place.userId, ACCOUNT_META_KEY);
        return this.#unlink(place.userId);
      case 'pending':
        return this.store.status.delete(place.key);
    }
  }

  async #register(value: JsonValue): Promise<void> {
    const { source } = currentAct();
    await this.store.transaction(async (tx) => {
      const before = await tx.options.get(OPTION_NAMES.registration);
      await tx.options.set(OPTION_NAMES.registration, value);
      tx.audit(
        auditEvent(source, 'connection.registered', siteObject(value), {
          client_id: { before: field(before, 'clientId') ?? null, after: field(value, 'clientId') ?? null },
        }),
      );
    });
  }

  async #link(userId: number, value: JsonValue): Promise<void> {
    const act = currentAct();
    await this.store.transaction(async (tx) => {
      const previous = field(await tx.userMeta.get(userId, ACCOUNT_META_KEY), 'subject') ?? null;
      await tx.userMeta.set(userId, ACCOUNT_META_KEY, value);
      const before = linkedIdsOf(await tx.options.get(OPTION_NAMES.linkedUsers));
      const wasLinked = before.includes(userId);
      const account = field(value, 'subject') ?? null;
      // Linked to this account by another worker in the meantime: this write was a refresh after all.
      if (wasLinked && previous === account) return;
      const linked = wasLinked ? before : [...before, userId].sort((a, b) => a - b);
      if (!wasLinked) await tx.options.set(OPTION_NAMES.linkedUsers, linked);
      const changes: Record<string, { before: unknown; after: unknown }> = {
        linked: { before: wasLinked, after: true },
        account: { before: wasLinked ? previous : null, after: account },
      };
      if (act.claimMaster === true) {
        const previous = await tx.options.get(OPTION_NAMES.masterUser);
        // A master user who is still linked keeps the place (two administrators finishing at once: one wins).
        const kept = typeof previous === 'number' && previous !== userId && linked.includes(previous);
        if (!kept && previous !== userId) {
          await tx.options.set(OPTION_NAMES.masterUser, userId);
          changes.master = { before: false, after: true };
          tx.audit(
            auditEvent(act.source, 'connection.connected', siteObject(value), {
              master_user: { before: typeof previous === 'number' ? previous : null, after: userId },
            }),
          );
        }
      }
      tx.audit(auditEvent(act.source, 'connection.linked', { type: 'user', id: String(userId), name: await loginOf(tx, userId) }, changes));
    });
  }

  async #unlink(userId: number): Promise<void> {
    const { source } = currentAct();
    await this.store.transaction(async (tx) => {
      const account = await tx.userMeta.get(userId, ACCOUNT_META_KEY);
      await tx.userMeta.delete(userId, ACCOUNT_META_KEY);
      const before = linkedIdsOf(await tx.options.get(OPTION_NAMES.linkedUsers));
      if (!before.includes(userId)) return;
      const rest = before.filter((id) => id !== userId);
      if (rest.length > 0) await tx.options.set(OPTION_NAMES.linkedUsers, rest);
      else await tx.options.delete(OPTION_NAMES.linkedUsers);
      tx.audit(
        auditEvent(
          source,
          'connection.unlinked',
          { type: 'user', id: String(userId), name: await loginOf(tx, userId) },
          {
            linked: { before: true, after: false },
            account: { before: field(account, 'subject') ?? null, after: null },
          },
        ),
      );
    });
  }

  /** On disconnect, the registration, the master user and what is left of the links go together, with the event. */
  async #forgetRegistration(): Promise<void> {
    const act = currentAct();
    if (act.disconnect !== true) return this.store.options.delete(OPTION_NAMES.registration);
    await this.store.transaction(async (tx) => {
      const o = await tx.options.getMany([OPTION_NAMES.registration, OPTION_NAMES.linkedUsers, OPTION_NAMES.masterUser]);
      const registration = o.get(OPTION_NAMES.registration);
      const master = o.get(OPTION_NAMES.masterUser);
      for (const name of Object.values(OPTION_NAMES)) if (o.has(name)) await tx.options.delete(name);
      tx.audit(
        auditEvent(act.source, 'connection.disconnected', siteObject(registration), {
          registered: { before: registration !== undefined, after: false },
          master_user: { before: typeof master === 'number' ? master : null, after: null },
          // Links whose users were deleted from the site (their tokens went with them) are forgotten here.
          linked_users: { before: linkedIdsOf(o.get(OPTION_NAMES.linkedUsers)), after: [] },
        }),
      );
    });
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

  /** The stored record of a linked user names the same provider account as `value` (a refresh, not a new link). */
  async #sameAccount(userId: number, value: JsonValue): Promise<boolean> {
    return field(await this.store.userMeta.get(userId, ACCOUNT_META_KEY), 'subject') === field(value, 'subject');
  }

  async #linkedIds(): Promise<number[]> {
    return linkedIdsOf(await this.store.options.get(OPTION_NAMES.linkedUsers));
  }
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function siteObject(registration: unknown): { type: string; id: string; name: string } {
  const issuer = field(registration, 'issuer');
  return { type: 'connection', id: 'site', name: typeof issuer === 'string' ? issuer : '' };
}

async function loginOf(tx: StoreTransaction, userId: number): Promise<string> {
  return (await tx.users.byId(userId))?.login ?? '';
}
