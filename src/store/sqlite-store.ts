import { accessSync, constants } from 'node:fs';
import { chmod, mkdir, open, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KeptStatements } from './sqlite-statements.js';
import { ServiceUnavailableError } from '../core/unavailable.js';
import type { OptionsBackend } from './options-backend.js';
import { CachedOptions, DirectOptions } from './options-repo.js';
import { SqliteOptionsBackend } from './options-sqlite.js';
import type { OpenStoreOptions } from './store-options.js';
import type { Database } from './schema.js';
import { gateFor, releaseGate, type SqliteGate } from './sqlite-gate.js';
import { appendDrafts, appendSqlite } from './audit-repo.js';
import { auditSettings, migrate, migrationDrafts, StoreImpl, type AuditSettings } from './store-impl.js';
import type { StoreTransaction } from './types.js';
import type { AuditCollector } from './audit-repo.js';
import type { AuditEventInput } from '../wire/audit.js';
import type { AuditDraft } from './audit-chain.js';

/** The SQLite database file name inside the data directory. */
export const SQLITE_FILE = 'siteward.db';

/**
 * The server connection's page cache, in KiB: SQLite's own default (2 MiB) instead of the 16 MB
 * that better-sqlite3 builds in (SQLITE_DEFAULT_CACHE_SIZE=-16000). The cache keeps every page a
 * write touched until it is full, and the audit log appends new pages with every change: 15,000
 * toggles (22 MB of new pages) lifted a worker from ~93 to 117–120 MB RSS for good; with 2 MiB it
 * stays at 100–102 MB, for the same CPU per toggle and per audit export (docs/performance.md,
 * "SQLite's page cache in the server"). What the server reads again and again (options, the
 * logged-in sessions and users, the B-tree's inner pages) fits in 2 MiB; the rest comes from the
 * operating system's file cache.
 */
const SQLITE_CACHE_KIB = 2048;

interface ConnectionSettings {
  readonly busyTimeoutMs: number;
  readonly synchronous: 'normal' | 'full';
}

