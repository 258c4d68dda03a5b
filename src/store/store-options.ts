import type { JsonValue } from '../core/json.js';
import type { MigrationFactory } from './migrations.js';

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
  /**
   * PostgreSQL with several hosts or `target_session_attrs` (pg-hosts.ts): the host in use
   * changed (the first one found at start, then after a failover). Default: ignored.
   */
  onHostSwitch?: (from: { host: string; port: number } | null, to: { host: string; port: number }) => void;
  /** A connection lost outside any query (PostgreSQL); the pool replaces it. Default: ignored. */
  onConnectionError?: (error: Error) => void;
  /** Migrations of features (name → factory), applied with the store's own in name order. */
  migrations?: Readonly<Record<string, MigrationFactory>>;
  /**
   * PostgreSQL: how long reads may trust versions pushed by LISTEN/NOTIFY before asking the
   * database again (a missed notification is stale at most this long). Default 1000 ms;
   * 0: no listener, every read asks the database (the SQLite behaviour).
   */
  versionRecheckMs?: number;
  /** Milliseconds since the epoch, for the re-check above and audit events' time (tests). Default Date.now. */
  clock?: () => number;
  /** Recorded as `host_id` in the audit events this store writes. Default: the machine's host name. */
  hostId?: string;
  /** Diagnostics: called with the SQL of every query the store's own connection pool runs. */
  onQuery?: (sql: string) => void;
}
