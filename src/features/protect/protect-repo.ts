import type { LoginFailure } from '../../auth/password-guards.js';
import { sql, type Kysely } from 'kysely';
import type { FeatureDb } from '../db/feature-db.js';
import { toInt } from '../../store/db-values.js';
import { decideBlock, retryAfterSeconds, type BlockLevel, type FailureOutcome, type ProtectRules } from './protect-rules.js';
import type { ProtectTables } from './protect-tables.js';
import { auditEvent, jobSource } from '../audit/index.js';

export interface ActiveBlock {
  readonly until: number;
  readonly level: BlockLevel;
}

export interface FailureInput {
  readonly key: string;
  readonly address: string;
  readonly login: string;
  readonly now: number;
  readonly rules: ProtectRules;
  /** What was wrong; default a password. */
  readonly failure?: LoginFailure;
}

export interface PurgeCounts {
  readonly failures: number;
  readonly blocks: number;
  readonly events: number;
}

/** Rows to forget: failures and blocks that no rule can count any more, events past the retention. */
export interface PurgeCutoffs {
  /** Failures at or before this no longer count (the failure window). */
  readonly failures: number;
  /** Blocks that ended before this no longer count (the escalation window). */
  readonly blocks: number;
  /** Events older than this leave the history. */
  readonly events: number;
}

export type ProtectEventKind = 'blocked' | 'lockout' | 'failure' | 'unblock';

/** The answer to a request for a slot to check one password. */
export type Reservation =
  | { readonly kind: 'reserved'; readonly id: number }
  | { readonly kind: 'blocked'; readonly until: number; readonly retryAfterSeconds: number }
  /** The window's failures and the checks still running already make the limit. */
  | { readonly kind: 'busy' };

/** `reserve`'s answer foreseen by a read: `free` when it would reserve. */
export type Peek = Exclude<Reservation, { kind: 'reserved' }> | { readonly kind: 'free' };

export interface ReserveInput {
  readonly key: string;
  readonly now: number;
  readonly rules: ProtectRules;
  /** A reservation older than this (a process that died mid-check) no longer counts. */
  readonly pendingSince: number;
  /** The process asking (slot-owner.ts), recorded with the slot. */
  readonly owner?: string;
  /** True when a slot's owner is known to have died: its slots stop counting at once. */
  readonly ownerIsDead?: (owner: string) => boolean;
}

/** Storage of the brute-force policy; every write is safe against other processes on the same store. */
export interface ProtectRepo {
  /** The block in force for `key` at `now` (the longest when several overlap), or null. */
  activeBlock(key: string, now: number): Promise<ActiveBlock | null>;
  /**
   * Counts an attempt before its password is checked, in one transaction holding the key's
   * row lock: refused while a block is in force or while the window's failures plus the checks
   * in progress reach `maxFailures`.
   */
  reserve(input: ReserveInput): Promise<Reservation>;
  /** What `reserve` would answer now, read without the key's lock and without writing: for waiting cheaply. */
  peek(input: ReserveInput): Promise<Peek>;
  /** Gives a reservation back (the check succeeded or never happened). */
  release(id: number): Promise<void>;
  /** Adds a failure (turning reservation `reserved` into it) and, when the rules say so, starts a block: all in one transaction per key. */
  recordFailure(input: FailureInput, reserved?: number): Promise<FailureOutcome>;
  recordBlockedAttempt(address: string, login: string, now: number, key?: string): Promise<void>;
  recordChallengeRefusal(address: string, login: string, now: number, key: string): Promise<void>;
  /** Failures of `key` after `since` (the window's count, without reserving anything). */
  failureCount(key: string, since: number): Promise<number>;
  blockedCount(): Promise<number>;
  /** Events of `kind` in each `[bounds[i], bounds[i + 1])`: `bounds.length - 1` counts. */
  countEvents(kind: ProtectEventKind, bounds: readonly number[]): Promise<number[]>;
  purge(cutoffs: PurgeCutoffs): Promise<PurgeCounts>;
}

const BLOCKED_ATTEMPTS = 'blocked_attempts';

export class KyselyProtectRepo implements ProtectRepo {
  constructor(private readonly db: FeatureDb<ProtectTables>) {}

  async activeBlock(key: string, now: number): Promise<ActiveBlock | null> {
    const row = await this.db.run((db) => selectActiveBlock(db, key, now));
    return row;
  }

