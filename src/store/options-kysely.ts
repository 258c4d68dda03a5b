import { sql, type Kysely, type Transaction } from 'kysely';
import { toInt, toText } from './db-values.js';
import type { CachedOption, ModifyResult, OptionChange, OptionRow, OptionsBackend, OptionsSnapshot } from './options-backend.js';
import { versionPayload, type VersionWatch } from './pg-version-watch.js';
import { onceMoreIfNotApplied } from './pg-retry.js';
import type { Database } from './schema.js';
import { SharedQuery } from './shared-query.js';

/** The `state_version` row of the options. */
export const OPTIONS_ROW = 1;

/**
 * How the backend shares its versions: `channel` is notified by every committed write (other
 * processes learn of it without asking); `watch` is this store's own view (null: every read asks
 * the database); `committed` hears each option this backend wrote and the version that write
 * made (at once outside a transaction; inside a store transaction the store keeps them until
 * the commit).
 */
export interface VersionSharing {
  readonly channel: string;
  readonly watch: VersionWatch | null;
  readonly clock: () => number;
  readonly committed: (version: number, change: OptionChange) => void;
  /**
   * The process cache's view of an option at exactly `version` (text undefined: absent), or
   * undefined when the cache is not at that version or does not hold the option.
   */
  readonly cached?: (version: number, key: string) => CachedOption | undefined;
  /**
   * Resolves once the other store transactions of this process that wrote options and are past
   * their commit have updated the cache (null: none). Called only while holding the version
   * lock, so every one of them has already ended in the database: the wait costs no round trip.
   */
  readonly settling?: () => Promise<void> | null;
}

/**
 * The version lock of one database transaction: the committed version while it holds the row
 * (from the bump, or from `lock`; the row stays locked until COMMIT), the version it bumped to,
 * and whether a write has used that version (a bump nothing used is undone).
 */
interface VersionLock {
  base: number | null;
  version: number | null;
  used: boolean;
  /** What this transaction wrote, in order (outside a store transaction reported after the commit). */
  readonly changes: OptionChange[];
}

/**
 * Options on PostgreSQL, through Kysely.
 *
 * Every write transaction first bumps the state-version row, once (speed: later writes of the
 * same store transaction reuse that version, one round trip less each). That row lock
 * serializes all option writers across processes, so a read-modify-write reads the latest committed value (READ COMMITTED
 * takes a new snapshot per statement) and never loses a concurrent update, even for an option
 * that does not exist yet (where `SELECT … FOR UPDATE` would have nothing to lock). Taking the
 * locks in the same order everywhere also rules out deadlocks between option writers.
 *
 * The notification rides on the statement that really changes an option, never on the bump:
 * a bump that is undone (nothing to delete) must not announce a version that never commits.
 *
 * `trx` is set when the backend runs inside a store transaction.
 */
