/**
 * The connection to the central account service (docs/spec/compat.md §9: any OpenID Connect provider).
 * Registers the `jetpack/v4` connection routes (connection-routes.ts, and the 4.3+ spellings in
 * current-connection-routes.ts) and the browser's login
 * pages (connect-pages.ts), and offers the other features what they read of it: whether the
 * site is connected (module availability), the user's connection data (`Initial_State`) and the
 * admin page's notice after a login.
 */
import type { JsonValue, Principal } from '../../rest/types.js';
import type { AuditSource } from '../audit/index.js';
import type { Feature } from '../contract.js';
import { actingAs } from './connection-audit.js';
import { connectCallback, connectStart } from './connect-pages.js';
import { noticeFor, type Notice } from './connection-notices.js';
import { registerConnectionRoutes } from './connection-routes.js';
import { registerCurrentConnectionRoutes } from './current-connection-routes.js';
import { ConnectionService } from './connection-service.js';
import { userConnectionData } from './user-connection-data.js';
import { connectionSettings } from './settings.js';
import type { LoginIdentity, Result } from './site-connection.js';

function signInOf(service: ConnectionService, name: string | null): SignInConnection | null {
  const engine = service.engine;
  if (engine === null) return null;
  return {
    providerName: name ?? new URL(engine.issuer).hostname,
    issuer: engine.issuer,
    redirectUri: service.loginRedirectUri,
    ready: () => engine.loginRegistered(),
    start: (browserKey, returnTo) => service.startLogin(browserKey, returnTo),
    finish: (callbackUrl, browserKey) => service.finishLogin(callbackUrl, browserKey),
    usersLinkedTo: async (subject) => (await engine.usersLinkedTo(subject)).map(Number),
    linkedSubject: (userId) => engine.linkedSubject(userId),
    link: (userId, identity, source) => actingAs({ source }, () => engine.linkUser(userId, identity.link)),
    linkedCount: async () => (await service.facts()).linked.length,
  };
}

/** What other features read of the connection. */
export interface ConnectionStatus {
  /** Registered with the provider and a master user linked; read from the store at every call, so every worker agrees at once. */
  isConnected(): Promise<boolean>;
  /** The `/user-connection-data` body from stored data only (the provider is not asked). */
  userConnectionData(user: Principal): Promise<JsonValue>;
  /** The admin page's notice for a `?connection=` code, or null. */
  noticeFor(code: unknown): Notice | null;
  /** Sign-in through the connection (used by the `sso` feature); null when no account service is configured. */
  readonly signIn: SignInConnection | null;
}

/** What sign-in (the `sso` feature) uses of the connection: the engine's login flow and the links. */
export interface SignInConnection {
  /** "Log in with <providerName>": SITEWARD_ACCOUNTS_NAME, or the issuer's host name. */
  readonly providerName: string;
  readonly issuer: string;
  /** The callback URL to register at the provider (beside `/connect/callback`). */
  readonly redirectUri: string;
  /** Registered, and the registration knows the sign-in callback. */
  ready(): Promise<Result<object>>;
  start(browserKey: string, returnTo: string): Promise<Result<{ url: string }>>;
  finish(callbackUrl: string, browserKey: string): Promise<Result<{ identity: LoginIdentity }>>;
  /** Site user ids linked to the provider account `subject`. */
  usersLinkedTo(subject: string): Promise<number[]>;
  /** The provider account a site user is linked to, if any. */
  linkedSubject(userId: number): Promise<string | undefined>;
  /** Links a site user to the account a sign-in found; `source` is who the `connection.linked` event names. */
  link(userId: number, identity: LoginIdentity, source: AuditSource): Promise<void>;
  /** How many site users are linked. */
  linkedCount(): Promise<number>;
}

declare module '../contract.js' {
  interface FeatureServices {
    connection: ConnectionStatus;
  }
}

export const connectionFeature: Feature = {
  name: 'connection',
  settings: connectionSettings,
  register(ctx) {
    const service = new ConnectionService({
      config: ctx.config,
      store: ctx.store,
      clock: ctx.clock,
      masterSecret: ctx.secrets.encryptionKey,
      log: ctx.log,
    });
    const devModeState = () => {
      const mode = ctx.site.devMode();
      return { constant: mode.constant, url: mode.url, filter: false as const };
    };
    const devMode = () => {
      const mode = ctx.site.devMode();
      return mode.constant || mode.url;
    };
    const userData = { store: ctx.store, service, devMode };
    const routeDeps = { ...userData, authenticator: ctx.auth.authenticator, homeUrl: ctx.site.homeUrl, devModeState, clock: ctx.clock };
    const handlers = registerConnectionRoutes(ctx.api, routeDeps);
    registerCurrentConnectionRoutes(ctx.api, { ...routeDeps, accountsTimeoutMs: ctx.config.accountsTimeoutMs }, handlers);
    const pages = { service, authenticator: ctx.auth.authenticator, devMode };
    ctx.addPage({ method: 'GET', path: '/connect/start', handle: connectStart(pages) });
    ctx.addPage({ method: 'GET', path: '/connect/callback', handle: connectCallback(pages) });
    ctx.provide('connection', {
      isConnected: async () => (await service.facts()).connected,
      async userConnectionData(user) {
        const data = await userConnectionData(userData, user, false);
        // Stored data only: a failure here is unreadable storage, shown as "not linked" rather than breaking the admin page.
        return data.ok ? data.body : { othersLinked: false, currentUser: { isConnected: false, isMaster: false, username: user.login } };
      },
      noticeFor,
      signIn: signInOf(service, ctx.config.accountsName),
    });
  },
};

// The OpenID Connect engine behind the routes and pages above (see README.md in this folder), for tests and tools.
export {
  createSiteConnection,
  SiteConnection,
  SCOPE,
  LOGIN_SCOPE,
  PENDING_TTL_MS,
  type SiteConnectionOptions,
  type Result,
  type LoginIdentity,
} from './site-connection.js';
export {
  validateConnectionConfig,
  isLoopbackHost,
  DEFAULT_TIMEOUT_MS,
  type ConnectionConfig,
  type ValidConnectionConfig,
} from './connection-config.js';
export type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
export { MemoryVault, type ConnectionVault, type JsonValue } from './connection-vault.js';
export { toWpcomUser, type WpcomUser } from './wpcom-user.js';
export type { SslCheck } from './ssl-check.js';