function connect(file: string, settings: ConnectionSettings): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(file, { timeout: settings.busyTimeoutMs });
  try {
    sqlite.pragma('journal_mode = WAL');
    // Checkpoint every ~4 MB of WAL as writes commit (SQLite's default, stated so it stays).
    sqlite.pragma('wal_autocheckpoint = 1000');
    sqlite.pragma(`synchronous = ${settings.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/**
 * Creates the database file 0600 before SQLite does (it gives its WAL and shared-memory files
 * the database file's mode), and tightens the files of an existing database to 0600.
 */
async function makePrivate(file: string): Promise<void> {
  const ignore =
    (...codes: string[]) =>
    (error: NodeJS.ErrnoException) => {
      if (!codes.includes(error.code ?? '')) throw error;
    };
  await open(file, 'wx', 0o600).then((handle) => handle.close(), ignore('EEXIST'));
  // Another user's files (EPERM) are the operator's choice; they are left as they are.
  for (const path of [file, `${file}-wal`, `${file}-shm`]) await chmod(path, 0o600).catch(ignore('ENOENT', 'EPERM'));
}

export async function openSqlite(options: OpenStoreOptions): Promise<StoreImpl> {
  // The database holds password hashes and sessions: only the server's user may read it.
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(await realpath(options.dataDir), SQLITE_FILE);
  await makePrivate(file);
  const gate = gateFor(file);
  const settings: ConnectionSettings = { busyTimeoutMs: options.busyTimeoutMs ?? 5000, synchronous: options.sqliteSynchronous ?? 'normal' };
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = connect(file, settings);
    const conn = sqlite;
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: conn }) });
    const audit = auditSettings('sqlite', options);
    // BEGIN IMMEDIATE around the whole migration: processes opening the same file at once
    // take turns instead of racing on CREATE TABLE; the gate does the same within this process.
    await gate.hold(async () => {
      conn.exec('BEGIN IMMEDIATE');
      try {
        const applied = await migrate(db, 'sqlite', true, options.migrations);
        await appendDrafts(db, 'sqlite', migrationDrafts(applied, audit));
        conn.exec('COMMIT');
      } catch (error) {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        throw error;
      }
    });
    await db.destroy();
    return new SqliteStore(file, settings, gate, options.walCheckpointMs ?? 60_000, audit);
  } catch (error) {
    if (sqlite?.open) sqlite.close();
    releaseGate(file);
    throw error;
  }
}

function sqliteCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** A database the process cannot write (read-only file or directory), or cannot open at all. */
function isReadOnlyCode(code: string): boolean {
  return /^SQLITE_(READONLY|CANTOPEN)/.test(code);
}

/**
 * Another process held the lock past the busy timeout (a long write elsewhere, a backup tool,
 * an operator's `sqlite3` shell left in a transaction): the database is busy, not broken, so
 * the request is told to retry (503) rather than answered as a bug (500).
 */
function isBusyCode(code: string): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * The disk is full (SQLITE_FULL; ENOSPC reaches SQLite as that or as an I/O error) or failing
 * (SQLITE_IOERR and its extended codes): nothing was written, and a retry may succeed once
 * space is freed, so the request is told to retry (503) and `/healthz` reports it.
 */
function isDiskCode(code: string): boolean {
  return /^SQLITE_(FULL|IOERR)/.test(code);
}

/** Options through whichever connection is current: rebuilt (statements prepared again) on reopen. */
class ReopenableOptions implements OptionsBackend {
  private inner: SqliteOptionsBackend;

  constructor(
    private readonly make: () => SqliteOptionsBackend,
    private readonly guard: <T>(op: () => Promise<T>) => Promise<T>,
  ) {
    this.inner = make();
  }

  rebuild(): void {
    this.inner = this.make();
  }

  version = () => this.guard(() => this.inner.version());
  /** Read-only, so without the reopen guard: the current connection's statement answers. */
  credentialsVersion = () => this.inner.credentialsVersion();
  /** No query at all: nothing for the guard to do. */
  knownVersion = () => this.inner.knownVersion();
  knownCredentialsVersion = () => this.inner.knownCredentialsVersion();
  versionsNow = () => this.inner.versionsNow();
  load = () => this.guard(() => this.inner.load());
  read = (keys: readonly string[]) => this.guard(() => this.inner.read(keys));
  write = (key: string, text: string, autoload: boolean) => this.guard(() => this.inner.write(key, text, autoload));
  remove = (key: string) => this.guard(() => this.inner.remove(key));
  modify = (key: string, fn: (current: string | undefined) => string | undefined) => this.guard(() => this.inner.modify(key, fn));
}

/**
 * The SQLite store. A connection opened while the file could not be written stays read-only
 * for good (SQLite decides at open time), so a write failing with SQLITE_READONLY or
 * SQLITE_CANTOPEN marks the connection; meanwhile every request answers 503 (the store is
 * unavailable), and the first operation after the files are writable again reopens it. A
 * lock held by another process past the busy timeout (SQLITE_BUSY) answers 503 as well.
 */
class SqliteStore extends StoreImpl {
  readonly backend = 'sqlite';
  readonly options: CachedOptions;
  readonly readStateVersionsNow: () => { readonly options: number; readonly credentials: number } | undefined;
  /** Options inside a transaction: same statements, no gate (the transaction holds it). */
  private readonly txOptions: DirectOptions;
  private readonly optionsBackends: ReopenableOptions[];
  /** The current connection (replaced on reopen); Kysely and the options reach it through here. */
  private readonly holder: { sqlite: BetterSqlite3.Database };
  private readOnly = false;
  /** Set by a write that failed for lack of disk; cleared by the next write that succeeds. */
  private diskFailure: { code: string; changes: number } | null = null;
  private readonly checkpointTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly settings: ConnectionSettings,
    private readonly gate: SqliteGate,
    walCheckpointMs: number,
    audit: AuditSettings,
  ) {
    const holder: { sqlite: BetterSqlite3.Database } = { sqlite: connect(file, settings) };
    // Kysely keeps the database object it is given: this stand-in always reaches the current one.
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new KeptStatements(() => holder.sqlite) }) });
    let guard: <T>(op: () => Promise<T>) => Promise<T> = (op) => op();
    super(db, (fn) => guard(() => gate.hold(() => fn(db))), audit);
    guard = (op) => this.guard(op);
    this.holder = holder;
    const shared = new ReopenableOptions(() => new SqliteOptionsBackend(holder.sqlite, gate), guard);
    const inTx = new ReopenableOptions(
      () => new SqliteOptionsBackend(holder.sqlite, null),
      (op) => op(),
    );
    this.optionsBackends = [shared, inTx];
    this.options = new CachedOptions(shared);
    this.txOptions = new DirectOptions(inTx);
    // Speed: every cookie request reads the credentials version; it comes with the options
    // version from one prepared statement, shared by the requests of a turn (see SqliteGate).
    this.sessions.credentialsVersion = shared.credentialsVersion;
    this.sessions.knownCredentialsVersion = shared.knownCredentialsVersion;
    this.readStateVersionsNow = () => (this.readOnly ? undefined : shared.versionsNow());
    if (walCheckpointMs > 0) {
      this.checkpointTimer = setInterval(() => void this.truncateWal(), walCheckpointMs);
      this.checkpointTimer.unref();
    }
  }

  /** Runs a store operation: reopens a read-only connection first when it can, reports read-only as unavailable. */
  private async guard<T>(op: () => Promise<T>): Promise<T> {
    // Only while nobody uses the connection (a transaction awaiting would hold the gate).
    if (this.readOnly && this.gate.free) this.reopenIfWritable();
    try {
      const result = await op();
      if (this.diskFailure !== null && this.changes() > this.diskFailure.changes) this.diskFailure = null;
      return result;
    } catch (error) {
      const code = sqliteCode(error);
      if (code !== null && isDiskCode(code)) {
        this.diskFailure = { code, changes: this.changes() };
        throw new ServiceUnavailableError('store', `SQLite ${code}: the disk is full or failing; nothing was written`, { cause: error });
      }
      if (code !== null && isBusyCode(code)) {
        throw new ServiceUnavailableError('store', `SQLite ${code}: another process held the database lock past the busy timeout`, {
          cause: error,
        });
      }
      if (code === null || !isReadOnlyCode(code)) throw error;
      this.readOnly = true;
      throw new ServiceUnavailableError('store', `SQLite ${code}: the database files are not writable`, { cause: error });
    }
  }

  /** Rows this connection has changed so far (SQLite's total_changes), to see a write succeed. */
  private changes(): number {
    return (this.holder.sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  }

  /**
   * After a write failed for lack of disk, the health check tries a write of its own (a 64 KB
   * status row, deleted at once: room for more than one small row, so a disk with a few bytes
   * free does not look healthy): the store is healthy again only once a write succeeds, and a
   * load balancer that stopped sending traffic still sees it recover.
   */
  override async ping(): Promise<void> {
    await super.ping();
    const failure = this.diskFailure;
    if (failure === null) return;
    await this.guard(() =>
      this.gate.run(() => {
        this.holder.sqlite
          .prepare("INSERT OR REPLACE INTO status_values (key, value, updated) VALUES ('siteward.disk-probe', hex(zeroblob(32768)), 0)")
          .run();
        this.holder.sqlite.prepare("DELETE FROM status_values WHERE key = 'siteward.disk-probe'").run();
      }),
    );
  }

  private reopenIfWritable(): void {
    try {
      accessSync(this.file, constants.W_OK);
      accessSync(dirname(this.file), constants.W_OK);
    } catch {
      return;
    }
    const previous = this.holder.sqlite;
    this.holder.sqlite = connect(this.file, this.settings);
    previous.close();
    for (const backend of this.optionsBackends) backend.rebuild();
    this.gate.forgetVersions();
    this.readOnly = false;
  }

  /**
   * Automatic checkpoints copy the WAL back but never shrink the file, and they cannot finish
   * while another process reads: a periodic TRUNCATE checkpoint gives the space back, so a
   * small disk does not fill with WAL. A busy database just skips this turn.
   */
  private async truncateWal(): Promise<void> {
    try {
      await this.gate.hold(async () => void this.holder.sqlite.pragma('wal_checkpoint(TRUNCATE)'));
    } catch {
      // Busy, read-only or closing: the next turn tries again.
    }
  }

  /** The repositories a transaction sees: built once, as they only bind the connection. */
  private txRepos: StoreTransaction | null = null;
  /** The audit events of the transaction running now (the gate lets one run at a time). */
  private txAudit: AuditCollector | null = null;

  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.rawTransaction(async () => {
      const collector = this.auditCollector();
      this.txAudit = collector;
      try {
        const result = await fn((this.txRepos ??= this.repos(this.db, this.txOptions, (event) => this.recordAudit(event))));
        // Before COMMIT, in the same transaction: no change without its event.
        appendSqlite(this.holder.sqlite, collector.drafts);
        return result;
      } finally {
        this.txAudit = null;
      }
    });
  }

  // Speed: a standalone append (an ability run's event) or a feature table's transaction writes its
  // events on the connection's prepared statements, as repository transactions do, not through Kysely.
  protected override appendAudit(_db: Kysely<Database>, drafts: readonly AuditDraft[]): Promise<void> {
    appendSqlite(this.holder.sqlite, drafts);
    return Promise.resolve();
  }

  private recordAudit(event: AuditEventInput): void {
    if (this.txAudit === null) throw new Error('tx.audit called after its transaction ended');
    this.txAudit.add(event);
  }

  protected rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    // The gate is held for the whole transaction, and every other query of this process waits
    // for it, so Kysely's own per-query connection lock never meets another holder here.
    return this.guard(() =>
      this.gate.transaction(async () => {
        this.holder.sqlite.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(this.db);
          this.holder.sqlite.exec('COMMIT');
          return result;
        } catch (error) {
          if (this.holder.sqlite.inTransaction) this.holder.sqlite.exec('ROLLBACK');
          throw error;
        }
      }),
    );
  }

  protected override closed(): void {
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    releaseGate(this.file);
  }
}
