import { sql, type Kysely, type Transaction } from 'kysely';
import { toInt, toText } from './db-values.js';
import type { ModifyResult, OptionRow, OptionsBackend, OptionsSnapshot } from './options-backend.js';
import type { Database } from './schema.js';

/**
 * Options through Kysely (PostgreSQL, and any dialect inside a transaction).
 *
 * Every write first bumps the state-version row. That row lock serializes all option writers
 * across processes, so a read-modify-write reads the latest committed value (READ COMMITTED
 * takes a new snapshot per statement) and never loses a concurrent update, even for an option
 * that does not exist yet (where `SELECT … FOR UPDATE` would have nothing to lock). Taking the
 * locks in the same order everywhere also rules out deadlocks between option writers.
 *
 * `trx` is set when the backend runs inside a store transaction.
 */
export class KyselyOptionsBackend implements OptionsBackend {
  private inFlight: Promise<number> | null = null;
  private queued: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly trx: Transaction<Database> | null = null,
  ) {}

  /**
   * Concurrent checks are coalesced, but never onto a query that was sent before the caller
   * asked: a caller arriving while one is in flight waits for the next one, so a write
   * committed elsewhere before the call is always seen.
   */
  version(): Promise<number> {
    if (this.trx) return this.queryVersion(this.trx);
    if (!this.inFlight) {
      const current = this.queryVersion(this.db).finally(() => {
        if (this.inFlight === current) this.inFlight = null;
      });
      this.inFlight = current;
      return current;
    }
    if (!this.queued) {
      const after = this.inFlight.then(
        () => undefined,
        () => undefined,
      );
      const next: Promise<number> = after.then(() => {
        this.queued = null;
        return this.version();
      });
      this.queued = next;
    }
    return this.queued;
  }

  async load(): Promise<OptionsSnapshot> {
    const db = this.trx ?? this.db;
    // Version first: rows read afterwards are at least that new, so a cache tagged with this
    // version can only be too fresh, never stale.
    const version = await this.queryVersion(db);
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
    if (keys.length === 0) return out;
    const rows = await (this.trx ?? this.db)
      .selectFrom('options')
      .select(['name', 'value', 'autoload'])
      .where('name', 'in', [...keys])
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
    return this.inTransaction(async (trx) => {
      const version = await this.bump(trx);
      await trx
        .insertInto('options')
        .values({ name: key, value: text, autoload: autoload ? 1 : 0 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: text, autoload: autoload ? 1 : 0 }))
        .execute();
      return version;
    });
  }

  remove(key: string): Promise<number | null> {
    return this.inTransaction(async (trx) => {
      const version = await this.bump(trx);
      const result = await trx.deleteFrom('options').where('name', '=', key).executeTakeFirst();
      if (result.numDeletedRows > 0n) return version;
      // Nothing removed: undo the bump so other caches are not dropped for nothing.
      await trx.updateTable('state_version').set({ v: version - 1 }).where('id', '=', 1).execute();
      return null;
    });
  }

  modify(key: string, fn: (current: string | undefined) => string | undefined): Promise<ModifyResult> {
    return this.inTransaction(async (trx) => {
      const version = await this.bump(trx);
      const row = await trx.selectFrom('options').select(['value', 'autoload']).where('name', '=', key).executeTakeFirst();
      const current = row ? toText(row.value, 'options.value') : undefined;
      const autoload = row ? toInt(row.autoload, 'options.autoload') === 1 : true;
      const text = fn(current);
      if (text === undefined) {
        if (!row) {
          await trx.updateTable('state_version').set({ v: version - 1 }).where('id', '=', 1).execute();
          return { version: null, text, autoload };
        }
        await trx.deleteFrom('options').where('name', '=', key).execute();
      } else {
        await trx
          .insertInto('options')
          .values({ name: key, value: text, autoload: autoload ? 1 : 0 })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: text }))
          .execute();
      }
      return { version, text, autoload };
    });
  }

  private inTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.trx ? fn(this.trx) : this.db.transaction().execute(fn);
  }

  private async queryVersion(db: Kysely<Database>): Promise<number> {
    const row = await db.selectFrom('state_version').select('v').where('id', '=', 1).executeTakeFirstOrThrow();
    return toInt(row.v, 'state_version.v');
  }

  private async bump(trx: Transaction<Database>): Promise<number> {
    const row = await trx
      .updateTable('state_version')
      .set({ v: sql<number>`v + 1` })
      .where('id', '=', 1)
      .returning('v')
      .executeTakeFirstOrThrow();
    return toInt(row.v, 'state_version.v');
  }
}
