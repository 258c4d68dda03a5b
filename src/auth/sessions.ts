import { createHash, randomBytes } from 'node:crypto';
import type { Store, UserRecord } from '../store/types.js';
import { LRUCache } from 'lru-cache';
import { systemClock, type Clock } from './clock.js';
import { loginCookieHmacValid, parseLoginCookie, signLoginCookie } from './login-cookie.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import { DAY_MS } from '../core/time.js';
import type { AuditEventInput, AuditSource } from '../wire/audit.js';

/** Session lifetime without "remember me" (WordPress: 2 days). */
export const SESSION_LIFETIME_MS = 2 * DAY_MS;
/** Session lifetime with "remember me" (WordPress: 14 days). */
export const REMEMBER_LIFETIME_MS = 14 * DAY_MS;
/**
 * How long a verified cookie is kept. Each use still compares the store's credentials version
 * (one single-row read), so a logout, password or role change made by any process is seen by
 * the next request everywhere; the lifetime only bounds memory.
 */
export const VERIFIED_COOKIE_TTL_MS = 5_000;

/** A session token: 32 random bytes, base64url: 43 URL-safe characters. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a session token. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface LoginOptions {
  remember?: boolean;
  userAgent?: string;
  ip?: string;
  /** How the user proved who they are (`login-form`, `login-json`, `two-factor`, `sso`), for the audit event. */
  via?: string;
  /** The request's id (X-Request-Id), for the audit event. */
  requestId?: string;
}

/** Who ends sessions, and from where (an audit event's source: docs/audit-log.md). */
export type SessionEnder = AuditSource;

/** The audit event of a session's start or end, its user acting through it. */
function sessionEvent(
  action: string,
  user: { readonly id: number; readonly login: string },
  tokenHash: string,
  from: { readonly ip?: string; readonly userAgent?: string; readonly requestId?: string },
  changes: AuditEventInput['changes'],
): AuditEventInput {
  return {
    action,
    result: 'ok',
    actor: { kind: 'user', user_id: user.id, login: user.login, credential: { type: 'session', token_hash: tokenHash } },
    client_ip: from.ip ?? '',
    user_agent: (from.userAgent ?? '').slice(0, 512),
    request_id: from.requestId ?? '',
    object: { type: 'user', id: String(user.id), name: user.login },
    changes,
  };
}

export type LoginResult =
  | {
      readonly ok: true;
      /** The value of the `siteward_logged_in` cookie. */
      readonly cookie: string;
      /** When the session ends (ms since the epoch; the cookie's expiration). */
      readonly expiresAt: number;
      readonly remember: boolean;
      readonly user: UserRecord;
      readonly roles: readonly string[];
      readonly sessionToken: string;
    }
  /** Unknown login and wrong password look the same to the caller (and take the same time). */
  | { readonly ok: false; readonly error: 'invalid_credentials' };

/** A login cookie that checked out. */
export interface VerifiedSession {
  readonly user: UserRecord;
  readonly roles: readonly string[];
  readonly sessionToken: string;
  /** ms since the epoch. */
  readonly expiresAt: number;
}

export interface SessionManager {
  /** Checks the password (login name or e-mail), opens a session and signs its cookie. */
  login(login: string, password: string, options?: LoginOptions): Promise<LoginResult>;
  /** Only the password check of `login`: the user, or null (unknown and wrong take the same time). */
  checkPassword(login: string, password: string): Promise<UserRecord | null>;
  /**
   * Opens a session for a user already proven (password and second factor) or vouched for by
   * someone else (sign-in through the account service): the same session, cookie and lifetime.
   */
  open(user: UserRecord, options?: LoginOptions): Promise<Extract<LoginResult, { ok: true }>>;
  /** Destroys the session of a cookie (a `session.logged_out` event, `from` the request); true when there was one. */
  logout(cookieValue: string, from?: Pick<LoginOptions, 'ip' | 'userAgent' | 'requestId'>): Promise<boolean>;
  /** The session behind a cookie value, or null when malformed, expired, tampered or destroyed. */
  verify(cookieValue: string): Promise<VerifiedSession | null>;
  /**
   * `verify`'s answer when it is known without waiting (a cached verification at a credentials
   * version the store knows without a query); undefined when only `verify` can tell.
   */
  knownSession(cookieValue: string): VerifiedSession | null | undefined;
  /** Destroys every session of a user (e.g. after a password change); `by`: who, for the `session.ended` event. */
  destroyUserSessions(userId: number, by?: SessionEnder): Promise<number>;
  /** Drops this process's cached verifications of a user (after a role or password change). */
  forgetUser(userId: number): void;
  /**
   * Ends every session of the user but the one of `keep` (a verified login's session token),
   * as WordPress does for the other sessions after a password change; returns how many ended.
   */
  destroyOtherSessions(userId: number, keep: string, by?: SessionEnder): Promise<number>;
  /**
   * The cookie of the same session signed again under the user's current password hash (after
   * that user changed their own password; WordPress's `wp_set_auth_cookie` then), or null when
   * the value is not a login cookie of this user.
   */
  resign(cookieValue: string, user: UserRecord): { cookie: string; expiresAt: number; remember: boolean } | null;
  /** Removes expired sessions from the store; returns how many. For a periodic job. */
  purgeExpired(): Promise<number>;
}

