export { createSiteConnection, SiteConnection, SCOPE, PENDING_TTL_MS, type SiteConnectionOptions, type Result } from './site-connection.js';
export { validateConnectionConfig, isLoopbackHost, DEFAULT_TIMEOUT_MS, type ConnectionConfig, type ValidConnectionConfig } from './connection-config.js';
export type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
export { MemoryVault, TokenSealer, SealError, type ConnectionVault, type JsonValue } from './connection-vault.js';
export { toWpcomUser, type WpcomUser } from './wpcom-user.js';
export type { SslCheck } from './ssl-check.js';
