import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { RestError } from '../rest/errors.js';
import { authError } from './errors.js';
import type { Store, UserRecord } from '../store/types.js';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from './clock.js';
import { findUserByLoginOrEmail } from './sessions.js';
import { APP_PASSWORD_LIMITS, atMostMessage, longerThan } from '../core/text-limits.js';
import { isServiceUnavailable } from '../core/unavailable.js';
import type { AuditChange, AuditEventInput, AuditSource } from '../wire/audit.js';

/** The limits' messages, the CLI's and the REST routes'. */
export const appPasswordNameTooLong = atMostMessage('name', APP_PASSWORD_LIMITS.name);
export const tooManyAppPasswords = `A user may have at most ${APP_PASSWORD_LIMITS.perUser} application passwords: revoke one first.`;

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

/** The verified-credential cache's key: the login and a hash of the presented password, never the password. */
function credentialKey(login: string, password: string): string {
  return `${login}\0${hashAppPassword(normalizeAppPassword(password))}`;
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
  | {
      readonly ok: false;
      readonly code: 'unknown_user' | 'invalid_name' | 'name_too_long' | 'duplicate_name' | 'too_many';
      readonly message: string;
    };

export type AppPasswordAuthResult =
  | {
      readonly ok: true;
      readonly user: UserRecord;
      readonly roles: readonly string[];
      readonly uuid: string;
      /** Until when (ms since the epoch) this verification is trusted without a new check. */
      readonly until: number;
    }
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
  /** `request`: the request's user agent and id, for the audit event of a first use. */
  authenticate(login: string, password: string, ip?: string, request?: RequestTrace): Promise<AppPasswordAuthResult>;
  /**
   * The identity of credentials this process verified under the current credentials version
   * (no password check, no store query when the version is known): a verified session, as a
   * cookie's is. undefined when not verified (or not known without asking the store).
   */
  known(login: string, password: string): Extract<AppPasswordAuthResult, { ok: true }> | undefined;
  /** `known`, reading the credentials version from the store when this process does not know it. */
  verified(login: string, password: string): Promise<Extract<AppPasswordAuthResult, { ok: true }> | undefined>;
  /** What identifies one presented credential (login and a hash of the password, never the password). */
  credentialKey(login: string, password: string): string;
  /** Drops this process's cached verifications of a user. */
  forgetUser(userId: number): void;
}

/** What an audit event says of the request beyond its address: its user agent and id (X-Request-Id, '' when none). */
export interface RequestTrace {
  readonly userAgent: string;
  readonly requestId: string;
}

/** The request trace of a request's headers. */
export function requestTrace(headers: Readonly<Record<string, string | undefined>>): RequestTrace {
  const id = headers['x-request-id'] ?? '';
  return { userAgent: (headers['user-agent'] ?? '').slice(0, 512), requestId: /^[\x21-\x7e]{1,128}$/.test(id) ? id : '' };
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
  readonly uuid: string;
  /** The answer given again (one object per verification, so callers may keep things with it). */
  readonly result: Extract<AppPasswordAuthResult, { ok: true }>;
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
      if (longerThan(trimmed, APP_PASSWORD_LIMITS.name)) return { ok: false, code: 'name_too_long', message: appPasswordNameTooLong };
      const existing = await store.appPasswords.listForUser(user.id);
      if (existing.some((p) => p.name === trimmed)) {
        return { ok: false, code: 'duplicate_name', message: 'Each application name should be unique.' };
      }
      if (existing.length >= APP_PASSWORD_LIMITS.perUser) return { ok: false, code: 'too_many', message: tooManyAppPasswords };
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

    credentialKey,

    known(login, password) {
      const version = store.sessions.knownCredentialsVersion?.();
      if (version === undefined) return undefined;
      const cached = cache.get(credentialKey(login, password));
      return cached && cached.version === version ? cached.result : undefined;
    },

    async verified(login, password) {
      const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
      const cached = cache.get(credentialKey(login, password));
      return cached && cached.version === version ? cached.result : undefined;
    },

    async authenticate(login, password, ip, request) {
      const hash = hashAppPassword(normalizeAppPassword(password));
      const key = `${login}\0${hash}`;
      const now = clock();
      const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
      const cached = cache.get(key);
      if (cached && cached.version === version) return cached.result;

      const started = generation;
      const user = await findUserByLoginOrEmail(store, login);
      if (!user) return { ok: false, error: authError('invalid_username') };
      const record = await store.appPasswords.byHash(hash);
      if (!record || record.userId !== user.id) return { ok: false, error: authError('incorrect_password') };
      const roles = await store.users.roles(user.id);
      if (record.lastUsed === null) {
        // The first use is an audit event, written with the mark in one transaction (one
        // winner when two requests race: the mark is set only where none was).
        await store
          .transaction(async (tx) => {
            if (await tx.appPasswords.touchFirst(record.uuid, now, ip))
              tx.audit({
                action: 'app_password.first_used',
                result: 'ok',
                actor: {
                  kind: 'user',
                  user_id: user.id,
                  login: user.login,
                  credential: { type: 'application_password', uuid: record.uuid, name: record.name },
                },
                client_ip: ip ?? '',
                user_agent: (request?.userAgent ?? '').slice(0, 512),
                request_id: request?.requestId ?? '',
                object: { type: 'app_password', id: record.uuid, name: `${user.login} (#${user.id})` },
                changes: { last_used: { before: null, after: now } },
              });
          })
          .catch((error: unknown) => {
            if (!isServiceUnavailable(error)) throw error;
          });
      } else if (
        now - record.lastUsed >= LAST_USED_RESOLUTION_MS ||
        now - record.lastUsed >= LAST_USED_RESOLUTION_MS ||
        (ip !== undefined && ip !== '' && ip !== record.lastIp)
      ) {
        // Bookkeeping, not the check: a store that cannot write (a full disk) still lets a read in.
        await store.appPasswords.touch(record.uuid, now, ip).catch((error: unknown) => {
          if (!isServiceUnavailable(error)) throw error;
        });
      }
      const result = { ok: true, user, roles, uuid: record.uuid, until: now + ttl } as const;
      // ttl 0 is lru-cache's "never expires": then nothing is cached.
      if (ttl > 0 && generation === started) cache.set(key, { user: result.user, uuid: result.uuid, version, result }, { start: now });
      return result;
    },

    forgetUser(userId) {
      forget((v) => v.user.id === userId);
    },
  };
}
