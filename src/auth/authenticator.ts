import type { Authenticator, Identity, Principal } from '../rest/types.js';
import type { Store, UserRecord } from '../store/types.js';
import { createAppPasswordService, requestTrace, type AppPasswordAuthResult, type AppPasswordService } from './app-passwords.js';
import { anonymousPrincipal, makePrincipal } from './capabilities.js';
import { systemClock, type Clock } from './clock.js';
import { LOGIN_COOKIE_NAME, readCookie } from './login-cookie.js';
import { createNonceService, type NonceService } from './nonce.js';
import { PasswordGuards, type GuardRefusal, type LoginFailure, type PasswordCheckVia } from './password-guards.js';
import { RestError } from '../rest/errors.js';
import type { Secrets } from './secrets.js';
import { createSessionManager, type LoginOptions, type LoginResult, type SessionManager, type VerifiedSession } from './sessions.js';

export interface AuthenticatorOptions {
  store: Store;
  secrets: Pick<Secrets, 'authKey' | 'nonceKey'>;
  /** Read at every capability check, so a change applies to cached principals too. */
  devMode: () => boolean;
  clock?: Clock;
  /** Hooks around every password check (features such as protect add theirs). */
  guards?: PasswordGuards;
}

/** The Authenticator of src/rest plus the pieces the HTTP adapter and user management need. */
export interface SitewardAuthenticator extends Authenticator {
  /** The hooks around password checks. */
  readonly guards: PasswordGuards;
  /** Login, logout and cookie verification (the `/login` and `/logout` pages use it). */
  readonly sessions: SessionManager;
  readonly appPasswords: AppPasswordService;
  readonly nonces: NonceService;
  /**
   * `sessions.login` plus the identity of the new session, so that the login response can carry
   * a nonce for it (e.g. the admin page rendered right after logging in).
   */
  login(
    login: string,
    password: string,
    options?: LoginOptions & { via?: PasswordCheckVia; challenge?: 'solved'; secondFactor?: SecondFactorCheck },
  ): Promise<LoginWithIdentity>;
  /**
   * The second step of a login whose password was right: `check` (the code) runs under the
   * password guards as a `two-factor` attempt (a wrong code is a failure), and only when it
   * passes is a session opened.
   */
  completeLogin(
    user: UserRecord,
    check: () => Promise<boolean>,
    options?: LoginOptions & { readonly failure?: Exclude<LoginFailure, 'password'> },
  ): Promise<LoginWithIdentity>;
  /**
   * A session for a user vouched for elsewhere (sign-in through the account service), with its
   * identity: the same cookie and session as `login`. The caller has run the password guards.
   */
  openSession(user: UserRecord, options?: LoginOptions): Promise<Extract<LoginWithIdentity, { ok: true }>>;
  /** Destroys the session of a cookie value (`sessions.logout`). */
  logout(cookieValue: string, from?: Pick<LoginOptions, 'ip' | 'userAgent' | 'requestId'>): Promise<boolean>;
  /** Drops this process's cached verifications of a user (wire to `createUserService`'s onUserChanged). */
  forgetUser(userId: number): void;
}

/**
 * Asked once the password is right, before any session exists: `none` (no second factor for
 * this user), `passed` (a code came with the password and is right), `missing` (one is needed:
 * nothing is opened, the caller asks for it), `failed` (a wrong code: a failed login).
 */
/** `failed`: a wrong app code; `failed_recovery`: a wrong or used recovery code (the failure is named after it). */
export type SecondFactorCheck = (user: UserRecord) => Promise<'none' | 'passed' | 'missing' | 'failed' | 'failed_recovery'>;

export type LoginWithIdentity =
  | (Extract<LoginResult, { ok: true }> & { readonly identity: Extract<Identity, { kind: 'cookie' }> })
  | Extract<LoginResult, { ok: false }>
  /** A password guard refused the attempt before the password was checked. */
  | { readonly ok: false; readonly error: 'refused'; readonly refusal: GuardRefusal }
  /** The password was right and a second factor is needed: no session was opened. */
  | { readonly ok: false; readonly error: 'second_factor_required'; readonly user: UserRecord }
  /** The password was right, the second factor was wrong (counted as a failure). */
  | { readonly ok: false; readonly error: 'second_factor_invalid' };

/** A guard's refusal as an error value (status, code, message; `data.retry_after` in seconds). */
export function refusalError(refusal: GuardRefusal): RestError {
  return new RestError(refusal.code, refusal.message, {
    status: refusal.status,
    ...(refusal.retryAfterSeconds !== undefined ? { retry_after: refusal.retryAfterSeconds } : {}),
  });
}

