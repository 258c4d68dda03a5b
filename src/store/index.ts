export { openStore, SQLITE_FILE, type OpenStoreOptions, type SiteSeed } from './open-store.js';
export type { Dialect, MigrationFactory } from './migrations.js';
export { StoreDataError, TransactionMisuseError, UniqueViolationError } from './errors.js';
export * from './types.js';
