import type * as oidc from 'openid-client';
import { systemClock, type Clock } from '../../auth/clock.js';
import { boundedFetch } from './bounded-fetch.js';
import { openidClient } from './openid-client.js';
import { validateConnectionConfig, type ConnectionConfig, type ValidConnectionConfig } from './connection-config.js';
import { failure, toConnectionError, type ConnectionError, type Failure, type Stage } from './connection-errors.js';
import { ConnectionRecords, KEYS, RecordError, sha256, type LinkedUser, type Pending, type Registration } from './connection-records.js';
import { TokenSealer } from '../../auth/token-sealer.js';
import type { ConnectionVault } from './connection-vault.js';
import { checkSsl, type SslCheck } from './ssl-check.js';
import { pickUserinfo, toWpcomUser, type StoredUserinfo, type WpcomUser } from './wpcom-user.js';
import { DAY_MS } from '../../core/time.js';

export interface SiteConnectionOptions {
  config: ConnectionConfig;
  vault: ConnectionVault;
  /** At least 32 bytes; the token encryption key is derived from it (HKDF). */
  masterSecret: Uint8Array;
  clock?: Clock;
  /** Cached userinfo older than this is fetched again with the refresh token; default 1 day. */
  userinfoMaxAgeMs?: number;
  /** For tests: the fetch under openid-client. */
  fetch?: typeof fetch;
}

export const SCOPE = 'openid profile email offline_access';
/** Sign-in asks for no refresh token: it needs who the person is, not lasting access. */
export const LOGIN_SCOPE = 'openid profile email';
export const PENDING_TTL_MS = 10 * 60_000;
/** Expired pending logins are swept at most this often per process (sign-in starts are anonymous and may come in floods). */
const PURGE_EVERY_MS = 60_000;

/** What sign-in through the connection learned at the provider: who it is, and the tokens to link them with. */
export interface LoginIdentity {
  subject: string;
  /** Userinfo claims the site keeps (the mapping of wpcom-user.ts). */
  userinfo: StoredUserinfo;
  /** The provider says it verified `userinfo.email` (`email_verified: true`, exactly). */
  emailVerified: boolean;
  /** The same-site path recorded when the sign-in started. */
  returnTo: string;
  /** The record that links a site user to this account (match by e-mail); tokens only in memory until then. */
  link: LinkedUser;
}

export type Result<T> = ({ ok: true } & T) | Failure;

/**
 * The callback as the provider must see it (our registered redirect URI with the query the
 * browser brought back) and its `state`.
 */
function callbackState(redirectUri: string, callbackUrl: string): Result<{ callback: URL; state: string }> {
  let callback: URL;
  try {
    callback = new URL(redirectUri);
    callback.search = new URL(callbackUrl, redirectUri).search;
  } catch {
    return failure('state_invalid', 'the callback URL is not a URL');
  }
  const state = callback.searchParams.get('state');
  if (state === null || state === '') return failure('state_invalid', 'the callback has no state');
  return { ok: true, callback, state };
}

/**
 * The site's side of the connection to the central account service (openid-client 6): dynamic
 * registration, authorization code + PKCE + state + nonce, tokens sealed in the vault, userinfo
 * refresh, revocation. Framework-free: callers pass the browser session key and the site user id.
 * Every call either succeeds or returns a typed error; a failed call leaves stored tokens and the
 * registration unchanged (a presented state is consumed, though: it is single-use).
 *
 * @example
 * const made = createSiteConnection({ config, vault, masterSecret });
 * if (!made.ok) throw new Error(made.error.message);
 * const start = await made.connection.startAuthorization({ sessionKey, userId: 1 });
 * if (start.ok) redirectTo(start.url);
 */
export function createSiteConnection(
  options: SiteConnectionOptions,
): { ok: true; connection: SiteConnection } | { ok: false; error: ConnectionError } {
  const valid = validateConnectionConfig(options.config);
  if (!valid.ok) return valid;
  return { ok: true, connection: new SiteConnection(valid.config, options) };
}