/** Splits `Basic base64(login:password)`; null when the header is not Basic or carries no colon. */
export function parseBasicAuthorization(header: string | undefined): { login: string; password: string } | null {
  if (!header) return null;
  const match = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Nobody: one frozen identity for every request without credentials. */
const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/**
 * Turns request headers into an identity (docs/spec/site-management-api.md §5; docs/spec/compat.md §6):
 * - a valid `siteward_logged_in` cookie → `cookie` with its session token (the nonce check applies);
 * - otherwise `Authorization: Basic …` → an application password: `other` (no nonce check) or
 *   `error` 401;
 * - otherwise `anonymous` (no cookie, or one that is malformed, expired, tampered or whose
 *   session was destroyed).
 * The nonce check itself (which nonce, the 403, the fresh header) belongs to the REST layer.
 *
 * @example
 * const auth = createAuthenticator({ store, secrets, devMode: () => config.offline });
 * const identity = await auth.identify(request.headers);
 */
export function createAuthenticator(options: AuthenticatorOptions): SitewardAuthenticator {
  const { store, secrets, devMode } = options;
  const clock = options.clock ?? systemClock;
  const sessions = createSessionManager({ store, secrets, clock });
  const appPasswords = createAppPasswordService({ store, clock });
  const nonces = createNonceService({ key: secrets.nonceKey, clock });
  const principals = new WeakMap<object, Principal>();
  const guards = options.guards ?? new PasswordGuards();

  /** Nonces are tied to the user id and session token; anything but a cookie login has neither. */
  function nonceSubject(identity: Identity): { uid: number; token: string } {
    if (identity.kind === 'cookie') return { uid: identity.principal.id, token: identity.sessionToken };
    if (identity.kind === 'other') return { uid: identity.principal.id, token: '' };
    return { uid: 0, token: '' };
  }

  type Checked =
    | Extract<LoginResult, { ok: true }>
    | Extract<LoginResult, { ok: false }>
    | { readonly ok: false; readonly error: 'second_factor_invalid' }
    | { readonly ok: true; readonly pending: UserRecord }
    | { readonly ok: false; readonly refused: GuardRefusal };

  function withIdentity(result: Checked): LoginWithIdentity {
    if ('refused' in result) return { ok: false, error: 'refused', refusal: result.refused };
    if ('pending' in result) return { ok: false, error: 'second_factor_required', user: result.pending };
    if (!result.ok) return result;
    const principal = makePrincipal(result.user, result.roles, { devMode });
    return { ...result, identity: { kind: 'cookie', principal, sessionToken: result.sessionToken } };
  }

  /** A verified session as an identity; its principal is kept with the (cached) session object. */
  const cookieIdentity = (session: VerifiedSession): Identity => {
    let principal = principals.get(session);
    if (!principal) {
      principal = makePrincipal(session.user, session.roles, { devMode });
      principals.set(session, principal);
    }
    return { kind: 'cookie', principal, sessionToken: session.sessionToken, expiresAt: session.expiresAt };
  };

  /** The principal of a verified application password, kept with its (cached) result object. */
  const basicIdentity = (result: Extract<AppPasswordAuthResult, { ok: true }>): Identity => {
    let principal = principals.get(result);
    if (!principal) {
      principal = makePrincipal(result.user, result.roles, { devMode });
      principals.set(result, principal);
    }
    return { kind: 'other', principal, credential: result.uuid, expiresAt: result.until };
  };

  type BasicCheck = Awaited<ReturnType<typeof guardedBasicCheck>>;
  /** The checks of application passwords running in this process, by credential (login and password hash). */
  const basicInFlight = new Map<string, Promise<BasicCheck>>();

  function guardedBasicCheck(login: string, password: string, clientIp: string, headers: Readonly<Record<string, string>>) {
    const attempt = { via: 'basic', login, ip: clientIp } as const;
    return guards.around(attempt, () => appPasswords.authenticate(login, password, clientIp, requestTrace(headers)));
  }

  const basicOutcome = (result: BasicCheck): Identity =>
    result.ok ? basicIdentity(result) : { kind: 'error', error: 'refused' in result ? refusalError(result.refused) : result.error };

  /**
   * An application password: a credential verified in this process under the current
   * credentials version is a verified session, as a cookie is (no password guard, no slot);
   * otherwise one check per credential runs under the guards and the same credential's other
   * requests wait for its answer. Only a right answer is shared: a waiting request whose
   * leader failed or was refused makes its own guarded attempt, so every wrong guess counts.
   */
  const basicIdentityOf = (
    login: string,
    password: string,
    clientIp: string,
    headers: Readonly<Record<string, string>>,
  ): Identity | Promise<Identity> => {
    const known = appPasswords.known(login, password);
    if (known) return basicIdentity(known);
    return appPasswords
      .verified(login, password)
      .then((cached) => (cached ? basicIdentity(cached) : checkedBasic(login, password, clientIp, headers)));
  };

  const checkedBasic = (
    login: string,
    password: string,
    clientIp: string,
    headers: Readonly<Record<string, string>>,
  ): Promise<Identity> => {
    const key = appPasswords.credentialKey(login, password);
    const running = basicInFlight.get(key);
    if (running) {
      return running.then(
        (result) => (result.ok ? basicIdentity(result) : guardedBasicCheck(login, password, clientIp, headers).then(basicOutcome)),
        () => guardedBasicCheck(login, password, clientIp, headers).then(basicOutcome),
      );
    }
    const check = guardedBasicCheck(login, password, clientIp, headers);
    basicInFlight.set(key, check);
    const done = () => {
      if (basicInFlight.get(key) === check) basicInFlight.delete(key);
    };
    check.then(done, done);
    return check.then(basicOutcome);
  };

  /** Who asks without a valid login cookie: an application password (Basic), or nobody. */
  const withoutSession = (headers: Readonly<Record<string, string>>, clientIp: string): Identity | Promise<Identity> => {
    const basic = parseBasicAuthorization(headers.authorization);
    if (!basic) return ANONYMOUS;
    return basicIdentityOf(basic.login, basic.password, clientIp, headers);
  };

  // Speed (issue 44): a client sends the same Cookie header with each request, so the login
  // cookie read from the last one is kept. Reading it again (its `|` come percent-encoded) and
  // hashing the new string for the verification cache cost about 1 µs a request; comparing the
  // header with the last one costs a few dozen ns.
  let lastCookieHeader: string | undefined;
  let lastCookie: string | undefined;
  const loginCookieOf = (header: string | undefined): string | undefined => {
    if (header !== lastCookieHeader) {
      lastCookie = readCookie(header, LOGIN_COOKIE_NAME);
      lastCookieHeader = header;
    }
    return lastCookie;
  };

  return {
    sessions,
    appPasswords,
    nonces,
    guards,

    identify(headers, clientIp = '') {
      // The login cookie first, as WordPress does (cookie auth before application passwords):
      // a valid session is not undone by a Basic header meant for something else (e.g. an
      // htpasswd-protected staging site).
      const cookie = loginCookieOf(headers.cookie);
      if (cookie === undefined || cookie === '') return withoutSession(headers, clientIp);
      // Speed: a cached verification the store confirms without a query needs no promise.
      const known = sessions.knownSession(cookie);
      if (known !== undefined) return known ? cookieIdentity(known) : withoutSession(headers, clientIp);
      return sessions.verify(cookie).then((session) => (session ? cookieIdentity(session) : withoutSession(headers, clientIp)));
    },

    verifyNonce(nonce, action, identity) {
      const { uid, token } = nonceSubject(identity);
      return nonces.verify(nonce, action, uid, token);
    },

    createNonce(action, identity) {
      const { uid, token } = nonceSubject(identity);
      return nonces.create(action, uid, token);
    },

    anonymous: anonymousPrincipal,

    async login(login, password, loginOptions) {
      const attempt = {
        via: loginOptions?.via ?? 'login-form',
        login,
        ip: loginOptions?.ip ?? '',
        ...(loginOptions?.challenge ? { challenge: loginOptions.challenge } : {}),
      };
      // `ok` is what the guards learn: a right password waiting for its code is no failure.
      const result = await guards.around(attempt, async () => {
        const user = await sessions.checkPassword(login, password);
        if (!user) return { ok: false, error: 'invalid_credentials' } as const;
        const second = loginOptions?.secondFactor ? await loginOptions.secondFactor(user) : 'none';
        if (second === 'failed' || second === 'failed_recovery')
          return { ok: false, error: 'second_factor_invalid', failure: second === 'failed' ? 'code' : 'recovery_code' } as const;
        if (second === 'missing') return { ok: true, pending: user } as const;
        return sessions.open(user, loginOptions);
      });
      return withIdentity(result);
    },

    async completeLogin(user, check, loginOptions) {
      const attempt = { via: 'two-factor', login: user.login, ip: loginOptions?.ip ?? '' } as const;
      const result = await guards.around(attempt, async () =>
        (await check())
          ? sessions.open(user, loginOptions)
          : ({ ok: false, error: 'second_factor_invalid', failure: loginOptions?.failure ?? 'code' } as const),
      );
      return withIdentity(result);
    },

    async openSession(user, loginOptions) {
      const result = await sessions.open(user, loginOptions);
      const principal = makePrincipal(result.user, result.roles, { devMode });
      return { ...result, identity: { kind: 'cookie', principal, sessionToken: result.sessionToken } };
    },

    logout: (cookieValue, from) => sessions.logout(cookieValue, from),

    forgetUser(userId) {
      sessions.forgetUser(userId);
      appPasswords.forgetUser(userId);
    },
  };
}
