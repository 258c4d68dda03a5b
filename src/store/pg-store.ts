/**
 * The PostgreSQL store: its pool (timeouts, prepared statements, reconnects), migrations in its
 * own schema, and the LISTEN/NOTIFY version watch that keeps every process's caches fresh
 * (src/store/README.md).
 */
import { Kysely, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { StorePostgresDialect } from './pg-introspector.js';
import { bumpAndNotifyCredentials, CREDENTIALS_ROW, readCredentialsVersion, type CredentialsBump } from './credentials-version.js';
import { KyselyOptionsBackend, OPTIONS_ROW, type VersionSharing } from './options-kysely.js';
import { OptionBatches } from './pg-option-batches.js';
import type { OptionChange } from './options-backend.js';
import { CachedOptions, DirectOptions } from './options-repo.js';
import { StatementNames } from './pg-prepared.js';
import { HostPools, isHostDown } from './pg-failover.js';
import { parsePgTarget, type PgHost } from './pg-hosts.js';
import { poolTimeouts, resilientPool, watchPool, type DialectPool } from './pg-resilience.js';
import { onceMoreIfNotApplied } from './pg-retry.js';
import { VERSION_RECHECK_MS, versionChannel, VersionWatch, type VersionFeed } from './pg-version-watch.js';
import type { Database } from './schema.js';
import { SharedQuery } from './shared-query.js';
import { appendDrafts } from './audit-repo.js';
import { auditSettings, migrate, migrationDrafts, StoreImpl, type AuditSettings } from './store-impl.js';
import type { OpenStoreOptions } from './store-options.js';
import type { Store, StoreTransaction, StoreTx } from './types.js';
import type { AuditEventInput } from '../wire/audit.js';

/** How many distinct parameterized SQL texts each PostgreSQL connection keeps prepared (pg-prepared.ts). */
const PREPARED_STATEMENTS = 100;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens (and migrates) the PostgreSQL store at `url`. */
export async function openPostgres(url: string, options: OpenStoreOptions): Promise<StoreImpl> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const settings: pg.ClientConfig = {
    ...poolTimeouts({ connectTimeoutMs, statementTimeoutMs }),
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  };
  // A connection dropped by the server (idle or checked out) is reported here instead of
  // crashing the process; the pool replaces it and queries answer "unavailable" meanwhile.
  const onConnectionError = options.onConnectionError ?? (() => undefined);
  const statements = new StatementNames(PREPARED_STATEMENTS);
  const target = parsePgTarget(url);
  let dialectPool: DialectPool;
  let listenerConfig: () => pg.ClientConfig;
  let onListenerError = onConnectionError;
  // Set once the store's version watch exists: moves the listener to the host in use.
  let relisten = () => {};
  if (!target.choosing) {
    // One host, any kind of server: the URL as given, no probe (today's path).
    const connection = { ...settings, connectionString: url };
    const pool = watchPool(new pg.Pool({ ...connection, max: options.poolSize ?? 10 }), onConnectionError);
    dialectPool = resilientPool(pool, statements, settings.query_timeout);
    listenerConfig = () => connection;
  } else {
    const configFor = (host: PgHost): pg.ClientConfig => ({ ...settings, connectionString: target.urlFor(host) });
    const hosts = new HostPools({
      target,
      configFor,
      newPool: (host) => watchPool(new pg.Pool({ ...configFor(host), max: options.poolSize ?? 10 }), onConnectionError),
      probeTimeoutMs: connectTimeoutMs,
      onSwitch: (from, to) => {
        options.onHostSwitch?.(from, to);
        if (from !== null) relisten();
      },
    });
    dialectPool = resilientPool(hosts, statements, settings.query_timeout);
    // The listener follows the host in use: NOTIFY is sent on the primary, and LISTEN fails on a standby.
    listenerConfig = () => configFor(hosts.current() ?? target.hosts[0]!);
    onListenerError = (error) => {
      onConnectionError(error);
      if (isHostDown(error)) hosts.suspect();
    };
  }
  const onQuery = options.onQuery;
  const db = new Kysely<Database>({
    dialect: new StorePostgresDialect({ pool: dialectPool }),
    ...(onQuery ? { log: (event: { query: { sql: string } }) => onQuery(event.query.sql) } : {}),
  });
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
    const applied = await migrate(db, 'postgres', false, options.migrations, own);
    const audit = auditSettings('postgres', options);
    await appendDrafts(db, 'postgres', migrationDrafts(applied, audit));
    const recheckMs = options.versionRecheckMs ?? VERSION_RECHECK_MS;
    if (!Number.isInteger(recheckMs) || recheckMs < 0)
      throw new Error(`versionRecheckMs must be a whole number of milliseconds >= 0 (got ${recheckMs})`);
    const channel = versionChannel(own ?? 'public');
    const clock = options.clock ?? Date.now;
    return new PostgresStore(
      db,
      channel,
      clock,
      audit,
      recheckMs === 0
        ? null
        : {
            recheckMs,
            newClient: () => new pg.Client({ ...listenerConfig(), application_name: listenerName(channel) }),
            onError: onListenerError,
            follow: (reconnect) => (relisten = reconnect),
          },
      statementTimeoutMs,
    );
  } catch (error) {
    await db.destroy();
    throw missingDatabase(error, url) ?? error;
  }
}