export interface SessionManagerOptions {
  store: Store;
  secrets: { readonly authKey: Buffer };
  clock?: Clock;
  /** Verified-cookie cache lifetime; at most 5 s is advisable (see VERIFIED_COOKIE_TTL_MS). */
  cacheTtlMs?: number;
  cacheSize?: number;
}

/** Sessions of `userId` ended by someone (`which`: all of them, or all but the actor's own). */
function endedEvent(
  by: SessionEnder,
  user: UserRecord | undefined,
  userId: number,
  count: number,
  which: 'all' | 'others',
): AuditEventInput {
  return {
    action: 'session.ended',
    result: 'ok',
    actor: by.actor,
    client_ip: by.client_ip,
    user_agent: by.user_agent,
    request_id: by.request_id,
    object: { type: 'user', id: String(userId), name: user?.login ?? '' },
    // `others`: the actor's own session stays.
    changes: { sessions: which === 'all' ? { before: count, after: 0 } : { before: count + 1, after: 1 } },
  };
}

/** Finds a user by login, or by e-mail when the login contains `@` (WordPress 4.5+). */
export async function findUserByLoginOrEmail(store: Store, login: string): Promise<UserRecord | undefined> {
  // No login holds a NUL, and PostgreSQL refuses one in a text parameter with an error (a 500):
  // such a name is simply unknown, on every store.
  if (hasNul(login)) return undefined;
  const byLogin = await store.users.byLogin(login);
  if (byLogin || !login.includes('@')) return byLogin;
  return store.users.byEmail(login);
}

/** True when a string carries a NUL character, which no stored name or token can hold. */
export function hasNul(value: string): boolean {
  return value.includes('\0');
}

/**
 * Login sessions with WordPress-style cookies (`<login>|<expiration>|<token>|<hmac>`).
 *
 * @example
 * const sessions = createSessionManager({ store, secrets });
 * const result = await sessions.login('admin', password, { remember: true, userAgent, ip });
 * if (result.ok) reply.header('set-cookie', loginCookieHeader(result.cookie, { ...result, secure }));
 */
