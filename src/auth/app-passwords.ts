import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { RestError } from '../rest/errors.js';
import { authError } from './errors.js';
import type { Store, UserRecord } from '../store/types.js';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from './clock.js';
import { findUserByLoginOrEmail } from './sessions.js';
import type { AuditChange, AuditEventInput, AuditSource } from '../wire/audit.js';

/** Length of a generated application password. */
export const APP_PASSWORD_LENGTH = 24;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A successful verification is trusted this long without the store (revocations elsewhere take up to this). */
export const VERIFIED_APP_PASSWORD_TTL_MS = 5_000;
/** `last_used` is written at most this often per password, to keep writes off the request path. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A 24-character alphanumeric password (~143 bits), uniformly drawn. */
export function generateAppPassword(): string {
  let out = '';
  for (let i = 0; i < APP_PASSWORD_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * What is stored: SHA-256 of the password. A slow hash buys nothing for a 143-bit random
 * secret, and a fast one lets the store find the password by its hash in one index probe.
 */
export function hashAppPassword(password: string): string {
  return createHash('sha256').update(password).digest('hex');
}

/** WordPress shows and accepts the password in chunks ("abcd efgh …"): only letters and digits count. */
export function normalizeAppPassword(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

/** An application password as listed (never the password or its hash). */
export interface AppPasswordInfo {
  readonly uuid: string;
  readonly name: string;
  readonly created: number;
  readonly lastUsed: number | null;
  /** The client's own id (a UUID), '' when none was given. */
  readonly appId: string;
  readonly lastIp: string | null;
}

export type AppPasswordCreateResult =
  | { readonly ok: true; readonly password: string; readonly info: AppPasswordInfo }
  | { readonly ok: false; readonly code: 'unknown_user' | 'invalid_name' | 'duplicate_name'; readonly message: string };

export type AppPasswordAuthResult =
  | { readonly ok: true; readonly user: UserRecord; readonly roles: readonly string[]; readonly uuid: string }
  | { readonly ok: false; readonly error: RestError };

export interface AppPasswordService {
  /** Creates one; the password is returned only here. `appId` is the client's own UUID (WordPress's `app_id`). */
  create(
    login: string,
    name: string,
    options?: { readonly appId?: string; readonly source?: AuditSource },
  ): Promise<AppPasswordCreateResult>;
  /** The user's application passwords; null when the user does not exist. */
  list(login: string): Promise<AppPasswordInfo[] | null>;
  /** Revokes one; false when the user or the password does not exist. */
  revoke(login: string, uuid: string, source?: AuditSource): Promise<boolean>;
  /** Checks HTTP Basic credentials (login or e-mail, application password); `ip` is recorded as the last use's address. */
  authenticate(login: string, password: string, ip?: string): Promise<AppPasswordAuthResult>;
  /** Drops this process's cached verifications of a user. */
  forgetUser(userId: number): void;
}

/** An application password's audit event (docs/audit-log.md). */
export function appPasswordEvent(
  source: AuditSource,
  action: string,
  user: { readonly id: number; readonly login: string },
  uuid: string,
  changes: Readonly<Record<string, AuditChange>>,
): AuditEventInput {
  return {
    action,
    result: 'ok',
    actor: source.actor,
    client_ip: source.client_ip,
    user_agent: source.user_agent,
    request_id: source.request_id,
    object: { type: 'app_password', id: uuid, name: `${user.login} (#${user.id})` },
    changes,
  };
}

/** What may be shown of a stored application password. */
export function appPasswordInfo(record: Omit<AppPasswordInfo, never>): AppPasswordInfo {
  return {
    uuid: record.uuid,
    name: record.name,
    created: record.created,
    lastUsed: record.lastUsed,
    appId: record.appId,
    lastIp: record.lastIp,
  };
}

interface Verified {
  readonly user: UserRecord;
  readonly roles: readonly string[];
  readonly uuid: string;
  /** The store's credentials version it was verified under (a change anywhere makes it stale). */
  readonly version: number;
}

/**
 * Application passwords for HTTP Basic authentication (WordPress 5.6 semantics).
 *
 * @example
 * const apps = createAppPasswordService({ store });
 * const { password } = await apps.create('admin', 'deploy script'); // show once
 */
export function createAppPasswordService(options: { store: Store; clock?: Clock; cacheTtlMs?: number }): AppPasswordService {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const ttl = options.cacheTtlMs ?? VERIFIED_APP_PASSWORD_TTL_MS;
  // `ttlResolution: 0`: the (injectable) clock is read at every call.
  const cache = new LRUCache<string, Verified>({ max: 10_000, ttl, perf: { now: clock }, ttlResolution: 0 });
  let generation = 0;

  function forget(match: (v: Verified) => boolean): void {
    for (const [key, entry] of [...cache.entries()]) if (match(entry)) cache.delete(key);
    generation += 1;
  }

  return {
    async create(login, name, createOptions) {
      const user = await store.users.byLogin(login);
      if (!user) return { ok: false, code: 'unknown_user', message: `Unknown user "${login}".` };
      const trimmed = name.trim();
      if (trimmed === '') return { ok: false, code: 'invalid_name', message: 'An application name is required.' };
      const existing = await store.appPasswords.listForUser(user.id);
      if (existing.some((p) => p.name === trimmed)) {
        return { ok: false, code: 'duplicate_name', message: 'Each application name should be unique.' };
      }
      const password = generateAppPassword();
      const record = {
        uuid: randomUUID(),
        userId: user.id,
        name: trimmed,
        hash: hashAppPassword(password),
        created: clock(),
        appId: createOptions?.appId ?? '',
      };
      const source = createOptions?.source;
      // With its audit event (never the password or its hash) when the caller says who asks.
      await store.transaction(async (tx) => {
        await tx.appPasswords.create(record);
        if (source)
          tx.audit(appPasswordEvent(source, 'app_password.created', user, record.uuid, { name: { before: null, after: trimmed } }));
      });
      return { ok: true, password, info: appPasswordInfo({ ...record, lastUsed: null, lastIp: null }) };
    },

    async list(login) {
      const user = await store.users.byLogin(login);
      if (!user) return null;
      return (await store.appPasswords.listForUser(user.id)).map(appPasswordInfo);
    },

    async revoke(login, uuid, source) {
      const user = await store.users.byLogin(login);
      if (!user) return false;
      const removed = await store.transaction(async (tx) => {
        const name = (await tx.appPasswords.listForUser(user.id)).find((p) => p.uuid === uuid)?.name;
        const done = await tx.appPasswords.delete(user.id, uuid);
        if (done && source)
          tx.audit(appPasswordEvent(source, 'app_password.revoked', user, uuid, { name: { before: name ?? null, after: null } }));
        return done;
      });
      forget((v) => v.uuid === uuid);
      return removed;
    },

    async authenticate(login, password, ip) {
      const hash = hashAppPassword(normalizeAppPassword(password));
      const key = `${login}\0${hash}`;
      const now = clock();
      const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
      const cached = cache.get(key);
      if (cached && cached.version === version) return { ok: true, user: cached.user, roles: cached.roles, uuid: cached.uuid };

      const started = generation;
      const user = await findUserByLoginOrEmail(store, login);
      if (!user) return { ok: false, error: authError('invalid_username') };
      const record = await store.appPasswords.byHash(hash);
      if (!record || record.userId !== user.id) return { ok: false, error: authError('incorrect_password') };
      const roles = await store.users.roles(user.id);
      if (
        record.lastUsed === null ||
        now - record.lastUsed >= LAST_USED_RESOLUTION_MS ||
        (ip !== undefined && ip !== '' && ip !== record.lastIp)
      ) {
        await store.appPasswords.touch(record.uuid, now, ip);
      }
      // ttl 0 is lru-cache's "never expires": then nothing is cached.
      if (ttl > 0 && generation === started) cache.set(key, { user, roles, uuid: record.uuid, version }, { start: now });
      return { ok: true, user, roles, uuid: record.uuid };
    },

    forgetUser(userId) {
      forget((v) => v.user.id === userId);
    },
  };
}