export class SiteConnection {
  readonly #config: ValidConnectionConfig;
  readonly #records: ConnectionRecords;
  readonly #clock: Clock;
  readonly #maxAge: number;
  readonly #fetch: oidc.CustomFetch;
  #client: oidc.Configuration | undefined;
  #purgedAt = Number.NEGATIVE_INFINITY;

  constructor(config: ValidConnectionConfig, options: SiteConnectionOptions) {
    this.#config = config;
    this.#records = new ConnectionRecords(options.vault, new TokenSealer(options.masterSecret));
    this.#clock = options.clock ?? systemClock;
    this.#maxAge = options.userinfoMaxAgeMs ?? DAY_MS;
    this.#fetch = boundedFetch(config.timeoutMs, options.fetch);
  }

  get issuer(): string {
    return this.#config.issuer;
  }

  /** Discovery, plus dynamic registration when no client id is configured or stored. */
  async ensureRegistered(): Promise<Result<{ clientId: string; registered: boolean }>> {
    return this.#guard<{ clientId: string; registered: boolean }>('registration', async (openid) => {
      const existing = await this.#registration();
      if (existing !== undefined) {
        const client = await this.#oidcClient(existing);
        return { ok: true, clientId: client.clientMetadata().client_id, registered: false };
      }
      const client = await openid.dynamicClientRegistration(
        new URL(this.#config.issuer),
        {
          client_name: 'Siteward site',
          application_type: 'web',
          redirect_uris: this.#redirectUris(),
          response_types: ['code'],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        openid.ClientSecretBasic(),
        { ...this.#requestOptions(openid), initialAccessToken: this.#config.registrationToken },
      );
      const metadata = client.clientMetadata();
      const registration: Registration = {
        issuer: this.#config.issuer,
        redirectUri: this.#config.redirectUri,
        redirectUris: this.#redirectUris(),
        clientId: metadata.client_id,
        clientSecret: typeof metadata.client_secret === 'string' ? metadata.client_secret : undefined,
        registrationAccessToken: typeof metadata.registration_access_token === 'string' ? metadata.registration_access_token : undefined,
        registrationClientUri: typeof metadata.registration_client_uri === 'string' ? metadata.registration_client_uri : undefined,
        registeredAt: this.#clock(),
      };
      await this.#records.writeRegistration(registration);
      this.#client = client;
      return { ok: true, clientId: registration.clientId, registered: true };
    });
  }

  /** The provider's authorization URL for this browser session and site user. */
  async startAuthorization(input: { sessionKey: string; userId: string | number }): Promise<Result<{ url: string }>> {
    return this.#guard('discovery', (openid) =>
      this.#authorizationUrl(
        openid,
        { sessionHash: sha256(input.sessionKey), userId: String(input.userId) },
        // prompt=consent: without it oidc-provider drops offline_access (no refresh token). Never `resource`.
        { redirect_uri: this.#config.redirectUri, scope: SCOPE, prompt: 'consent' },
      ),
    );
  }

