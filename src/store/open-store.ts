import { Kysely, sql, type Transaction } from 'kysely';
import { StorePostgresDialect } from './pg-introspector.js';
import pg from 'pg';
import type { JsonValue } from '../core/json.js';
import type { MigrationFactory } from './migrations.js';
import { KyselyOptionsBackend } from './options-kysely.js';
import { CachedOptions, DirectOptions } from './options-repo.js';
import { poolTimeouts, resilientPool } from './pg-resilience.js';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite-store.js';
import { migrate, StoreImpl } from './store-impl.js';
import type { Store, StoreTransaction } from './types.js';

export { SQLITE_FILE } from './sqlite-store.js';

/** Site options written on first open when absent (WordPress names). */
export interface SiteSeed {
  blogname?: string;
  blogdescription?: string;
  timezone_string?: string;
  WPLANG?: string;
  readonly [name: string]: JsonValue | undefined;
}

export interface OpenStoreOptions {
  /** Holds `siteward.db` (SQLite) and the secret key file. Created when missing. */
  dataDir: string;
  /** A `postgres://` / `postgresql://` URL selects PostgreSQL; absent selects SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (created when missing) instead of the URL's search_path. */
  schema?: string;
  /** Options to create when absent. */
  seed?: SiteSeed;
  /**
   * SQLite `synchronous` in WAL mode. `normal` (default) survives a crash of the process,
   * not of the machine, at ~10× the commit rate of `full`, which fsyncs every commit.
   */
  sqliteSynchronous?: 'normal' | 'full';
  /** How long a writer waits for another process's write lock (SQLite). Default 5000 ms. */
  busyTimeoutMs?: number;
  /** SQLite: how often the WAL is checkpointed and truncated to zero bytes. Default 60000 ms; 0 = never. */
  walCheckpointMs?: number;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  /** PostgreSQL: giving up on opening a connection. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** PostgreSQL: the longest statement (server-side, and client-side for a frozen server). Default 5000 ms. */
  statementTimeoutMs?: number;
  /** A connection lost outside any query (PostgreSQL); the pool replaces it. Default: ignored. */
  onConnectionError?: (error: Error) => void;
  /** Migrations of features (name → factory), applied with the store's own in name order. */
  migrations?: Readonly<Record<string, MigrationFactory>>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the store, runs pending migrations and seeds absent site options.
 *
 * @example
 * const store = await openStore({ dataDir: './data', seed: { blogname: 'My site' } });
 * await store.options.set('active_modules', ['protect']);
 * await store.close();
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  let store: StoreImpl;
  if (url === undefined || url === '') store = await openSqlite(options);
  else if (/^postgres(ql)?:\/\//i.test(url)) store = await openPostgres(url, options);
  else throw new Error(`unsupported database URL (expected postgres:// or none for SQLite): ${url.split(':')[0]}:…`);
  try {
    if (options.seed) await seed(store, options.seed);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
async function openPostgres(url: string, options: OpenStoreOptions): Promise<StoreImpl> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...poolTimeouts({ connectTimeoutMs: options.connectTimeoutMs ?? 5000, statementTimeoutMs: options.statementTimeoutMs ?? 5000 }),
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection dropped by the server (idle or checked out) is reported here instead of
  // crashing the process; the pool replaces it and queries answer "unavailable" meanwhile.
  const dialectPool = resilientPool(pool, options.onConnectionError ?? (() => undefined));
  const db = new Kysely<Database>({ dialect: new StorePostgresDialect({ pool: dialectPool }) });
  try {
    if (schema !== undefined) {
      try {
        await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
      } catch (error) {
        // Two processes creating it at once: one loses with a duplicate error, which is fine.
        const code = (error as { code?: unknown }).code;
        if (code !== '23505' && code !== '42P06') throw error;
      }
    }
    // Kysely serializes concurrent migrators with a PostgreSQL advisory lock. Its bookkeeping
    // tables are looked up in the store's own schema: left to itself it finds another schema's
    // `kysely_migration` in the same database and then fails on a lock table it never created.
    const own = schema ?? (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(db)).rows[0]?.s;
    await migrate(db, 'postgres', false, options.migrations, own);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new PostgresStore(db);
}
async function seed(store: Store, values: SiteSeed): Promise<void> {
  const entries = Object.entries(values).filter((e): e is [string, JsonValue] => e[1] !== undefined);
  if (entries.length === 0) return;
  const existing = await store.options.getMany(entries.map(([name]) => name));
  for (const [name, value] of entries) {
    // `?? value` inside the atomic update: another process may have seeded it meanwhile.
    if (!existing.has(name)) await store.options.update(name, (current) => current ?? value);
  }
}
class PostgresStore extends StoreImpl {
  readonly backend = 'postgres';
  readonly options: CachedOptions;

  constructor(db: Kysely<Database>) {
    super(db, (fn) => fn(db));
    this.options = new CachedOptions(new KyselyOptionsBackend(db));
  }

  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx: Transaction<Database>) =>
        fn(this.repos(trx, new DirectOptions(new KyselyOptionsBackend(this.db, trx)))),
      );
  }

  protected rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }
}
