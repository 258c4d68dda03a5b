import { sql, type Kysely } from 'kysely';

export type SqlDialect = 'sqlite' | 'postgres';

/**
 * What a feature repository needs from the store: plain queries and short write transactions,
 * on either dialect. The lead's store adapter implements it (see `featureDbFromKysely`).
 */
export interface FeatureDb<DB> {
  readonly dialect: SqlDialect;
  /** Runs queries outside of any transaction. */
  run<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction that commits when it resolves and rolls back when it throws.
   * On SQLite the write lock is taken first (BEGIN IMMEDIATE): a deferred transaction that
   * reads and then writes can fail with SQLITE_BUSY when another process wrote in between,
   * which busy_timeout does not retry.
   */
  transaction<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
}

export interface FeatureDbOptions {
  /**
   * Wraps every SQLite transaction, e.g. the store's per-file gate (`SqliteGate.hold`), so a
   * transaction awaiting between statements never makes another connection of this process
   * block the event loop on the write lock.
   */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** A FeatureDb over a Kysely instance (SQLite with a single connection, or a PostgreSQL pool). */
export function featureDbFromKysely<DB>(db: Kysely<DB>, dialect: SqlDialect, options: FeatureDbOptions = {}): FeatureDb<DB> {
  const exclusive = options.exclusive ?? (<T>(fn: () => Promise<T>) => fn());
  return {
    dialect,
    run: (fn) => fn(db),
    transaction: <T>(fn: (tx: Kysely<DB>) => Promise<T>): Promise<T> => {
      if (dialect === 'postgres') return db.transaction().execute(fn);
      return exclusive(() =>
        // One pinned connection: Kysely's SQLite driver lends it to nobody else until released.
        db.connection().execute(async (conn) => {
          await sql`BEGIN IMMEDIATE`.execute(conn);
          try {
            const result = await fn(conn);
            await sql`COMMIT`.execute(conn);
            return result;
          } catch (error) {
            await sql`ROLLBACK`.execute(conn).catch(() => undefined);
            throw error;
          }
        }),
      );
    },
  };
}