  /**
   * A new authorization of either kind: a PKCE verifier, state and nonce, kept as the pending
   * record (10 minutes) the callback checks, and the provider's URL that asks for them.
   */
  async #authorizationUrl(
    openid: typeof oidc,
    pending: Omit<Pending, 'verifier' | 'nonce' | 'expiresAt' | 'usedAt'>,
    parameters: { redirect_uri: string; scope: string; prompt?: string },
  ): Promise<Result<{ url: string }>> {
    const registration = await this.#registration();
    if (registration === undefined) return failure('not_registered', 'the site is not registered at the account service');
    const client = await this.#oidcClient(registration);
    const now = this.#clock();
    await this.#purge(now);
    const verifier = openid.randomPKCECodeVerifier();
    const state = openid.randomState();
    const nonce = openid.randomNonce();
    await this.#records.writePending(state, { ...pending, verifier, nonce, expiresAt: now + PENDING_TTL_MS });
    const url = openid.buildAuthorizationUrl(client, {
      ...parameters,
      code_challenge: await openid.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { ok: true, url: url.href };
  }

  /**
   * A checked callback's code exchange: the pending record is replaced by its `used` marker
   * first (single use), then the code is exchanged with the record's PKCE verifier and nonce,
   * and an ID token with a subject is required.
   */
  async #redeem(
    openid: typeof oidc,
    found: { callback: URL; state: string },
    pending: Pending,
    used: Pending,
  ): Promise<Result<{ client: oidc.Configuration; tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>; subject: string }>> {
    const registration = await this.#registration();
    if (registration === undefined) return failure('not_registered', 'the site is not registered at the account service');
    const client = await this.#oidcClient(registration);
    await this.#records.writePending(found.state, used);

    const tokens = await openid.authorizationCodeGrant(client, found.callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: found.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const subject = tokens.claims()?.sub;
    if (subject === undefined) return failure('id_token_invalid', 'the token response has no ID token');
    return { ok: true, client, tokens, subject };
  }

  /** Checks the callback's state, exchanges the code, validates the ID token, fetches userinfo, stores the tokens. */
  async completeAuthorization(input: {
    callbackUrl: string;
    sessionKey: string;
    userId: string | number;
  }): Promise<Result<{ user: WpcomUser }>> {
    const userId = String(input.userId);
    const found = callbackState(this.#config.redirectUri, input.callbackUrl);
    if (!found.ok) return found;
    const { callback, state } = found;
    return this.#guard('token', async (openid) => {
      const pending = await this.#records.readPending(state);
      const now = this.#clock();
      if (pending === undefined) return failure('state_invalid', 'unknown state: this login was not started here');
      if (pending.expiresAt <= now) return failure('state_expired', 'the login took longer than 10 minutes; start again');
      if (pending.usedAt !== undefined) return failure('state_replayed', 'this login was already completed; start again');
      if (pending.purpose === 'login') return failure('state_invalid', 'this state belongs to a sign-in, not to linking an account');
      if (pending.sessionHash !== sha256(input.sessionKey) || pending.userId !== userId) {
        return failure('state_invalid', 'this login was started in another session');
      }
      // Single use: mark before the exchange, keep the marker (without secrets) until it expires.
      const used = { sessionHash: pending.sessionHash, userId, expiresAt: pending.expiresAt, usedAt: now };
      const redeemed = await this.#redeem(openid, { callback, state }, pending, used);
      if (!redeemed.ok) return redeemed;
      const { client, tokens, subject } = redeemed;
      const info = await this.#userinfo(client, tokens.access_token, subject);
      await this.#records.writeUser(userId, {
        issuer: this.#config.issuer,
        subject,
        ...this.#tokenFields(tokens, undefined),
        userinfo: info,
        userinfoFetchedAt: this.#clock(),
        linkedAt: this.#clock(),
      });
      return { ok: true, user: toWpcomUser(info) };
    });
  }

  /**
   * Whether sign-in can use the registered client: a client registered by hand is trusted to
   * list the sign-in redirect URI (README: register both); a dynamic registration must have
   * been made with it (registrations older than sign-in were not).
   */
  async loginRegistered(): Promise<Result<object>> {
    if (this.#config.loginRedirectUri === undefined) return failure('invalid_config', 'no sign-in redirect URI is configured');
    try {
      const registration = await this.#registration();
      if (registration === undefined) return failure('not_registered', 'the site is not registered at the account service');
      if (this.#config.clientId === undefined && !(registration.redirectUris ?? []).includes(this.#config.loginRedirectUri)) {
        return failure('not_registered', `the site's registration predates sign-in: it does not list ${this.#config.loginRedirectUri}`);
      }
      return { ok: true };
    } catch (error) {
      if (error instanceof RecordError) return failure('storage_invalid', `stored connection data is unreadable: ${error.message}`);
      throw error;
    }
  }

  /**
   * Sign-in (the `sso` module): the provider's authorization URL, bound to a key the browser
   * holds in a cookie instead of a site session (there is none yet). Same PKCE, state and nonce
   * rules as linking; no refresh token is asked for and consent is only asked when the provider
   * has no grant yet.
   */
  async startLogin(input: { browserKey: string; returnTo: string }): Promise<Result<{ url: string }>> {
    const ready = await this.loginRegistered();
    if (!ready.ok) return ready;
    const redirectUri = this.#config.loginRedirectUri ?? '';
    return this.#guard('discovery', (openid) =>
      this.#authorizationUrl(
        openid,
        { purpose: 'login', sessionHash: sha256(input.browserKey), userId: '', returnTo: input.returnTo },
        { redirect_uri: redirectUri, scope: LOGIN_SCOPE },
      ),
    );
  }

  /**
   * Sign-in's callback: the state must be a sign-in state of this browser, unused and unexpired;
   * then the code exchange (PKCE), the ID token (nonce) and userinfo. Nothing is stored but the
   * state's used marker: deciding who logs in, and linking, is the caller's.
   */
  async completeLogin(input: { callbackUrl: string; browserKey: string }): Promise<Result<{ identity: LoginIdentity }>> {
    const redirectUri = this.#config.loginRedirectUri;
    if (redirectUri === undefined) return failure('invalid_config', 'no sign-in redirect URI is configured');
    const found = callbackState(redirectUri, input.callbackUrl);
    if (!found.ok) return found;
    const { callback, state } = found;
    return this.#guard('token', async (openid) => {
      const pending = await this.#records.readPending(state);
      const now = this.#clock();
      if (pending === undefined) return failure('state_invalid', 'unknown state: this sign-in was not started here');
      if (pending.expiresAt <= now) return failure('state_expired', 'the sign-in took longer than 10 minutes; start again');
      if (pending.usedAt !== undefined) return failure('state_replayed', 'this sign-in was already completed; start again');
      if (pending.purpose !== 'login') return failure('state_invalid', 'this state belongs to linking an account, not to a sign-in');
      if (pending.sessionHash !== sha256(input.browserKey)) return failure('state_invalid', 'this sign-in was started in another browser');
      // Single use, as for linking: marked before the exchange.
      const used: Pending = { purpose: 'login', sessionHash: pending.sessionHash, userId: '', expiresAt: pending.expiresAt, usedAt: now };
      const redeemed = await this.#redeem(openid, { callback, state }, pending, used);
      if (!redeemed.ok) return redeemed;
      const { client, tokens, subject } = redeemed;
      let claims: oidc.UserInfoResponse;
      try {
        claims = await openid.fetchUserInfo(client, tokens.access_token, subject);
      } catch (error) {
        throw new StageError('userinfo', error);
      }
      const userinfo = pickUserinfo(claims);
      const at = this.#clock();
      return {
        ok: true,
        identity: {
          subject,
          userinfo,
          emailVerified: claims.email_verified === true,
          returnTo: pending.returnTo ?? '',
          link: {
            issuer: this.#config.issuer,
            subject,
            ...this.#tokenFields(tokens, undefined),
            userinfo,
            userinfoFetchedAt: at,
            linkedAt: at,
          },
        },
      };
    });
  }

  /** Site user ids linked to this provider's account `subject` (normally at most one). */
  async usersLinkedTo(subject: string): Promise<string[]> {
    const found: string[] = [];
    for (const id of await this.#records.linkedUserIds()) {
      const identity = await this.#records.readUserIdentity(id);
      if (identity !== undefined && identity.issuer === this.#config.issuer && identity.subject === subject) found.push(id);
    }
    return found;
  }

  /** The provider account a site user is linked to, read without opening tokens; undefined when not linked. */
  async linkedSubject(userId: string | number): Promise<string | undefined> {
    return (await this.#records.readUserIdentity(String(userId)))?.subject;
  }

  /** Links a site user to the account a sign-in found (match by e-mail on first use). */
  async linkUser(userId: string | number, link: LinkedUser): Promise<void> {
    await this.#records.writeUser(String(userId), link);
  }

  /** The linked account of a site user; refreshed (refresh token, then userinfo) when the cache is older than the bound. */
  async getUser(userId: string | number, options: { maxAgeMs?: number } = {}): Promise<Result<{ user: WpcomUser; refreshed: boolean }>> {
    return this.#guard('refresh', async (openid) => {
      const linked = await this.#records.readUser(String(userId));
      if (linked === undefined) return failure('not_linked', `site user ${userId} is not linked to an account`);
      if (this.#clock() - linked.userinfoFetchedAt < (options.maxAgeMs ?? this.#maxAge)) {
        return { ok: true, user: toWpcomUser(linked.userinfo), refreshed: false };
      }
      const registration = await this.#registration();
      if (registration === undefined) return failure('not_registered', 'the site is not registered at the account service');
      const client = await this.#oidcClient(registration);
      let current = linked;
      const expired = linked.accessTokenExpiresAt !== undefined && linked.accessTokenExpiresAt - 30_000 <= this.#clock();
      if (linked.refreshToken !== undefined) {
        const tokens = await openid.refreshTokenGrant(client, linked.refreshToken);
        // Stored at once: the provider may have rotated the refresh token.
        current = { ...linked, ...this.#tokenFields(tokens, linked) };
        await this.#records.writeUser(String(userId), current);
      } else if (expired) {
        return failure('not_linked', 'the access token expired and there is no refresh token; link the account again');
      }
      const info = await this.#userinfo(client, current.accessToken, current.subject);
      await this.#records.writeUser(String(userId), { ...current, userinfo: info, userinfoFetchedAt: this.#clock() });
      return { ok: true, user: toWpcomUser(info), refreshed: true };
    });
  }

  /**
   * The stored records that cannot be opened (altered, sealed with another key, malformed): the
   * registration and every linked user's tokens, each named by its vault key. Empty when all open.
   */
  async unreadableRecords(): Promise<string[]> {
    const unreadable: string[] = [];
    const attempt = async (key: string, read: () => Promise<unknown>) => {
      try {
        await read();
      } catch (error) {
        if (!(error instanceof RecordError)) throw error;
        unreadable.push(key);
      }
    };
    if (this.#config.clientId === undefined) await attempt(KEYS.registration, () => this.#records.readRegistration());
    for (const id of await this.#records.linkedUserIds()) await attempt(`${KEYS.userPrefix}${id}`, () => this.#records.readUser(id));
    return unreadable;
  }

  /** Site user ids with stored tokens. */
  linkedUsers(): Promise<string[]> {
    return this.#records.linkedUserIds();
  }

  /** Unlink: revokes one user's tokens at the provider (best effort), then forgets them. */
  async unlinkUser(userId: string | number): Promise<Result<{ revoked: boolean }>> {
    const id = String(userId);
    const linked = await this.#readUserQuietly(id);
    if (linked === null) return failure('not_linked', `site user ${id} is not linked to an account`);
    const revoked = linked === undefined ? false : await this.#revoke(linked);
    await this.#records.vault.delete(`${KEYS.userPrefix}${id}`);
    return { ok: true, revoked };
  }

  /**
   * Disconnect: revokes every user's tokens where the provider advertises revocation, then forgets
   * all tokens, pending logins and the registration. Forgetting happens even when the provider is
   * unreachable; `notRevoked` counts the users whose tokens may still be live there.
   */
  async revokeAll(): Promise<{ ok: true; revoked: number; notRevoked: number }> {
    let revoked = 0;
    let notRevoked = 0;
    for (const id of await this.#records.linkedUserIds()) {
      const linked = await this.#readUserQuietly(id);
      if (linked !== null && linked !== undefined && (await this.#revoke(linked))) revoked += 1;
      else notRevoked += 1;
      await this.#records.vault.delete(`${KEYS.userPrefix}${id}`);
    }
    for (const key of await this.#records.vault.keys(KEYS.pendingPrefix)) await this.#records.vault.delete(key);
    await this.#records.vault.delete(KEYS.registration);
    this.#client = undefined;
    return { ok: true, revoked, notRevoked };
  }

  /** `/recheck-ssl`: can the site reach the account service over verified HTTPS? */
  recheckSsl(): Promise<SslCheck> {
    return checkSsl(this.#config, (url, init) => this.#fetch(String(url), { ...(init as oidc.CustomFetchOptions) }));
  }

  async #revoke(linked: LinkedUser): Promise<boolean> {
    try {
      const openid = await openidClient();
      const registration = await this.#registration();
      if (registration === undefined) return false;
      const client = await this.#oidcClient(registration);
      if (client.serverMetadata().revocation_endpoint === undefined) return false;
      // Revoking the refresh token ends the whole grant at oidc-provider; the access token goes too.
      if (linked.refreshToken !== undefined)
        await openid.tokenRevocation(client, linked.refreshToken, { token_type_hint: 'refresh_token' });
      await openid.tokenRevocation(client, linked.accessToken, { token_type_hint: 'access_token' });
      return true;
    } catch {
      return false;
    }
  }

  /** undefined: record unreadable (still deletable); null: no record. */
  async #readUserQuietly(id: string): Promise<LinkedUser | undefined | null> {
    try {
      return (await this.#records.readUser(id)) ?? null;
    } catch {
      return undefined;
    }
  }

  async #userinfo(client: oidc.Configuration, accessToken: string, subject: string) {
    try {
      const openid = await openidClient();
      return pickUserinfo(await openid.fetchUserInfo(client, accessToken, subject));
    } catch (error) {
      throw new StageError('userinfo', error);
    }
  }

  #tokenFields(
    tokens: oidc.TokenEndpointResponse,
    previous: LinkedUser | undefined,
  ): Pick<LinkedUser, 'accessToken' | 'refreshToken' | 'idToken' | 'accessTokenExpiresAt'> {
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? previous?.refreshToken,
      idToken: tokens.id_token ?? previous?.idToken,
      accessTokenExpiresAt: typeof tokens.expires_in === 'number' ? this.#clock() + tokens.expires_in * 1000 : undefined,
    };
  }

  #redirectUris(): string[] {
    return this.#config.loginRedirectUri === undefined
      ? [this.#config.redirectUri]
      : [this.#config.redirectUri, this.#config.loginRedirectUri];
  }

  /** Sweeps expired pending logins, at most once a minute per process (each is also checked for expiry when read). */
  async #purge(now: number): Promise<void> {
    if (now - this.#purgedAt < PURGE_EVERY_MS) return;
    this.#purgedAt = now;
    await this.#records.purgePending(now);
  }

  /** The configured client, or the stored registration when it was made for this issuer and redirect URI. */
  async #registration(): Promise<Registration | undefined> {
    if (this.#config.clientId !== undefined) {
      return {
        issuer: this.#config.issuer,
        redirectUri: this.#config.redirectUri,
        clientId: this.#config.clientId,
        clientSecret: this.#config.clientSecret,
        registeredAt: 0,
      };
    }
    const stored = await this.#records.readRegistration();
    if (stored === undefined || stored.issuer !== this.#config.issuer || stored.redirectUri !== this.#config.redirectUri) return undefined;
    return stored;
  }

  async #oidcClient(registration: Registration): Promise<oidc.Configuration> {
    if (this.#client !== undefined && this.#client.clientMetadata().client_id === registration.clientId) return this.#client;
    const openid = await openidClient();
    try {
      this.#client = await openid.discovery(
        new URL(this.#config.issuer),
        registration.clientId,
        registration.clientSecret === undefined ? undefined : { client_secret: registration.clientSecret },
        registration.clientSecret === undefined ? openid.None() : openid.ClientSecretBasic(registration.clientSecret),
        this.#requestOptions(openid),
      );
    } catch (error) {
      throw new StageError('discovery', error);
    }
    return this.#client;
  }

  #requestOptions(openid: typeof oidc): oidc.DiscoveryRequestOptions {
    return {
      [openid.customFetch]: this.#fetch,
      timeout: this.#config.timeoutMs / 1000,
      // Plain http only for loopback issuers (validated in connection-config).
      execute: this.#config.insecure ? [openid.allowInsecureRequests] : [],
    };
  }

  /** Runs an operation and turns anything thrown into a typed error. */
  async #guard<T>(stage: Stage, run: (openid: typeof oidc) => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await run(await openidClient());
    } catch (error) {
      if (error instanceof RecordError) return failure('storage_invalid', `stored connection data is unreadable: ${error.message}`);
      if (error instanceof StageError) return { ok: false, error: toConnectionError(error.cause, error.stage, this.#config.issuer) };
      return { ok: false, error: toConnectionError(error, stage, this.#config.issuer) };
    }
  }
}

/** Tags a library error with the step it came from. */
class StageError extends Error {
  constructor(
    readonly stage: Stage,
    cause: unknown,
  ) {
    super(`connection ${stage} failed`, { cause });
  }
}
