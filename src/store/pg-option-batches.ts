import { sql, type Kysely } from 'kysely';
import type { OptionChange } from './options-backend.js';
import { auditCtes, type AuditCollector } from './audit-repo.js';
import type { AuditDraft } from './audit-chain.js';
import { OptionsDraft, type OptionsLookup } from './options-draft.js';
import { OPTIONS_ROW } from './options-kysely.js';
import { notApplied } from './pg-retry.js';
import { versionPayload } from './pg-version-watch.js';
import type { Database } from './schema.js';
import type { StoreTx } from './types.js';

/** What the batches need of the store they serve. */
export interface BatchHost {
  readonly db: Kysely<Database>;
  readonly channel: string;
  /** Brings the option cache to the current version and returns it. */
  current(): Promise<number>;
  /** Options at exactly `version` (from the cache, else read from the database). */
  lookupAt(version: number): OptionsLookup;
  /** The batch committed `changes` as `version`: into the cache and the version watch. */
  committed(version: number, changes: readonly OptionChange[]): void;
  /** The ordinary store transaction, for a batch that lost its race with another writer. */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** A collector for one member's audit events. */
  auditCollector(): AuditCollector;
  /** Appends events that came with no option change (one statement of their own). */
  appendEvents(drafts: readonly AuditDraft[]): Promise<void>;
}

interface Member {
  readonly fn: (tx: StoreTx) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Options transactions on PostgreSQL, committed in batches with one statement each (speed: a
 * toggle was three round trips holding the version row's lock: `BEGIN` with the bump, the
 * upsert, `COMMIT`; under load every toggle waited for the previous one's three).
 *
 * The transactions that arrive while a batch is in flight wait for it; then they run one after
 * the other on a draft over the options at the version the cache is at (`V`), each seeing the
 * ones before it, and everything they changed goes out in one statement that bumps the version
 * row only if it is still `V`, upserts and deletes the options and notifies the listeners, in
 * one implicit transaction. All of them answer when it has committed.
 *
 * When the row is no longer at `V` (another process or store wrote meanwhile), the statement
 * changes nothing, and each transaction of the batch runs again as an ordinary store
 * transaction (the version row locked, the options read under it): that is why their callbacks
 * must have no effect but their option reads and writes. A callback that throws on the first
 * run answers with its error and takes no part in the batch.
 */
export class OptionBatches {
  private queue: Member[] = [];
  private draining = false;

  constructor(private readonly host: BatchHost) {}

  run<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        // runBatch answers every member itself; should it ever throw, none is left waiting
        // (a settled promise ignores the second answer).
        await this.runBatch(batch).catch((error: unknown) => {
          for (const member of batch) member.reject(error);
        });
      }
    } finally {
      this.draining = false;
    }
  }

  private async runBatch(batch: readonly Member[]): Promise<void> {
    let version: number;
    try {
      version = await this.host.current();
    } catch (error) {
      for (const member of batch) member.reject(error);
      return;
    }
    const draft = new OptionsDraft(this.host.lookupAt(version), version);
    const ran: { member: Member; result: unknown }[] = [];
    const events: AuditDraft[] = [];
    for (const member of batch) {
      const own = new OptionsDraft(draft.view, version);
      const audit = this.host.auditCollector();
      let open = true;
      const record: StoreTx['audit'] = (event) => {
        if (!open) throw new Error('tx.audit called after its transaction ended');
        audit.add(event);
      };
      try {
        const result = await member.fn({ options: own, audit: record });
        draft.absorb(own);
        events.push(...audit.drafts);
        ran.push({ member, result });
      } catch (error) {
        member.reject(error);
      } finally {
        open = false;
      }
    }
    const changes = [...draft.changes.values()];
    // Events without a change (a refusal recorded, nothing written) still need a commit of their own.
    if (changes.length === 0 && events.length > 0) {
      try {
        await this.host.appendEvents(events);
      } catch (error) {
        for (const { member } of ran) member.reject(error);
        return;
      }
    }
    if (changes.length === 0) {
      for (const { member, result } of ran) member.resolve(result);
      return;
    }
    let won: boolean;
    try {
      // Refused before it ran (a demoted primary's 25006, a connection already dead), the
      // statement runs once more on the connection a new search found; it is conditional on the
      // version, so it still commits only over what the batch read. One cut off after it was
      // sent may have committed: never again (pg-retry.ts).
      won = await this.commit(version, changes, events).catch((error: unknown) => {
        if (!notApplied(error)) throw error;
        return this.commit(version, changes, events);
      });
    } catch (error) {
      for (const { member } of ran) member.reject(error);
      return;
    }
    if (won) {
      this.host.committed(version + 1, changes);
      for (const { member, result } of ran) member.resolve(result);
      return;
    }
    // Lost the race: each runs again behind the version lock. The next batch waits for them, so
    // it starts from a cache that has their writes.
    await Promise.all(ran.map(({ member }) => this.host.transaction((tx) => member.fn(tx)).then(member.resolve, member.reject)));
  }

  /**
   * The batch's one statement: true when it committed as `version + 1`, false when the version
   * row had moved on (then nothing was written). The option writes and the notification hang
   * on the bump's row, so they happen only with it; the payload is `versionPayload`'s.
   * Prepared once per connection (pg-prepared.ts): the text never changes, the lists are arrays.
   */
  private async commit(version: number, changes: readonly OptionChange[], events: readonly AuditDraft[]): Promise<boolean> {
    const names: string[] = [];
    const values: string[] = [];
    const autoloads: number[] = [];
    const deleted: string[] = [];
    for (const change of changes) {
      if (change.text === undefined) deleted.push(change.key);
      else {
        names.push(change.key);
        values.push(change.text);
        autoloads.push(change.autoload ? 1 : 0);
      }
    }
    // The audit events ride in the same statement, appended only with the bump (no change
    // without its event, no event without its change); without events the text is unchanged.
    const audit = events.length > 0 ? sql`, ${auditCtes(events, 'bump')}` : sql``;
    const withKeyword = sql.raw(events.length > 0 ? 'WITH RECURSIVE' : 'WITH');
    const { rows } = await sql<{ notified: unknown }>`${withKeyword} bump AS (
        UPDATE state_version SET v = v + 1 WHERE id = ${sql.lit(OPTIONS_ROW)} AND v = ${version}::bigint RETURNING v
      ), upserted AS (
        INSERT INTO options (name, value, autoload)
        SELECT w.name, w.value, w.autoload FROM bump, unnest(${names}::text[], ${values}::text[], ${autoloads}::int[]) AS w (name, value, autoload)
        ON CONFLICT (name) DO UPDATE SET value = excluded.value, autoload = excluded.autoload
        RETURNING 1
      ), removed AS (
        DELETE FROM options WHERE name = ANY (${deleted}::text[]) AND EXISTS (SELECT 1 FROM bump)
        RETURNING 1
      )${audit}
      SELECT pg_notify(${this.host.channel}, ${versionPayload(OPTIONS_ROW, version + 1)}) AS notified FROM bump`.execute(this.host.db);
    return rows.length > 0;
  }
}