/** PostgreSQL's "database … does not exist" (3D000) names neither the setting nor what to do. */
function missingDatabase(error: unknown, url: string): Error | null {
  if ((error as { code?: unknown }).code !== '3D000') return null;
  let name = '';
  try {
    // The host list may be libpq's several hosts, which URL cannot read: only the path matters.
    name = decodeURIComponent(new URL(url.replace(/^(postgres(?:ql)?:\/\/)[^/?#]*/, '$1h')).pathname.slice(1));
  } catch {
    // An unparsable URL would have failed before connecting.
  }
  return new Error(
    `The PostgreSQL database "${name}" that SITEWARD_DATABASE_URL names does not exist. Create it first (createdb ${name}, or CREATE DATABASE "${name}"; as a user allowed to), then start Siteward again: it creates its own tables.`,
  );
}

/** The listening connection's `application_name`, so operators (and tests) can tell it apart in pg_stat_activity. */
export function listenerName(channel: string): string {
  return `listen ${channel}`.slice(0, 63);
}

/** How the store learns of other processes' writes (tests and diagnostics). */
export function versionFeed(store: Store): VersionFeed {
  return store instanceof PostgresStore ? store.versionFeed() : { listening: false, connects: 0 };
}

interface ListenerSettings {
  readonly recheckMs: number;
  readonly newClient: () => pg.Client;
  readonly onError: (error: Error) => void;
  /** Gets what to call when the host in use changed (the listener must follow it). */
  readonly follow: (reconnect: () => void) => void;
}

/**
 * PostgreSQL. Writers notify the schema's channel; with a listener (the default) reads trust
 * the pushed versions (see pg-version-watch.ts), without one every read asks the database.
 */
class PostgresStore extends StoreImpl {
  readonly backend = 'postgres';
  readonly options: CachedOptions;
  private readonly watch: VersionWatch | null;
  private readonly batches: OptionBatches;

  constructor(
    db: Kysely<Database>,
    private readonly channel: string,
    private readonly clock: () => number,
    audit: AuditSettings,
    listener: ListenerSettings | null,
    /** A transaction cut off before its COMMIT runs again only if its first run took less (the statement timeout, ms). */
    private readonly retryWithinMs: number,
  ) {
    let watch: VersionWatch | null = null;
    super(
      db,
      (fn) => fn(db),
      audit,
      async (conn) => watch?.committed(CREDENTIALS_ROW, await bumpAndNotifyCredentials(conn, channel)),
    );
    this.watch = watch = listener
      ? new VersionWatch({
          newClient: listener.newClient,
          channel,
          rows: [OPTIONS_ROW, CREDENTIALS_ROW],
          recheckMs: listener.recheckMs,
          clock,
          onDropped: () => this.options.invalidate(),
          onError: listener.onError,
        })
      : null;
    this.options = new CachedOptions(
      new KyselyOptionsBackend(
        db,
        this.sharing((version) => this.watch?.committed(OPTIONS_ROW, version)),
        null,
        retryWithinMs,
      ),
    );
    this.batches = new OptionBatches({
      db,
      channel,
      current: () => this.options.current(),
      lookupAt: (version) => this.options.lookupAt(version),
      committed: (version, changes) => {
        this.options.committed(version, changes);
        this.watch?.committed(OPTIONS_ROW, version);
      },
      transaction: (fn) => this.transactionOf(fn, true),
      auditCollector: () => this.auditCollector(),
      appendEvents: (drafts) => appendDrafts(db, 'postgres', drafts),
    });
    // Speed: every cookie request reads the credentials version; with a listener it is known.
    const readCredentials = async () => {
      const startedAt = clock();
      const version = await readCredentialsVersion(db);
      this.watch?.checked(CREDENTIALS_ROW, version, startedAt);
      return version;
    };
    const credentials = new SharedQuery(readCredentials);
    this.sessions.credentialsVersion = () => {
      const trusted = this.watch?.trusted(CREDENTIALS_ROW);
      return trusted !== undefined ? Promise.resolve(trusted) : credentials.run();
    };
    this.sessions.knownCredentialsVersion = () => this.watch?.trusted(CREDENTIALS_ROW);
    listener?.follow(() => this.watch?.reconnect());
    this.watch?.start();
  }

  /** Options transactions grouped into one statement per batch (pg-option-batches.ts). */
  override optionsTransaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.batches.run(fn);
  }

  versionFeed(): VersionFeed {
    return this.watch?.feed() ?? { listening: false, connects: 0 };
  }

  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.transactionOf(fn, false);
  }

  /**
   * A store transaction; with `lockOptions` the options version row is locked before `fn` runs,
   * so that all its option reads see the state its writes apply to (a batch's fallback).
   * Cut off before its COMMIT was sent (the connection lost, the host gone or demoted), it runs
   * again once, on a fresh connection, while the first run took less than the statement
   * timeout: the server rolled the first run back, and callbacks have no effect outside `tx`
   * (types.ts). A COMMIT cut off is never run again: it may have committed (503).
   */
  private transactionOf<T>(fn: (tx: StoreTransaction) => Promise<T>, lockOptions: boolean): Promise<T> {
    return onceMoreIfNotApplied(() => this.transactionOnce(fn, lockOptions), this.retryWithinMs);
  }

  private async transactionOnce<T>(fn: (tx: StoreTransaction) => Promise<T>, lockOptions: boolean): Promise<T> {
    // Versions written inside reach the watch only once committed (read-your-writes after it);
    // the options written go into this process's cache in place (no reload after a toggle).
    let credentials: number | null = null;
    let options: number | null = null;
    const changes: OptionChange[] = [];
    // From its first option write until its changes are in the cache (see VersionSharing.settling).
    let settled: Promise<void> | null = null;
    let settle = () => {};
    const bump: CredentialsBump = async (conn) => void (credentials = await bumpAndNotifyCredentials(conn, this.channel));
    const audit = this.auditCollector();
    let open = true;
    const record = (event: AuditEventInput) => {
      if (!open) throw new Error('tx.audit called after its transaction ended');
      audit.add(event);
    };
    try {
      const result = await this.db.transaction().execute(async (trx: Transaction<Database>) => {
        const sharing = this.sharing(
          (version, change) => {
            options = version;
            changes.push(change);
            if (!settled) {
              settled = new Promise<void>((resolve) => (settle = resolve));
              this.unsettled.add(settled);
            }
          },
          () => this.settling(settled),
        );
        const backend = new KyselyOptionsBackend(this.db, sharing, trx);
        const tx = this.repos(trx, new DirectOptions(backend), record, bump);
        const value = lockOptions ? await backend.lock().then(() => fn(tx)) : await fn(tx);
        open = false;
        // Before COMMIT, in the same transaction: no change without its event.
        await appendDrafts(trx, 'postgres', audit.drafts);
        return value;
      });
      if (options !== null) {
        this.options.committed(options, changes);
        this.watch?.committed(OPTIONS_ROW, options);
      }
      if (credentials !== null) this.watch?.committed(CREDENTIALS_ROW, credentials);
      return result;
    } finally {
      open = false;
      if (settled) this.unsettled.delete(settled);
      settle();
    }
  }

  /** Store transactions of this process that wrote options and have not yet updated the cache. */
  private readonly unsettled = new Set<Promise<void>>();

  private settling(own: Promise<void> | null): Promise<void> | null {
    const others = [...this.unsettled].filter((p) => p !== own);
    return others.length === 0 ? null : Promise.all(others).then(() => undefined);
  }

  override async close(): Promise<void> {
    await Promise.all([this.watch?.close(), super.close()]);
  }

  private sharing(committed: VersionSharing['committed'], settling?: VersionSharing['settling']): VersionSharing {
    return {
      channel: this.channel,
      watch: this.watch,
      clock: this.clock,
      committed,
      cached: (version, key) => this.options.at(version, key),
      ...(settling ? { settling } : {}),
    };
  }

  protected rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }
}