  reserve(input: ReserveInput): Promise<Reservation> {
    const { key, now, owner } = input;
    return this.db.transaction(async (db) => {
      await lockKey(db, key, now);
      const room = await roomFor(db, input);
      if (room.kind !== 'free') return room;
      // Slots of a process that died mid-check (kill -9) would count until their time-to-live
      // and refuse everyone from this address meanwhile: they are dropped as they are found.
      if (room.dead.length > 0) await db.deleteFrom('protect_attempts').where('key', '=', key).where('owner', 'in', room.dead).execute();
      const row = await db
        .insertInto('protect_attempts')
        .values({ key, at: now, owner: owner ?? null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { kind: 'reserved', id: toInt(row.id, 'protect_attempts.id') };
    });
  }

  async peek(input: ReserveInput): Promise<Peek> {
    const room = await this.db.run((db) => roomFor(db, input));
    return room.kind === 'free' ? { kind: 'free' } : room;
  }

  async release(id: number): Promise<void> {
    await this.db.run((db) => db.deleteFrom('protect_attempts').where('id', '=', id).execute());
  }

  recordFailure({ key, address, login, now, rules, failure }: FailureInput, reserved?: number): Promise<FailureOutcome> {
    return this.db.transaction(async (db, audit) => {
      await lockKey(db, key, now);
      // The reservation becomes the failure in the same transaction: never counted twice or not at all.
      if (reserved !== undefined) await db.deleteFrom('protect_attempts').where('id', '=', reserved).execute();
      const active = await selectActiveBlock(db, key, now);
      if (active !== null) return { kind: 'already-blocked', until: active.until, retryAfterSeconds: retryAfterSeconds(active.until, now) };

      await db.insertInto('protect_failures').values({ key, at: now }).execute();
      // The failure as an event too: the block list shows who tried which logins after the window is gone.
      await db
        .insertInto('protect_events')
        .values({
          at: now,
          address,
          login,
          kind: 'failure',
          key,
          failure: failure === undefined || failure === 'password' ? null : failure,
        })
        .execute();
      const failures = await countRows(
        db
          .selectFrom('protect_failures')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('key', '=', key)
          .where('at', '>', now - rules.windowSeconds * 1000),
      );
      const earlierBlocks = await countRows(
        db
          .selectFrom('protect_blocks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('key', '=', key)
          .where('at', '>', now - rules.escalationWindowSeconds * 1000)
          // A lifted block was forgiven by someone who could: it does not lengthen the next one.
          .where('lifted_at', 'is', null),
      );
      const decision = decideBlock(failures, earlierBlocks, rules, now);
      if (!decision.block) return { kind: 'counted', failures, remaining: decision.remaining };

      const first = await db
        .selectFrom('protect_failures')
        .select((eb) => eb.fn.min('at').as('first'))
        .where('key', '=', key)
        .where('at', '>', now - rules.windowSeconds * 1000)
        .executeTakeFirst();
      const firstAt = first?.first === null || first?.first === undefined ? now : toInt(first.first, 'protect_failures.at');
      await db
        .insertInto('protect_blocks')
        .values({ key, at: now, until: decision.until, level: decision.level, address, failures, first_at: firstAt })
        .execute();
      // A new block starts a new count: the failures that caused it must not cause the next one.
      await db.deleteFrom('protect_failures').where('key', '=', key).execute();
      await db.insertInto('protect_events').values({ at: now, address, login, kind: 'lockout', key }).execute();
      // Protect itself blocks (actor: the `protect` job), from the address that failed.
      audit(
        auditEvent(
          { ...jobSource('protect'), client_ip: address },
          'protect.blocked',
          { type: 'address', id: key, name: key },
          {
            blocked: { before: false, after: true },
            until: { before: null, after: decision.until },
            level: { before: null, after: decision.level },
            failures: { before: null, after: failures },
            login: { before: null, after: login },
          },
        ),
      );
      return { kind: 'blocked', level: decision.level, until: decision.until, retryAfterSeconds: retryAfterSeconds(decision.until, now) };
    });
  }

  async recordBlockedAttempt(address: string, login: string, now: number, key: string | null = null): Promise<void> {
    await this.db.transaction(async (db) => {
      // value = value + 1 in one statement: atomic on both dialects, no read-modify-write.
      await db
        .updateTable('protect_stats')
        .set({ value: sql<number>`value + 1` })
        .where('name', '=', BLOCKED_ATTEMPTS)
        .execute();
      await db.insertInto('protect_events').values({ at: now, address, login, kind: 'blocked', key }).execute();
    });
  }

  async recordChallengeRefusal(address: string, login: string, now: number, key: string): Promise<void> {
    await this.db.run((db) => db.insertInto('protect_events').values({ at: now, address, login, kind: 'challenge', key }).execute());
  }

  failureCount(key: string, since: number): Promise<number> {
    return this.db.run((db) =>
      countRows(
        db
          .selectFrom('protect_failures')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('key', '=', key)
          .where('at', '>', since),
      ),
    );
  }

  async blockedCount(): Promise<number> {
    const row = await this.db.run((db) =>
      db.selectFrom('protect_stats').select('value').where('name', '=', BLOCKED_ATTEMPTS).executeTakeFirst(),
    );
    return row === undefined ? 0 : toInt(row.value, 'protect_stats.value');
  }

  async countEvents(kind: ProtectEventKind, bounds: readonly number[]): Promise<number[]> {
    if (bounds.length < 2) return [];
    const first = bounds[0] as number;
    const last = bounds[bounds.length - 1] as number;
    // One pass over the index range, bucketed by the given (time-zone aware) day bounds.
    const buckets = bounds.slice(0, -1).map((start, i) => {
      const end = bounds[i + 1] as number;
      return sql<unknown>`sum(case when at >= ${start} and at < ${end} then 1 else 0 end)`.as(`b${i}`);
    });
    const row = await this.db.run((db) =>
      db
        .selectFrom('protect_events')
        .select(buckets)
        .where('kind', '=', kind)
        .where('at', '>=', first)
        .where('at', '<', last)
        .executeTakeFirst(),
    );
    const values: Record<string, unknown> = row ?? {};
    // sum() over no rows is NULL.
    return buckets.map((_, i) => {
      const value = values[`b${i}`];
      return value === null || value === undefined ? 0 : toInt(value, 'protect_events.count');
    });
  }

  purge(cutoffs: PurgeCutoffs): Promise<PurgeCounts> {
    return this.db.transaction(async (db) => {
      const failures = await db.deleteFrom('protect_failures').where('at', '<', cutoffs.failures).executeTakeFirst();
      const blocks = await db.deleteFrom('protect_blocks').where('until', '<', cutoffs.blocks).executeTakeFirst();
      const events = await db.deleteFrom('protect_events').where('at', '<', cutoffs.events).executeTakeFirst();
      // Reservations of processes that died mid-check.
      await db.deleteFrom('protect_attempts').where('at', '<', cutoffs.failures).execute();
      // A key row only serializes failures of that key; it is upserted again by the next one.
      await db.deleteFrom('protect_keys').where('touched', '<', Math.min(cutoffs.failures, cutoffs.blocks)).execute();
      return {
        failures: Number(failures.numDeletedRows),
        blocks: Number(blocks.numDeletedRows),
        events: Number(events.numDeletedRows),
      };
    });
  }
}

/**
 * Upserts the key's row, which locks it on PostgreSQL until commit, so concurrent attempts of
 * one key (across workers and hosts) are counted one after the other, each seeing the others'
 * rows. On SQLite BEGIN IMMEDIATE already serializes all writers.
 */
async function lockKey(db: Kysely<ProtectTables>, key: string, now: number): Promise<void> {
  await db
    .insertInto('protect_keys')
    .values({ key, touched: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ touched: now }))
    .execute();
}

/** Whether `reserve` would find room now (its counts, without the key's lock); `dead`: slots of dead holders to drop. */
async function roomFor(
  db: Kysely<ProtectTables>,
  { key, now, rules, pendingSince, ownerIsDead }: ReserveInput,
): Promise<Exclude<Reservation, { kind: 'reserved' }> | { kind: 'free'; dead: string[] }> {
  const active = await selectActiveBlock(db, key, now);
  if (active !== null) return { kind: 'blocked', until: active.until, retryAfterSeconds: retryAfterSeconds(active.until, now) };
  const failures = await countRows(
    db
      .selectFrom('protect_failures')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('key', '=', key)
      .where('at', '>', now - rules.windowSeconds * 1000),
  );
  // A handful of rows at most (the limit's): their holders are judged here.
  const slots = await db.selectFrom('protect_attempts').select('owner').where('key', '=', key).where('at', '>', pendingSince).execute();
  const dead = new Set<string>();
  for (const { owner } of slots) if (owner !== null && ownerIsDead?.(owner) === true) dead.add(owner);
  const running = slots.filter(({ owner }) => owner === null || !dead.has(owner)).length;
  return failures + running >= rules.maxFailures ? { kind: 'busy' } : { kind: 'free', dead: [...dead] };
}

async function selectActiveBlock(db: Kysely<ProtectTables>, key: string, now: number): Promise<ActiveBlock | null> {
  const row = await db
    .selectFrom('protect_blocks')
    .select(['until', 'level'])
    .where('key', '=', key)
    .where('until', '>', now)
    // Lifted is lifted whatever the clocks of the hosts sharing the store say.
    .where('lifted_at', 'is', null)
    .orderBy('until', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) return null;
  return { until: toInt(row.until, 'protect_blocks.until'), level: toInt(row.level, 'protect_blocks.level') === 2 ? 2 : 1 };
}

async function countRows(query: { executeTakeFirst(): Promise<{ n: unknown } | undefined> }): Promise<number> {
  const row = await query.executeTakeFirst();
  return row === undefined ? 0 : toInt(row.n, 'count');
}
