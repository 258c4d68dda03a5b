/**
 * The site's connection as the product uses it: the OpenID Connect engine (site-connection.ts)
 * over the store, plus the product's rules: who becomes master user, when unlinking or
 * disconnecting is refused, and the time bound of every operation that calls the provider.
 * Framework-free: routes and pages map its results to HTTP.
 */
import type { Config } from '../../config/config.js';
import type { Logger } from '../../plugins/api.js';
import type { Store } from '../../store/types.js';
import type { AuditSource } from '../audit/index.js';
import { actingAs } from './connection-audit.js';
import { failure, type ConnectionError } from './connection-errors.js';
import { ConnectionState, type ConnectionFacts } from './connection-state.js';
import { probeProvider, withDeadline } from './provider-calls.js';
import { createSiteConnection, type LoginIdentity, type Result, type SiteConnection } from './site-connection.js';
import type { SslCheck } from './ssl-check.js';
import { OPTION_NAMES, StoreVault } from './store-vault.js';
import type { WpcomUser } from './wpcom-user.js';

export const HTTPS_TEST_STATUS_KEY = 'connection:https-test';
/** Where the provider sends the browser back after sign-in through the connection (the `sso` module). */
export const LOGIN_CALLBACK_PATH = '/login/sso/callback';

export interface ConnectionServiceOptions {
  config: Config;
  store: Store;
  clock: () => number;
  /** At least 32 bytes; the token key is derived from it. */
  masterSecret: Uint8Array;
  log: Logger;
}

/** Why unlink or disconnect was refused before the provider was asked anything. */
export type Refusal = 'not_configured' | 'unlink_user_failed' | 'disconnect_failed';

export type Outcome<T> = ({ ok: true } & T) | { ok: false; refusal: Refusal } | { ok: false; error: ConnectionError };

export class ConnectionService {
  readonly state: ConnectionState;
  /** Null when no account service is configured. */
  readonly engine: SiteConnection | null;
  /** The sign-in callback URL, to register at the provider beside `/connect/callback`. */
  readonly loginRedirectUri: string;
  readonly #config: Config;
  readonly #store: Store;
  readonly #log: Logger;

  constructor(options: ConnectionServiceOptions) {
    const { config } = options;
    this.#config = config;
    this.#store = options.store;
    this.#log = options.log;
    const redirectUri = `${config.homeUrl}/connect/callback`;
    this.loginRedirectUri = `${config.homeUrl}${LOGIN_CALLBACK_PATH}`;
    if (config.accountsIssuer === null) {
      this.engine = null;
      this.state = new ConnectionState(options.store, null);
      return;
    }
    const made = createSiteConnection({
      config: {
        issuer: config.accountsIssuer,
        redirectUri,
        loginRedirectUri: this.loginRedirectUri,
        timeoutMs: config.accountsTimeoutMs,
        ...(config.accountsClientId !== null && { clientId: config.accountsClientId }),
        ...(config.accountsClientSecret !== null && { clientSecret: config.accountsClientSecret }),
        ...(config.accountsRegistrationToken !== null && { registrationToken: config.accountsRegistrationToken }),
      },
      vault: new StoreVault(options.store, options.clock),
      masterSecret: options.masterSecret,
      clock: options.clock,
    });
    // The settings were validated at start (config.ts), so this is a programming error.
    if (!made.ok) throw new Error(`connection settings: ${made.error.message}`);
    this.engine = made.connection;
    this.state = new ConnectionState(options.store, { issuer: config.accountsIssuer, redirectUri, clientId: config.accountsClientId });
  }

  facts(): Promise<ConnectionFacts> {
    return this.state.facts();
  }

  /** `/connect/start`: registers the site when needed, then the provider's authorization URL for this user and session. */
  async start(userId: number, sessionKey: string, source: AuditSource): Promise<Result<{ url: string }>> {
    const engine = this.engine;
    if (engine === null) return failure('invalid_config', 'no account service is configured');
    const result = await withDeadline(this.#config.accountsTimeoutMs, () =>
      actingAs({ source }, async () => {
        const registered = await engine.ensureRegistered();
        if (!registered.ok) return registered;
        if (registered.registered)
          this.#log.info({ clientId: registered.clientId }, 'connection: the site registered at the account service');
        return engine.startAuthorization({ sessionKey, userId });
      }),
    );
    if (!result.ok) this.#log.warn({ kind: result.error.kind, reason: result.error.message }, 'connection: could not start a login');
    return result;
  }

