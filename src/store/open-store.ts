import { chmod, mkdir, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { JsonValue } from '../core/json.js';
import { KyselyAppPasswords } from './app-passwords-repo.js';
import { migrationProvider, type Dialect, type MigrationFactory } from './migrations.js';
import { KyselyLeases, KyselyStatus } from './runtime-state-repos.js';
import { KyselyOptionsBackend } from './options-kysely.js';
import { CachedOptions, DirectOptions } from './options-repo.js';
import { SqliteOptionsBackend } from './options-sqlite.js';
import type { Database } from './schema.js';
import { poolTimeouts, resilientPool } from './pg-resilience.js';
import { KyselySessions } from './sessions-repo.js';
import { gateFor, releaseGate, type SqliteGate } from './sqlite-gate.js';
import type { FeatureTables, OptionsRepo, Store, StoreTransaction } from './types.js';
import { KyselyUserMeta, KyselyUsers, type DbRun } from './users-repo.js';

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

/** The SQLite database file name inside the data directory. */
export const SQLITE_FILE = 'siteward.db';

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

async function openSqlite(options: OpenStoreOptions): Promise<StoreImpl> {
  // The database holds password hashes and sessions: only the server's user may read it.
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(await realpath(options.dataDir), SQLITE_FILE);
  await makePrivate(file);
  const gate = gateFor(file);
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = new BetterSqlite3(file, { timeout: options.busyTimeoutMs ?? 5000 });
    sqlite.pragma('journal_mode = WAL');
    // Checkpoint every ~4 MB of WAL as writes commit (SQLite's default, stated so it stays).
    sqlite.pragma('wal_autocheckpoint = 1000');
    sqlite.pragma(`synchronous = ${options.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const conn = sqlite;
    // BEGIN IMMEDIATE around the whole migration: processes opening the same file at once
    // take turns instead of racing on CREATE TABLE; the gate does the same within this process.
    await gate.hold(async () => {
      conn.exec('BEGIN IMMEDIATE');
      try {
        await migrate(db, 'sqlite', true, options.migrations);
        conn.exec('COMMIT');
      } catch (error) {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        throw error;
      }
    });
    return new SqliteStore(db, conn, gate, file, options.walCheckpointMs ?? 60_000);
  } catch (error) {
    sqlite?.close();
    releaseGate(file);
    throw error;
  }
}

/**
 * Creates the database file 0600 before SQLite does (it gives its WAL and shared-memory files
 * the database file's mode), and tightens the files of an existing database to 0600.
 */
async function makePrivate(file: string): Promise<void> {
  const ignore = (...codes: string[]) => (error: NodeJS.ErrnoException) => {
    if (!codes.includes(error.code ?? '')) throw error;
  };
  await open(file, 'wx', 0o600).then((handle) => handle.close(), ignore('EEXIST'));
  // Another user's files (EPERM) are the operator's choice; they are left as they are.
  for (const path of [file, `${file}-wal`, `${file}-shm`]) await chmod(path, 0o600).catch(ignore('ENOENT', 'EPERM'));
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: dialectPool }) });
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

async function migrate(
  db: Kysely<Database>,
  dialect: Dialect,
  disableTransactions: boolean,
  extra?: Readonly<Record<string, MigrationFactory>>,
  migrationTableSchema?: string,
): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect, extra), disableTransactions, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
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

abstract class StoreImpl implements Store {
  abstract readonly backend: 'sqlite' | 'postgres';
  abstract readonly options: OptionsRepo;
  readonly users: KyselyUsers;
  readonly userMeta: KyselyUserMeta;
  readonly sessions: KyselySessions;
  readonly appPasswords: KyselyAppPasswords;
  readonly leases: KyselyLeases;
  readonly status: KyselyStatus;
  readonly tables: FeatureTables;

  protected constructor(
    protected readonly db: Kysely<Database>,
    run: DbRun,
  ) {
    this.userMeta = new KyselyUserMeta(run);
    this.users = new KyselyUsers(run, this.userMeta);
    this.sessions = new KyselySessions(run);
    this.appPasswords = new KyselyAppPasswords(run);
    this.leases = new KyselyLeases(run);
    this.status = new KyselyStatus(run);
    // Features' tables are not in `Database`: the cast is the one place their types meet the store's handle.
    this.tables = {
      run: <DB, T>(fn: (db: Kysely<DB>) => Promise<T>) => run((db) => fn(db as unknown as Kysely<DB>)),
      transaction: <DB, T>(fn: (db: Kysely<DB>) => Promise<T>) => this.rawTransaction((db) => fn(db as unknown as Kysely<DB>)),
    };
  }

  abstract transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** One transaction on the raw Kysely handle (the repositories' transaction builds on it). */
  protected abstract rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;

  private closing: Promise<void> | null = null;

  close(): Promise<void> {
    this.closing ??= this.db.destroy().finally(() => this.closed());
    return this.closing;
  }

  /** Hook for backend-specific cleanup after the connections are closed. */
  protected closed(): void {}

  protected repos(db: Kysely<Database>, options: OptionsRepo): StoreTransaction {
    const run: DbRun = (fn) => fn(db);
    const userMeta = new KyselyUserMeta(run);
    return {
      options,
      userMeta,
      users: new KyselyUsers(run, userMeta),
      sessions: new KyselySessions(run),
      appPasswords: new KyselyAppPasswords(run),
    };
  }
}

class SqliteStore extends StoreImpl {
  readonly backend = 'sqlite';
  readonly options: CachedOptions;
  /** Options inside a transaction: same statements, no gate (the transaction holds it). */
  private readonly txOptions: DirectOptions;

  constructor(
    db: Kysely<Database>,
    private readonly sqlite: BetterSqlite3.Database,
    private readonly gate: SqliteGate,
    private readonly file: string,
    walCheckpointMs: number,
  ) {
    super(db, (fn) => gate.hold(() => fn(db)));
    this.options = new CachedOptions(new SqliteOptionsBackend(sqlite, gate));
    this.txOptions = new DirectOptions(new SqliteOptionsBackend(sqlite, null));
    if (walCheckpointMs > 0) {
      this.checkpointTimer = setInterval(() => void this.truncateWal(), walCheckpointMs);
      this.checkpointTimer.unref();
    }
  }

  private readonly checkpointTimer: NodeJS.Timeout | null = null;

  /**
   * Automatic checkpoints copy the WAL back but never shrink the file, and they cannot finish
   * while another process reads: a periodic TRUNCATE checkpoint gives the space back, so a
   * small disk does not fill with WAL. A busy database just skips this turn.
   */
  private async truncateWal(): Promise<void> {
    try {
      await this.gate.hold(async () => void this.sqlite.pragma('wal_checkpoint(TRUNCATE)'));
    } catch {
      // Busy or closing: the next turn tries again.
    }
  }

  /** The repositories a transaction sees: built once, as they only bind the connection. */
  private txRepos: StoreTransaction | null = null;

  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.rawTransaction(() => fn((this.txRepos ??= this.repos(this.db, this.txOptions))));
  }

  protected rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    // The gate is held for the whole transaction, and every other query of this process waits
    // for it, so Kysely's own per-query connection lock never meets another holder here.
    return this.gate.transaction(async () => {
      this.sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.db);
        this.sqlite.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw error;
      }
    });
  }

  protected override closed(): void {
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    releaseGate(this.file);
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
