/**
 * The connection to the central account service (compat.md §9: any OpenID Connect provider).
 *
 * Seam: until the OpenID Connect client lands, this feature provides the one fact the other
 * features read, "is the site connected", and it is always no. It serves no route, so no
 * client is told the site can connect.
 */
import type { Feature } from '../contract.js';

/** What other features read of the connection. */
export interface ConnectionStatus {
  /** Registered with the provider and a master user linked. */
  isConnected(): Promise<boolean>;
}

declare module '../contract.js' {
  interface FeatureServices {
    connection: ConnectionStatus;
  }
}

export const connectionFeature: Feature = {
  name: 'connection',
  register(ctx) {
    ctx.provide('connection', { isConnected: async () => false });
  },
};

// The OpenID Connect engine the routes will use (see README.md in this folder).
export { createSiteConnection, SiteConnection, SCOPE, PENDING_TTL_MS, type SiteConnectionOptions, type Result } from './site-connection.js';
export { validateConnectionConfig, isLoopbackHost, DEFAULT_TIMEOUT_MS, type ConnectionConfig, type ValidConnectionConfig } from './connection-config.js';
export type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
export { MemoryVault, TokenSealer, SealError, type ConnectionVault, type JsonValue } from './connection-vault.js';
export { toWpcomUser, type WpcomUser } from './wpcom-user.js';
export type { SslCheck } from './ssl-check.js';
