/**
 * The connection to the central account service (docs/spec/compat.md §9: any OpenID Connect provider).
 * Registers the `jetpack/v4` connection routes (connection-routes.ts, and the 4.3+ spellings in
 * current-connection-routes.ts) and the browser's login
 * pages (connect-pages.ts), and offers the other features what they read of it: whether the
 * site is connected (module availability), the user's connection data (`Initial_State`) and the
 * admin page's notice after a login.
 */
import type { JsonValue, Principal } from '../../rest/types.js';
import type { Feature } from '../contract.js';
import { connectCallback, connectStart } from './connect-pages.js';
import { noticeFor, type Notice } from './connection-notices.js';
import { registerConnectionRoutes } from './connection-routes.js';
import { registerCurrentConnectionRoutes } from './current-connection-routes.js';
import { ConnectionService } from './connection-service.js';
import { userConnectionData } from './user-connection-data.js';
import { connectionSettings } from './settings.js';

/** What other features read of the connection. */
export interface ConnectionStatus {
  /** Registered with the provider and a master user linked; read from the store at every call, so every worker agrees at once. */
  isConnected(): Promise<boolean>;
  /** The `/user-connection-data` body from stored data only (the provider is not asked). */
  userConnectionData(user: Principal): Promise<JsonValue>;
  /** The admin page's notice for a `?connection=` code, or null. */
  noticeFor(code: unknown): Notice | null;
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
    const service = new ConnectionService({ config: ctx.config, store: ctx.store, clock: ctx.clock, masterSecret: ctx.secrets.encryptionKey, log: ctx.log });
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
    });
  },
};

// The OpenID Connect engine behind the routes and pages above (see README.md in this folder), for tests and tools.
export { createSiteConnection, SiteConnection, SCOPE, PENDING_TTL_MS, type SiteConnectionOptions, type Result } from './site-connection.js';
export { validateConnectionConfig, isLoopbackHost, DEFAULT_TIMEOUT_MS, type ConnectionConfig, type ValidConnectionConfig } from './connection-config.js';
export type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
export { MemoryVault, TokenSealer, SealError, type ConnectionVault, type JsonValue } from './connection-vault.js';
export { toWpcomUser, type WpcomUser } from './wpcom-user.js';
export type { SslCheck } from './ssl-check.js';
