/**
 * Forwarding the audit log to its sinks, at least once, from a durable outbox: a cursor per sink
 * on the append-only log (`audit_forward_cursors`: the last event id and checkpoint time each
 * sink took). The events are already written in the transaction of their change, and ids are
 * gapless and in commit order, so "every event after the cursor" is exactly what a sink has not
 * taken yet: a second row per event (an outbox table) would double the write cost of every
 * change for nothing. A cursor moves only after its sink took the batch, so a crash or a sink
 * that is down means a resend, never a loss.
 *
 * It runs as a background job (only the process holding the jobs' lease sends, on one host at a
 * time), never in a request. A failing sink is tried again with back-off (5 s doubling to 10 min)
 * while the others go on.
 */
import type { ColumnType, Kysely, Migration } from 'kysely';
import type { Dialect } from '../../../store/migrations.js';
import type { AuditLogRepo } from '../../../store/types.js';
import type { AuditEvent } from '../../../wire/audit.js';
import type { FeatureDb } from '../../db/feature-db.js';
import { PartialSuccess } from './http-sinks.js';
import type { ForwardItem, Sink } from './items.js';
import type { AuditForwardStatus } from '../../../wire/siteward-v1.js';

export const FORWARD_MIGRATION_NAME = '0210_audit_forward_cursors';
export const FAILING_SINCE_MIGRATION_NAME = '0265_audit_forward_failing_since';

type Int = ColumnType<number | string | bigint, number, number>;
type NullableInt = ColumnType<number | string | bigint | null, number | null, number | null>;

export interface ForwardTables {
  audit_forward_cursors: {
    sink: string;
    last_id: Int;
    checkpoint_time: Int;
    attempts: Int;
    next_try_at: Int;
    last_error: string | null;
    last_error_at: NullableInt;
    last_success_at: NullableInt;
    /** When the sink's current run of failures began (0265); null while it delivers. */
    failing_since: NullableInt;
  };
}

/** Creates `audit_forward_cursors`. Never edit once released. */
export function forwardMigration(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_forward_cursors')
        .addColumn('sink', 'text', (c) => c.primaryKey())
        .addColumn('last_id', big, (c) => c.notNull())
        .addColumn('checkpoint_time', big, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_try_at', big, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('last_error_at', big)
        .addColumn('last_success_at', big)
        .execute();
    },
  };
}

/**
 * Adds `failing_since` to `audit_forward_cursors`: how long a sink has been failing decides
 * whether it still holds the retention back (`retentionHold`). Never edit once released.
 */
export function failingSinceMigration(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('audit_forward_cursors').addColumn('failing_since', big).execute();
    },
  };
}

interface Cursor {
  lastId: number;
  checkpointTime: number;
  attempts: number;
  nextTryAt: number;
  lastError: string | null;
  lastErrorAt: number | null;
  lastSuccessAt: number | null;
  failingSince: number | null;
}

const FRESH: Cursor = {
  lastId: 0,
  checkpointTime: 0,
  attempts: 0,
  nextTryAt: 0,
  lastError: null,
  lastErrorAt: null,
  lastSuccessAt: null,
  failingSince: null,
};

/**
 * What the forwarding lets the retention purge: `holdAt`, the newest event id it may delete
 * (the slowest holding sink's cursor), or null when no sink holds it back; and per sink whether
 * it holds.
 */
export interface RetentionHold {
  readonly holdAt: number | null;
  readonly sinks: readonly { readonly sink: string; readonly holds: boolean; readonly lastId: number }[];
}

const DAY_MS = 86_400_000;

/** What the Activity screen and `/healthz?detail=1` show of a sink (no secrets). */
export type ForwardStatus = AuditForwardStatus;

export interface ForwarderOptions {
  readonly sinks: readonly Sink[];
  readonly log: AuditLogRepo;
  readonly db: FeatureDb<ForwardTables>;
  /** Events per batch sent. */
  readonly batch?: number;
  /** Batches per sink per run at most (a long backlog is sent over several runs). */
  readonly maxBatches?: number;
  readonly onError?: (sink: Sink, error: unknown) => void;
}

/** Wait before attempt n + 1 after n failures in a row: 5 s · 2^(n−1), at most 10 minutes. */
export function forwardBackoffMs(failures: number): number {
  return Math.min(600_000, 5000 * 2 ** Math.max(0, failures - 1));
}

