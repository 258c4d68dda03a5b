export { openStore, SQLITE_FILE, type OpenStoreOptions, type SiteSeed } from './open-store.js';
export { StoreDataError, TransactionMisuseError, UniqueViolationError } from './errors.js';
export * from './types.js';
