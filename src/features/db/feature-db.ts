import type { Kysely } from 'kysely';
import type { Dialect } from '../../store/migrations.js';
import type { Store } from '../../store/types.js';
import type { AuditEventInput } from '../../wire/audit.js';

export type SqlDialect = Dialect;

/**
 * A feature's typed view of `store.tables`: the store's generic `run<DB, T>` cannot infer
 * `DB` from a callback, so repositories get one bound to their own table types.
 */
export interface FeatureDb<DB> {
  readonly dialect: SqlDialect;
  /** Runs queries outside of any transaction (on SQLite behind the store's gate). */
  run<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction (on SQLite BEGIN IMMEDIATE, holding the store's gate). */
  transaction<T>(fn: (db: Kysely<DB>, audit: (event: AuditEventInput) => void) => Promise<T>): Promise<T>;
}

export function featureDb<DB>(store: Pick<Store, 'backend' | 'tables'>): FeatureDb<DB> {
  return {
    dialect: store.backend,
    run: <T>(fn: (db: Kysely<DB>) => Promise<T>) => store.tables.run<DB, T>(fn),
    transaction: <T>(fn: (db: Kysely<DB>, audit: (event: AuditEventInput) => void) => Promise<T>) => store.tables.transaction<DB, T>(fn),
  };
}