export class KyselyOptionsBackend implements OptionsBackend {
  private readonly check = new SharedQuery(() => this.checkVersion());
  /** Inside a store transaction: its version lock (the backend lives as long as the transaction). */
  private readonly txLock: VersionLock = { base: null, version: null, used: false, changes: [] };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sharing: VersionSharing,
    private readonly trx: Transaction<Database> | null = null,
    /** A set or delete of its own cut off before its COMMIT runs again within this (ms; pg-retry.ts). 0: never. */
    private readonly retryWithinMs = 0,
  ) {}

  /** Concurrent checks share one query (see SharedQuery: a write committed before the call is seen). */
  version(): Promise<number> {
    if (this.trx) return this.queryVersion(this.trx);
    // Speed: with a healthy listener the version is known without a round trip.
    const trusted = this.sharing.watch?.trusted(OPTIONS_ROW);
    return trusted !== undefined ? Promise.resolve(trusted) : this.check.run();
  }

  knownVersion(): number | undefined {
    return this.trx ? undefined : this.sharing.watch?.trusted(OPTIONS_ROW);
  }

  async load(): Promise<OptionsSnapshot> {
    const db = this.trx ?? this.db;
    // Version first: rows read afterwards are at least that new, so a cache tagged with this
    // version can only be too fresh, never stale.
    const version = this.trx ? await this.queryVersion(db) : await this.checkVersion();
    const rows = await db.selectFrom('options').select(['name', 'autoload', 'value']).execute();
    const autoloaded = new Map<string, string>();
    const lazyNames = new Set<string>();
    for (const row of rows) {
      const name = toText(row.name, 'options.name');
      if (toInt(row.autoload, 'options.autoload') === 1) autoloaded.set(name, toText(row.value, 'options.value'));
      else lazyNames.add(name);
    }
    return { version, autoloaded, lazyNames };
  }

  async read(keys: readonly string[]): Promise<Map<string, OptionRow>> {
    const out = new Map<string, OptionRow>();
    let missing = keys;
    if (this.trx) {
      const unknown: string[] = [];
      missing = unknown;
      for (const key of keys) {
        const known = this.txView(key);
        if (known === undefined) unknown.push(key);
        else if (known.text !== undefined) out.set(key, { text: known.text, autoload: known.autoload });
      }
    }
    if (missing.length === 0) return out;
    const rows = await (this.trx ?? this.db)
      .selectFrom('options')
      .select(['name', 'value', 'autoload'])
      .where('name', 'in', [...missing])
      .execute();
    for (const row of rows) {
      out.set(toText(row.name, 'options.name'), {
        text: toText(row.value, 'options.value'),
        autoload: toInt(row.autoload, 'options.autoload') === 1,
      });
    }
    return out;
  }

  write(key: string, text: string, autoload: boolean): Promise<number> {
    // Run again when cut off before its COMMIT: it writes a given value, nothing else.
    return this.inTransaction(true, async (trx, lock) => {
      const version = await this.bump(trx, lock);
      await trx
        .insertInto('options')
        .values({ name: key, value: text, autoload: autoload ? 1 : 0 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: text, autoload: autoload ? 1 : 0 }))
        .returning(this.notify(version))
        .execute();
      return this.wrote(lock, { key, text, autoload });
    });
  }

  remove(key: string): Promise<number | null> {
    return this.inTransaction(true, async (trx, lock) => {
      const version = await this.bump(trx, lock);
      const deleted = await trx.deleteFrom('options').where('name', '=', key).returning(this.notify(version)).execute();
      if (deleted.length > 0) return this.wrote(lock, { key, text: undefined, autoload: true });
      await this.unusedBump(trx, lock);
      return null;
    });
  }

  modify(key: string, fn: (current: string | undefined) => string | undefined): Promise<ModifyResult> {
    // Not run again: `fn` is the caller's, not promised to act only on its result.
    return this.inTransaction(false, async (trx, lock) => {
      const version = await this.bump(trx, lock);
      const { text: current, autoload } = (await this.settledView(lock, key)) ?? (await this.readOne(trx, key));
      const text = fn(current);
      // Nothing to change (absent and stays absent, or the very same text): no write, no new
      // version, no notification (as WordPress's update_option skips an unchanged value).
      if (text === current) {
        await this.unusedBump(trx, lock);
        return { version: null, text, autoload };
      }
      if (text === undefined) {
        await trx.deleteFrom('options').where('name', '=', key).returning(this.notify(version)).execute();
      } else {
        await trx
          .insertInto('options')
          .values({ name: key, value: text, autoload: autoload ? 1 : 0 })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: text }))
          .returning(this.notify(version))
          .execute();
      }
      return { version: this.wrote(lock, { key, text, autoload }), text, autoload };
    });
  }

  /**
   * Runs `fn` in this backend's transaction, or in a new one. The changes `wrote` records reach
   * `sharing.committed` at once inside a store transaction (the store holds them until its
   * commit), otherwise after this transaction committed.
   */
  private async inTransaction<T>(retry: boolean, fn: (trx: Transaction<Database>, lock: VersionLock) => Promise<T>): Promise<T> {
    if (this.trx) return fn(this.trx, this.txLock);
    const once = async () => {
      const lock: VersionLock = { base: null, version: null, used: false, changes: [] };
      const result = await this.db.transaction().execute((trx) => fn(trx, lock));
      if (lock.version !== null) for (const change of lock.changes) this.sharing.committed(lock.version, change);
      return result;
    };
    return retry ? onceMoreIfNotApplied(once, this.retryWithinMs) : once();
  }

  /**
   * Speed: `key` as it stands while this transaction holds the version lock, without a query.
   * Holding the lock, the committed state is exactly version `lock.base`; a cache at that very
   * version holds exactly it (it only ever takes committed values), and what this transaction
   * wrote since is in `lock.changes`. Undefined: the database must be asked.
   */
  private lockedView(lock: VersionLock, key: string): CachedOption | undefined {
    if (lock.base === null) return undefined;
    for (let i = lock.changes.length - 1; i >= 0; i--) {
      const change = lock.changes[i];
      if (change?.key === key) return change;
    }
    return this.sharing.cached?.(lock.base, key);
  }

  /**
   * `lockedView`, after letting this process's transactions that committed just before this one
   * took the lock update the cache (their COMMIT answer and this transaction's bump answer can
   * be handled in either order; without the wait a quarter of the toggles from 8 connections
   * missed the cache).
   */
  private async settledView(lock: VersionLock, key: string): Promise<CachedOption | undefined> {
    const known = this.lockedView(lock, key);
    if (known !== undefined || lock.base === null) return known;
    const settling = this.sharing.settling?.();
    if (!settling) return undefined;
    await settling;
    return this.lockedView(lock, key);
  }

  /**
   * Speed: an option read inside a store transaction, without a query when the cache knows it.
   * Under the version lock see `lockedView` (exact). Before the transaction's first option
   * write it holds no lock, and a database read would be no more protected than a read just
   * before the transaction: such a read is served as one outside it would be, from a cache at
   * the version the listener trusts.
   */
  private txView(key: string): CachedOption | undefined {
    if (this.txLock.base !== null) return this.lockedView(this.txLock, key);
    const trusted = this.sharing.watch?.trusted(OPTIONS_ROW);
    return trusted === undefined ? undefined : this.sharing.cached?.(trusted, key);
  }

  private async readOne(trx: Transaction<Database>, key: string): Promise<CachedOption> {
    const row = await trx.selectFrom('options').select(['value', 'autoload']).where('name', '=', key).executeTakeFirst();
    return row
      ? { text: toText(row.value, 'options.value'), autoload: toInt(row.autoload, 'options.autoload') === 1 }
      : { text: undefined, autoload: true };
  }

  /** A write used the transaction's version: records the change and returns that version. */
  private wrote(lock: VersionLock, change: OptionChange): number {
    if (lock.version === null) throw new Error('option written without the version lock');
    lock.used = true;
    lock.changes.push(change);
    if (this.trx) this.sharing.committed(lock.version, change);
    return lock.version;
  }

  /** Nothing was written: a bump no write of the transaction used is undone (the row stays locked), so other caches are not dropped for nothing. */
  private async unusedBump(trx: Transaction<Database>, lock: VersionLock): Promise<void> {
    if (lock.used || lock.version === null) return;
    await trx
      .updateTable('state_version')
      .set({ v: lock.version - 1 })
      .where('id', '=', OPTIONS_ROW)
      .execute();
    lock.version = null;
  }

  /** A RETURNING column that notifies the listeners of `version` when (and only if) the transaction commits. */
  private notify(version: number) {
    return sql<string>`pg_notify(${this.sharing.channel}, ${versionPayload(OPTIONS_ROW, version)})`.as('notified');
  }

  /** The version read from the database (outside transactions), told to the watch. */
  private async checkVersion(): Promise<number> {
    const startedAt = this.sharing.clock();
    const version = await this.queryVersion(this.db);
    this.sharing.watch?.checked(OPTIONS_ROW, version, startedAt);
    return version;
  }

  private async queryVersion(db: Kysely<Database>): Promise<number> {
    const row = await db.selectFrom('state_version').select('v').where('id', '=', OPTIONS_ROW).executeTakeFirstOrThrow();
    return toInt(row.v, 'state_version.v');
  }

  /**
   * Inside a store transaction, before anything else: locks the version row without bumping it,
   * so that every option read of the transaction sees the state it will write on (reads before
   * the first write are otherwise served as reads outside it). No parameters: it travels with
   * BEGIN (pg-resilience.ts).
   */
  async lock(): Promise<void> {
    if (!this.trx || this.txLock.base !== null) return;
    const { rows } = await sql<{ v: unknown }>`SELECT v FROM state_version WHERE id = ${sql.lit(OPTIONS_ROW)} FOR UPDATE`.execute(this.trx);
    const row = rows[0];
    if (!row) throw new Error('the options version row is missing');
    this.txLock.base = toInt(row.v, 'state_version.v');
  }

  /** Locks the version row by bumping it, once per database transaction; returns the new version. */
  private async bump(trx: Transaction<Database>, lock: VersionLock): Promise<number> {
    if (lock.version !== null) return lock.version;
    // No parameters (the row id as a literal): usually the transaction's first statement, it then
    // travels with BEGIN in one round trip (pg-resilience.ts).
    const { rows } = await sql<{ v: unknown }>`UPDATE state_version SET v = v + 1 WHERE id = ${sql.lit(OPTIONS_ROW)} RETURNING v`.execute(
      trx,
    );
    const row = rows[0];
    if (!row) throw new Error('the options version row is missing');
    lock.version = toInt(row.v, 'state_version.v');
    lock.base = lock.version - 1;
    return lock.version;
  }
}
