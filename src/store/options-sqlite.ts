import type BetterSqlite3 from 'better-sqlite3';
import { toInt, toText } from './db-values.js';
import { CREDENTIALS_ROW } from './credentials-version.js';
import type { ModifyResult, OptionRow, OptionsBackend, OptionsSnapshot } from './options-backend.js';
import type { SqliteGate, StateVersions } from './sqlite-gate.js';

/**
 * Options on SQLite through prepared better-sqlite3 statements rather than Kysely.
 *
 * Why: this is the hot path (a version check on every read, a write per module toggle), and a
 * synchronous read-modify-write inside BEGIN IMMEDIATE cannot interleave with anything else
 * in this process; across processes SQLite's write lock (with busy_timeout) serializes it.
 * Holding the lock across an `await` instead would let a second Store in the same process block
 * the event loop on busy_timeout while the lock holder can never resume.
 *
 * `gate` is null inside a `store.transaction` (which already owns the connection).
 */
export class SqliteOptionsBackend implements OptionsBackend {
  private readonly versionStmt: BetterSqlite3.Statement<[], unknown>;
  private readonly versionsStmt: BetterSqlite3.Statement<[], unknown[]>;
  private readonly bumpStmt: BetterSqlite3.Statement<[], unknown>;
  private readonly loadStmt: BetterSqlite3.Statement<[], unknown>;
  private readonly getStmt: BetterSqlite3.Statement<[string], unknown>;
  private readonly upsertStmt: BetterSqlite3.Statement<[string, string, number]>;
  private readonly deleteStmt: BetterSqlite3.Statement<[string]>;
  private readonly writeTx: (key: string, text: string, autoload: boolean) => number;
  private readonly removeTx: (key: string) => number | null;
  private readonly modifyTx: (key: string, fn: (current: string | undefined) => string | undefined) => ModifyResult;
  private readonly loadTx: () => OptionsSnapshot;

  constructor(
    db: BetterSqlite3.Database,
    private readonly gate: SqliteGate | null,
  ) {
    this.versionStmt = db.prepare<[], unknown>('SELECT v FROM state_version WHERE id = 1').pluck();
    // Speed: both versions in one statement (one read transaction, one pair of fcntl locks):
    // every cookie request needs the credentials version and most also the options version.
    this.versionsStmt = db
      .prepare<[], unknown[]>(
        `SELECT (SELECT v FROM state_version WHERE id = 1), (SELECT v FROM state_version WHERE id = ${CREDENTIALS_ROW})`,
      )
      .raw();
    this.bumpStmt = db.prepare<[], unknown>('UPDATE state_version SET v = v + 1 WHERE id = 1 RETURNING v').pluck();
    // Values of lazily loaded options are left out of the bulk load.
    this.loadStmt = db.prepare<[], unknown>('SELECT name, autoload, CASE WHEN autoload = 1 THEN value END AS value FROM options');
    this.getStmt = db.prepare<[string], unknown>('SELECT value, autoload FROM options WHERE name = ?');
    this.upsertStmt = db.prepare<[string, string, number]>(
      'INSERT INTO options (name, value, autoload) VALUES (?, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET value = excluded.value, autoload = excluded.autoload',
    );
    this.deleteStmt = db.prepare<[string]>('DELETE FROM options WHERE name = ?');

    // better-sqlite3 turns a nested transaction into a savepoint, so these also work inside
    // a store.transaction. `.immediate` takes the write lock before the first read.
    const write = db.transaction((key: string, text: string, autoload: boolean): number => {
      this.upsertStmt.run(key, text, autoload ? 1 : 0);
      return this.bump();
    });
    this.writeTx = (key, text, autoload) => write.immediate(key, text, autoload);

    const remove = db.transaction((key: string): number | null => (this.deleteStmt.run(key).changes > 0 ? this.bump() : null));
    this.removeTx = (key) => remove.immediate(key);

    const modify = db.transaction((key: string, fn: (current: string | undefined) => string | undefined): ModifyResult => {
      const row = this.row(key);
      const text = fn(row?.text);
      const autoload = row?.autoload ?? true;
      if (text === undefined) {
        if (!row) return { version: null, text, autoload };
        this.deleteStmt.run(key);
      } else {
        this.upsertStmt.run(key, text, autoload ? 1 : 0);
      }
      return { version: this.bump(), text, autoload };
    });
    this.modifyTx = (key, fn) => modify.immediate(key, fn);

    // A read transaction: the version and the rows come from one snapshot.
    const load = db.transaction((): OptionsSnapshot => {
      const version = this.readVersion();
      const autoloaded = new Map<string, string>();
      const lazyNames = new Set<string>();
      for (const raw of this.loadStmt.all()) {
        const row = raw as { name: unknown; autoload: unknown; value: unknown };
        const name = toText(row.name, 'options.name');
        if (toInt(row.autoload, 'options.autoload') === 1) autoloaded.set(name, toText(row.value, 'options.value'));
        else lazyNames.add(name);
      }
      return { version, autoloaded, lazyNames };
    });
    this.loadTx = () => load.deferred();
  }