  /** `/connect/callback`: links the user; the first linked administrator becomes the master user. */
  async finish(
    callbackUrl: string,
    userId: number,
    sessionKey: string,
    isAdministrator: boolean,
    source: AuditSource,
  ): Promise<Result<{ user: WpcomUser; master: boolean }>> {
    const engine = this.engine;
    if (engine === null) return failure('invalid_config', 'no account service is configured');
    // A first link claims the master user in its own transaction (store-vault.ts), with its events.
    const done = await withDeadline(this.#config.accountsTimeoutMs, () =>
      actingAs({ source, claimMaster: isAdministrator }, () => engine.completeAuthorization({ callbackUrl, sessionKey, userId })),
    );
    if (!done.ok) {
      this.#log.warn({ kind: done.error.kind, reason: done.error.message, userId }, 'connection: a login callback was refused');
      return done;
    }
    // A user linked before (a new login refreshes the tokens, no link) may still take a master place left empty.
    const master = isAdministrator && ((await this.facts()).master === userId || (await this.state.claimMaster(userId)));
    this.#log.info({ userId, master }, 'connection: user linked');
    return { ok: true, user: done.user, master };
  }

  /** Sign-in: the provider's authorization URL for this browser, within the time bound. */
  async startLogin(browserKey: string, returnTo: string): Promise<Result<{ url: string }>> {
    const engine = this.engine;
    if (engine === null) return failure('invalid_config', 'no account service is configured');
    const result = await withDeadline(this.#config.accountsTimeoutMs, () => engine.startLogin({ browserKey, returnTo }));
    if (!result.ok) this.#log.warn({ kind: result.error.kind, reason: result.error.message }, 'sign-in: could not start');
    return result;
  }

  /** Sign-in's callback: who the provider says this is, within the time bound. Nothing is linked here. */
  async finishLogin(callbackUrl: string, browserKey: string): Promise<Result<{ identity: LoginIdentity }>> {
    const engine = this.engine;
    if (engine === null) return failure('invalid_config', 'no account service is configured');
    const done = await withDeadline(this.#config.accountsTimeoutMs, () => engine.completeLogin({ callbackUrl, browserKey }));
    if (!done.ok) this.#log.warn({ kind: done.error.kind, reason: done.error.message }, 'sign-in: a callback was refused');
    return done;
  }

  /** The linked account of a site user; `refresh` follows the engine's one-day userinfo cache, otherwise the cache is served. */
  async account(userId: number, refresh: boolean): Promise<Result<{ user: WpcomUser }> | { ok: false; refusal: 'not_linked' }> {
    if (this.engine === null || !(await this.facts()).linked.includes(userId)) return { ok: false, refusal: 'not_linked' };
    const engine = this.engine;
    const options = refresh ? {} : { maxAgeMs: Number.POSITIVE_INFINITY };
    const got = await withDeadline(this.#config.accountsTimeoutMs, () => engine.getUser(userId, options));
    if (!got.ok && got.error.kind === 'not_linked') return { ok: false, refusal: 'not_linked' };
    return got;
  }

  /** `/unlink`: never the master user, never a user who is not linked; the provider must be reachable to revoke. */
  async unlink(userId: number, source: AuditSource): Promise<Outcome<{ revoked: boolean }>> {
    const engine = this.engine;
    if (engine === null) return { ok: false, refusal: 'unlink_user_failed' };
    const facts = await this.facts();
    if (!facts.linked.includes(userId) || facts.master === userId) return { ok: false, refusal: 'unlink_user_failed' };
    const up = await probeProvider(engine.issuer, this.#config.accountsTimeoutMs);
    if (!up.ok) return up;
    const done = await actingAs({ source }, () => engine.unlinkUser(userId));
    if (!done.ok) return { ok: false, refusal: 'unlink_user_failed' };
    this.#log.info({ userId, revoked: done.revoked }, 'connection: user unlinked');
    return { ok: true, revoked: done.revoked };
  }

  /** `/disconnect/site`: revokes every token, then forgets registration, master user and links. */
  async disconnect(source: AuditSource): Promise<Outcome<{ revoked: number; notRevoked: number }>> {
    const engine = this.engine;
    if (engine === null) return { ok: false, refusal: 'disconnect_failed' };
    const facts = await this.facts();
    const stored = (await this.#store.options.get(OPTION_NAMES.registration)) !== undefined;
    if (!stored && facts.linked.length === 0) return { ok: false, refusal: 'disconnect_failed' };
    const up = await probeProvider(engine.issuer, this.#config.accountsTimeoutMs);
    if (!up.ok) return up;
    // Each linked user's unlink, then the registration with the master user and the rest of the list
    // (users deleted from the site left only their place in it): store-vault.ts, each with its event.
    const done = await actingAs({ source, disconnect: true }, () => engine.revokeAll());
    this.#log.info({ revoked: done.revoked, notRevoked: done.notRevoked }, 'connection: site disconnected');
    return { ok: true, revoked: done.revoked, notRevoked: done.notRevoked };
  }

  /** `/recheck-ssl`: tests now, keeps the answer in a status row (docs/spec/jetpack-v4-reference.md §3.6's transient). */
  async recheckSsl(now: number): Promise<SslCheck> {
    const check: SslCheck =
      this.engine === null
        ? { enabled: false, message: 'No central account service is configured (SITEWARD_ACCOUNTS_ISSUER).' }
        : await this.engine.recheckSsl();
    await this.#store.status.set(HTTPS_TEST_STATUS_KEY, { enabled: check.enabled, message: check.message }, now);
    return check;
  }
}