const num = (v: unknown) => Number(v);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class Forwarder {
  private readonly batch: number;
  private readonly maxBatches: number;

  constructor(private readonly options: ForwarderOptions) {
    this.batch = options.batch ?? 200;
    this.maxBatches = options.maxBatches ?? 25;
  }

  get sinks(): readonly Sink[] {
    return this.options.sinks;
  }

  private async cursors(): Promise<Map<string, Cursor>> {
    const rows = await this.options.db.run((db) => db.selectFrom('audit_forward_cursors').selectAll().execute());
    return new Map(
      rows.map((r) => [
        r.sink,
        {
          lastId: num(r.last_id),
          checkpointTime: num(r.checkpoint_time),
          attempts: num(r.attempts),
          nextTryAt: num(r.next_try_at),
          lastError: r.last_error,
          lastErrorAt: r.last_error_at === null ? null : num(r.last_error_at),
          lastSuccessAt: r.last_success_at === null ? null : num(r.last_success_at),
          failingSince: r.failing_since === null ? null : num(r.failing_since),
        },
      ]),
    );
  }

  private async save(sink: string, c: Cursor): Promise<void> {
    const values = {
      last_id: c.lastId,
      checkpoint_time: c.checkpointTime,
      attempts: c.attempts,
      next_try_at: c.nextTryAt,
      last_error: c.lastError,
      last_error_at: c.lastErrorAt,
      last_success_at: c.lastSuccessAt,
      failing_since: c.failingSince,
    };
    await this.options.db.run((db) =>
      db
        .insertInto('audit_forward_cursors')
        .values({ sink, ...values })
        .onConflict((oc) => oc.column('sink').doUpdateSet(values))
        .execute(),
    );
  }

  /** The next batch after `c`: events by id, then the checkpoints those events complete. */
  private async next(c: Cursor): Promise<{ items: ForwardItem[]; lastId: number; checkpointTime: number }> {
    const rows = await this.options.log.page({ idAfter: c.lastId }, this.batch);
    const items: ForwardItem[] = rows.map((row) => ({
      type: 'event',
      event: { id: row.id, ...(JSON.parse(row.data) as Omit<AuditEvent, 'id'>) },
    }));
    const lastId = rows.length > 0 ? rows[rows.length - 1]!.id : c.lastId;
    let checkpointTime = c.checkpointTime;
    // A checkpoint goes once the events it covers went (the log's order); few: one an hour.
    if (rows.length < this.batch)
      for (const checkpoint of await this.options.log.checkpoints())
        if (checkpoint.time > c.checkpointTime && checkpoint.last_id <= lastId) {
          items.push({ type: 'checkpoint', checkpoint });
          checkpointTime = Math.max(checkpointTime, checkpoint.time);
        }
    return { items, lastId, checkpointTime };
  }

  /** One round: each sink that is due gets what it has not taken yet, batch by batch. */
  async runOnce(now: number): Promise<void> {
    const cursors = await this.cursors();
    for (const sink of this.options.sinks) {
      let c = cursors.get(sink.name) ?? FRESH;
      if (c.nextTryAt > now) continue;
      for (let n = 0; n < this.maxBatches; n++) {
        const { items, lastId, checkpointTime } = await this.next(c);
        if (items.length === 0) break;
        try {
          await sink.send(items);
          c = { ...c, lastId, checkpointTime, attempts: 0, nextTryAt: 0, lastSuccessAt: now, failingSince: null };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.options.onError?.(sink, error);
          if (error instanceof PartialSuccess)
            c = { ...c, lastId, checkpointTime, attempts: 0, nextTryAt: 0, lastError: message, lastErrorAt: now, failingSince: null };
          else {
            const attempts = c.attempts + 1;
            c = {
              ...c,
              attempts,
              nextTryAt: now + forwardBackoffMs(attempts),
              lastError: message,
              lastErrorAt: now,
              failingSince: c.failingSince ?? now,
            };
            await this.save(sink.name, c);
            break;
          }
        }
        await this.save(sink.name, c);
      }
    }
  }

  /**
   * Whether each configured sink holds the retention back at `now`: every sink does until it
   * took the events, except one that has been failing for longer than `holdDays` (a receiver
   * gone for good must not keep the log forever); `holdDays` 0: no sink holds it. A sink no
   * longer configured holds nothing.
   */
  async retentionHold(now: number, holdDays: number): Promise<RetentionHold> {
    const cursors = await this.cursors();
    const sinks = this.options.sinks.map((sink) => {
      const c = cursors.get(sink.name) ?? FRESH;
      return { sink: sink.name, holds: holds(c, now, holdDays), lastId: c.lastId };
    });
    const held = sinks.filter((s) => s.holds).map((s) => s.lastId);
    return { holdAt: held.length > 0 ? Math.min(...held) : null, sinks };
  }

  /** Each sink's state; `holdDays` (SITEWARD_AUDIT_FORWARD_HOLD_DAYS) says which hold the retention at `now`. */
  async status(now: number, holdDays: number): Promise<ForwardStatus[]> {
    if (this.options.sinks.length === 0) return [];
    const [cursors, head] = await Promise.all([this.cursors(), this.options.log.head()]);
    return this.options.sinks.map((sink) => {
      const c = cursors.get(sink.name) ?? FRESH;
      return {
        sink: sink.name,
        kind: sink.kind,
        target: sink.target,
        backlog: Math.max(0, head.lastId - c.lastId),
        last_delivered_id: c.lastId,
        last_error: c.lastError,
        last_error_at: iso(c.lastErrorAt),
        last_success_at: iso(c.lastSuccessAt),
        next_attempt_at: c.nextTryAt > 0 ? iso(c.nextTryAt) : null,
        failing_since: iso(c.failingSince),
        holds_retention: holds(c, now, holdDays),
      };
    });
  }
}

function holds(c: Cursor, now: number, holdDays: number): boolean {
  if (holdDays === 0) return false;
  return c.failingSince === null || now - c.failingSince <= holdDays * DAY_MS;
}