export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const { store } = options;
  const authKey = options.secrets.authKey;
  const clock = options.clock ?? systemClock;
  const ttl = options.cacheTtlMs ?? VERIFIED_COOKIE_TTL_MS;
  // Each entry remembers the credentials version it was verified under; `ttlResolution: 0`
  // reads the (injectable) clock at every call.
  const cache = new LRUCache<string, { session: VerifiedSession; version: number }>({
    max: options.cacheSize ?? 10_000,
    perf: { now: clock },
    ttlResolution: 0,
  });
  // Bumped by every logout/forget: a verification that started earlier must not cache its
  // result, or it could resurrect a session destroyed while it was reading the store.
  let generation = 0;

  async function verifyUncached(value: string, now: number): Promise<VerifiedSession | null> {
    const cookie = parseLoginCookie(value);
    if (!cookie || cookie.expiration * 1000 <= now) return null;
    const user = await store.users.byLogin(cookie.login);
    if (!user || !loginCookieHmacValid(authKey, cookie, user.passHash)) return null;
    const session = await store.sessions.find(hashSessionToken(cookie.token));
    if (!session || session.userId !== user.id || session.expiresAt <= now) return null;
    const roles = await store.users.roles(user.id);
    return { user, roles, sessionToken: cookie.token, expiresAt: Math.min(session.expiresAt, cookie.expiration * 1000) };
  }

  /** The cached verification's answer at `version` (null once expired); undefined when none is cached at it. */
  function cachedAnswer(value: string, version: number, now: number): VerifiedSession | null | undefined {
    const cached = cache.get(value);
    if (cached === undefined || cached.version !== version) return undefined;
    return cached.session.expiresAt > now ? cached.session : null;
  }

  function forgetUser(userId: number): void {
    for (const [key, entry] of [...cache.entries()]) if (entry.session.user.id === userId) cache.delete(key);
    generation += 1;
  }

  async function checkPassword(login: string, password: string): Promise<UserRecord | null> {
    const user = await findUserByLoginOrEmail(store, login);
    const ok = user ? await verifyPassword(user.passHash, password) : await verifyNothing(password);
    return user && ok ? user : null;
  }

  async function open(user: UserRecord, opts: LoginOptions = {}): Promise<Extract<LoginResult, { ok: true }>> {
    const remember = opts.remember === true;
    const now = clock();
    // The cookie carries whole seconds; the session ends at the same instant.
    const expiration = Math.floor((now + (remember ? REMEMBER_LIFETIME_MS : SESSION_LIFETIME_MS)) / 1000);
    const token = newSessionToken();
    const tokenHash = hashSessionToken(token);
    // A login is a change (a new session): its event is written with it.
    await store.transaction(async (tx) => {
      await tx.sessions.create({
        tokenHash,
        userId: user.id,
        expiresAt: expiration * 1000,
        userAgent: (opts.userAgent ?? '').slice(0, 512),
        ip: (opts.ip ?? '').slice(0, 64),
        created: now,
      });
      tx.audit(
        sessionEvent('login.succeeded', user, tokenHash, opts, {
          via: { before: null, after: opts.via ?? 'session' },
          expires: { before: null, after: expiration * 1000 },
        }),
      );
    });
    const cookie = signLoginCookie(authKey, { login: user.login, expiration, token }, user.passHash);
    const roles = await store.users.roles(user.id);
    return { ok: true, cookie, expiresAt: expiration * 1000, remember, user, roles, sessionToken: token };
  }

  return {
    forgetUser,
    checkPassword,
    open,

    async login(login, password, opts = {}) {
      const user = await checkPassword(login, password);
      if (!user) return { ok: false, error: 'invalid_credentials' };
      return open(user, opts);
    },

    async logout(value, from = {}) {
      cache.delete(value);
      generation += 1;
      const cookie = parseLoginCookie(value);
      if (!cookie) return false;
      const tokenHash = hashSessionToken(cookie.token);
      return store.transaction(async (tx) => {
        const session = await tx.sessions.find(tokenHash);
        const done = await tx.sessions.destroy(tokenHash);
        if (done && session) tx.audit(sessionEvent('session.logged_out', { id: session.userId, login: cookie.login }, tokenHash, from, {}));
        return done;
      });
    },

    knownSession(value) {
      const version = store.sessions.knownCredentialsVersion?.();
      return version === undefined ? undefined : cachedAnswer(value, version, clock());
    },

    async verify(value) {
      const now = clock();
      // Read before verifying: a change committed meanwhile leaves the entry tagged as stale.
      const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
      const cached = cachedAnswer(value, version, now);
      if (cached !== undefined) return cached;
      const started = generation;
      const verified = await verifyUncached(value, now);
      // ttl 0 is lru-cache's "never expires": then nothing is cached.
      if (verified && ttl > 0 && generation === started)
        cache.set(value, { session: verified, version }, { start: now, ttl: Math.min(ttl, verified.expiresAt - now) });
      return verified;
    },

    async destroyOtherSessions(userId, keep, by) {
      const count = await store.transaction(async (tx) => {
        const ended = await tx.sessions.destroyOthersForUser(userId, hashSessionToken(keep));
        if (ended > 0 && by) tx.audit(endedEvent(by, await tx.users.byId(userId), userId, ended, 'others'));
        return ended;
      });
      forgetUser(userId);
      return count;
    },

    resign(value, user) {
      const cookie = parseLoginCookie(value);
      if (!cookie || cookie.login.toLowerCase() !== user.login.toLowerCase()) return null;
      const signed = signLoginCookie(authKey, { login: cookie.login, expiration: cookie.expiration, token: cookie.token }, user.passHash);
      const expiresAt = cookie.expiration * 1000;
      // WordPress's rule: a cookie that outlives a plain session was a "remember me" one.
      return { cookie: signed, expiresAt, remember: expiresAt - clock() > SESSION_LIFETIME_MS };
    },

    async destroyUserSessions(userId, by) {
      const count = await store.transaction(async (tx) => {
        const ended = await tx.sessions.destroyForUser(userId);
        if (ended > 0 && by) tx.audit(endedEvent(by, await tx.users.byId(userId), userId, ended, 'all'));
        return ended;
      });
      forgetUser(userId);
      return count;
    },

    purgeExpired() {
      return store.sessions.purgeExpired(clock());
    },
  };
}