  version(): Promise<number> {
    const cached = this.gate?.cachedVersions();
    if (cached !== undefined) return Promise.resolve(cached.options);
    return this.sync(() => this.readVersions().options);
  }

  knownVersion(): number | undefined {
    return this.gate?.cachedVersions()?.options;
  }

  knownCredentialsVersion(): number | undefined {
    return this.gate?.cachedVersions()?.credentials;
  }

  /** Both versions, from the batch's read or read now when the gate is free; undefined when busy or failing. */
  versionsNow(): StateVersions | undefined {
    const gate = this.gate;
    if (gate === null || !gate.free) return undefined;
    const cached = gate.cachedVersions();
    if (cached !== undefined) return cached;
    try {
      return this.readVersions();
    } catch {
      // A failing store is reported by the request's own path, which asks it again.
      return undefined;
    }
  }

  /** The credentials version (row 2), read with the options version (see SqliteGate). */
  credentialsVersion(): Promise<number> {
    const cached = this.gate?.cachedVersions();
    if (cached !== undefined) return Promise.resolve(cached.credentials);
    return this.sync(() => this.readVersions().credentials);
  }

  load(): Promise<OptionsSnapshot> {
    return this.sync(this.loadTx);
  }

  read(keys: readonly string[]): Promise<Map<string, OptionRow>> {
    return this.sync(() => {
      const out = new Map<string, OptionRow>();
      for (const key of keys) {
        const row = this.row(key);
        if (row) out.set(key, row);
      }
      return out;
    });
  }

  write(key: string, text: string, autoload: boolean): Promise<number> {
    return this.sync(() => this.writeTx(key, text, autoload));
  }

  remove(key: string): Promise<number | null> {
    return this.sync(() => this.removeTx(key));
  }

  modify(key: string, fn: (current: string | undefined) => string | undefined): Promise<ModifyResult> {
    return this.sync(() => this.modifyTx(key, fn));
  }

  private sync<T>(op: () => T): Promise<T> {
    if (this.gate) return this.gate.run(op);
    try {
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private readVersion(): number {
    return toInt(this.versionStmt.get(), 'state_version.v');
  }

  private readVersions(): StateVersions {
    const [options, credentials] = this.versionsStmt.get()!;
    // The credentials row is created by its first bump: absent reads as 0.
    const versions = {
      options: toInt(options, 'state_version.v'),
      credentials: credentials === null ? 0 : toInt(credentials, 'state_version.v'),
    };
    this.gate?.rememberVersions(versions);
    return versions;
  }

  private bump(): number {
    this.gate?.forgetVersions();
    return toInt(this.bumpStmt.get(), 'state_version.v');
  }

  private row(key: string): OptionRow | undefined {
    const raw = this.getStmt.get(key) as { value: unknown; autoload: unknown } | undefined;
    if (!raw) return undefined;
    return { text: toText(raw.value, 'options.value'), autoload: toInt(raw.autoload, 'options.autoload') === 1 };
  }
}
