/**
 * What the block list, the unlock links and the digest need from the store: blocks with who
 * tried what, recent failed attempts, lifting blocks (for every worker and host at once: the
 * password guard reads the block from the store on every attempt, nothing caches it), single-use
 * unlock tokens and the "last digest" mark that keeps digests at most one an interval.
 */
import type { LoginFailure } from '../../auth/password-guards.js';
import type { FeatureDb } from '../db/feature-db.js';
import { toInt } from '../../store/db-values.js';
import type { ProtectTables } from './protect-tables.js';
import { auditEvent, type AuditSource } from '../audit/index.js';

/** One block as the list shows it (times in milliseconds since the epoch). */
export interface BlockView {
  readonly id: number;
  /** The counter key: an IPv4 address or an IPv6 /64 (`2001:db8:1:2::/64`). */
  readonly address: string;
  /** The client address whose failure started the block. */
  readonly lastAddress: string;
  readonly active: boolean;
  /** 1 ordinary, 2 escalated (the long block after repeated ones). */
  readonly level: number;
  /** Failed logins that caused it. */
  readonly failures: number;
  /** Attempts refused while it was in force. */
  readonly blockedAttempts: number;
  /** Logins tried (failures and refused attempts), at most 20. */
  readonly usernames: readonly string[];
  readonly firstAttempt: number;
  readonly lastAttempt: number;
  readonly blockedAt: number;
  readonly blockedUntil: number;
  readonly liftedAt: number | null;
  readonly liftedBy: string | null;
}

/** One failed or refused login attempt. */
export interface AttemptView {
  readonly id: number;
  readonly at: number;
  readonly address: string;
  readonly key: string | null;
  readonly login: string;
  /**
   * `failed`: something was wrong (`failure` says what); `refused`: nothing checked, because the
   * address was blocked or (`failure: 'challenge'`) the login form's challenge was not solved.
   */
  readonly outcome: 'failed' | 'refused';
  /** What a failed attempt got wrong, `challenge` for a challenge refusal; null for a blocked attempt. */
  readonly failure: LoginFailure | 'challenge' | null;
}

export interface Page<T> {
  readonly total: number;
  readonly items: readonly T[];
}

export interface UnlockTicket {
  readonly key: string;
  readonly address: string;
  readonly userId: number;
}

const USERNAMES_SHOWN = 20;
const num = (value: unknown, what: string): number => toInt(value, what);
const maybe = (value: unknown, what: string): number | null => (value === null || value === undefined ? null : toInt(value, what));

export class ProtectBlocks {
  constructor(private readonly db: FeatureDb<ProtectTables>) {}

  /** Blocks, newest first; `activeOnly` keeps those in force at `now`. */
  async list(input: {
    readonly page: number;
    readonly perPage: number;
    readonly now: number;
    readonly activeOnly: boolean;
  }): Promise<Page<BlockView>> {
    const { page, perPage, now, activeOnly } = input;
    return this.db.run(async (db) => {
      let base = db.selectFrom('protect_blocks');
      if (activeOnly) base = base.where('until', '>', now).where('lifted_at', 'is', null);
      const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const total = counted === undefined ? 0 : num(counted.n, 'count');
      const offset = (page - 1) * perPage;
      // A page past the last is not queried: its offset may exceed what SQL takes (page=1e20).
      if (offset >= total) return { total, items: [] };
      const rows = await base.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(perPage).offset(offset).execute();
      const items: BlockView[] = [];
      for (const row of rows) {
        const at = num(row.at, 'protect_blocks.at');
        const until = num(row.until, 'protect_blocks.until');
        const firstAt = maybe(row.first_at, 'protect_blocks.first_at') ?? at;
        const liftedAt = maybe(row.lifted_at, 'protect_blocks.lifted_at');
        // The block's attempts: from its first failure until it ended or was lifted (not "now":
        // the host listing may run behind the one that recorded them).
        const end = Math.min(until, liftedAt ?? Infinity);
        const kinds = await db
          .selectFrom('protect_events')
          .select(['kind', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.min('at').as('first'), (eb) => eb.fn.max('at').as('last')])
          .where('key', '=', row.key)
          .where('kind', 'in', ['failure', 'blocked', 'challenge'])
          .where('at', '>=', firstAt)
          .where('at', '<=', end)
          .groupBy('kind')
          .execute();
        const logins = await db
          .selectFrom('protect_events')
          .select('login')
          .distinct()
          .where('key', '=', row.key)
          .where('kind', 'in', ['failure', 'blocked', 'challenge'])
          .where('at', '>=', firstAt)
          .where('at', '<=', end)
          .orderBy('login')
          .limit(USERNAMES_SHOWN)
          .execute();
        const blocked = kinds.find((k) => k.kind === 'blocked');
        const lasts = kinds.map((k) => maybe(k.last, 'protect_events.at') ?? at);
        items.push({
          id: num(row.id, 'protect_blocks.id'),
          address: row.key,
          lastAddress: row.address,
          active: until > now && liftedAt === null,
          level: row.level,
          failures: num(row.failures, 'protect_blocks.failures'),
          blockedAttempts: blocked === undefined ? 0 : num(blocked.n, 'count'),
          usernames: logins.map((l) => l.login),
          firstAttempt: firstAt,
          lastAttempt: Math.max(at, ...lasts),
          blockedAt: at,
          blockedUntil: until,
          liftedAt,
          liftedBy: row.lifted_by,
        });
      }
      return { total, items };
    });
  }

  /** Failed and refused login attempts (blocked, or refused for the login form's challenge), newest first. */
  async attempts(input: { readonly page: number; readonly perPage: number }): Promise<Page<AttemptView>> {
    return this.db.run(async (db) => {
      const base = db.selectFrom('protect_events').where('kind', 'in', ['failure', 'blocked', 'challenge']);
      const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const total = counted === undefined ? 0 : num(counted.n, 'count');
      const offset = (input.page - 1) * input.perPage;
      if (offset >= total) return { total, items: [] };
      const rows = await base
        .select(['id', 'at', 'address', 'key', 'login', 'kind', 'failure'])
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.perPage)
        .offset(offset)
        .execute();
      return {
        total,
        items: rows.map((r) => ({
          id: num(r.id, 'protect_events.id'),
          at: num(r.at, 'protect_events.at'),
          address: r.address,
          key: r.key,
          login: r.login,
          outcome: r.kind === 'failure' ? 'failed' : 'refused',
          failure: attemptFailure(r.kind, r.failure),
        })),
      };
    });
  }

  /**
   * Lifts the blocks in force for `key` (or for every key when null), marking when and by whom
   * (the guard skips lifted blocks, so no host's clock decides), and forgets the key's failures.
   * Returns the keys lifted, each recorded as `protect.unblocked` by `source` in the same transaction.
   */
  lift(key: string | null, now: number, by: string, source: AuditSource): Promise<string[]> {
    return this.db.transaction(async (db, audit) => {
      let active = db.selectFrom('protect_blocks').select('key').distinct().where('until', '>', now).where('lifted_at', 'is', null);
      if (key !== null) active = active.where('key', '=', key);
      const keys = (await active.execute()).map((r) => r.key);
      if (keys.length === 0) return [];
      await db
        .updateTable('protect_blocks')
        .set({ lifted_at: now, lifted_by: by })
        .where('until', '>', now)
        .where('lifted_at', 'is', null)
        .where('key', 'in', keys)
        .execute();
      await db.deleteFrom('protect_failures').where('key', 'in', keys).execute();
      await db
        .insertInto('protect_events')
        .values(keys.map((k) => ({ at: now, address: k, login: by, kind: 'unblock', key: k })))
        .execute();
      for (const k of keys)
        audit(auditEvent(source, 'protect.unblocked', { type: 'address', id: k, name: k }, { blocked: { before: true, after: false } }));
      return keys;
    });
  }

  async addUnlock(input: UnlockTicket & { readonly hash: string; readonly now: number; readonly expires: number }): Promise<void> {
    await this.db.run((db) =>
      db
        .insertInto('protect_unlocks')
        .values({
          hash: input.hash,
          key: input.key,
          address: input.address,
          user_id: input.userId,
          created: input.now,
          expires: input.expires,
        })
        .execute(),
    );
  }

  /** Unlock links asked for `userId` since `since` (the per-account limit). */
  async unlocksSince(userId: number, since: number): Promise<number> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('protect_unlocks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('created', '>', since)
        .executeTakeFirst(),
    );
    return row === undefined ? 0 : num(row.n, 'count');
  }

  /** The ticket of an unused, unexpired link, without using it (the confirmation page). */
  async peekUnlock(hash: string, now: number): Promise<UnlockTicket | null> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('protect_unlocks')
        .select(['key', 'address', 'user_id'])
        .where('hash', '=', hash)
        .where('used_at', 'is', null)
        .where('expires', '>', now)
        .executeTakeFirst(),
    );
    return row === undefined ? null : { key: row.key, address: row.address, userId: row.user_id };
  }

  /** Uses a link: one statement marks it, so of two parallel uses only one gets the ticket. */
  async useUnlock(hash: string, now: number): Promise<UnlockTicket | null> {
    return this.db.transaction(async (db) => {
      const used = await db
        .updateTable('protect_unlocks')
        .set({ used_at: now })
        .where('hash', '=', hash)
        .where('used_at', 'is', null)
        .where('expires', '>', now)
        .executeTakeFirst();
      if (used.numUpdatedRows !== 1n) return null;
      const row = await db
        .selectFrom('protect_unlocks')
        .select(['key', 'address', 'user_id'])
        .where('hash', '=', hash)
        .executeTakeFirstOrThrow();
      return { key: row.key, address: row.address, userId: row.user_id };
    });
  }

  /**
   * Claims the next digest: succeeds (returning the previous mark, where this digest starts)
   * when the last one is at least `gapMs` old, on one process only (compare-and-set).
   */
  async claimDigest(now: number, gapMs: number): Promise<number | null> {
    return this.db.transaction(async (db) => {
      const row = await db.selectFrom('protect_stats').select('value').where('name', '=', 'digest_sent_at').executeTakeFirst();
      const last = row === undefined ? 0 : num(row.value, 'protect_stats.value');
      if (now - last < gapMs) return null;
      const claimed = await db
        .updateTable('protect_stats')
        .set({ value: now })
        .where('name', '=', 'digest_sent_at')
        .where('value', '=', last)
        .executeTakeFirst();
      return claimed.numUpdatedRows === 1n ? last : null;
    });
  }

  /** Gives a claim back (nothing to send), so the next block is told at once. */
  async releaseDigest(claimedAt: number, previous: number): Promise<void> {
    await this.db.run((db) =>
      db
        .updateTable('protect_stats')
        .set({ value: previous })
        .where('name', '=', 'digest_sent_at')
        .where('value', '=', claimedAt)
        .execute(),
    );
  }

  /** Blocks that started in `(since, until]`, oldest first. */
  async startedBetween(
    since: number,
    until: number,
  ): Promise<{ key: string; address: string; at: number; until: number; level: number; failures: number }[]> {
    const rows = await this.db.run((db) =>
      db
        .selectFrom('protect_blocks')
        .select(['key', 'address', 'at', 'until', 'level', 'failures'])
        .where('at', '>', since)
        .where('at', '<=', until)
        .orderBy('at')
        .limit(500)
        .execute(),
    );
    return rows.map((r) => ({
      key: r.key,
      address: r.address,
      at: num(r.at, 'protect_blocks.at'),
      until: num(r.until, 'protect_blocks.until'),
      level: r.level,
      failures: num(r.failures, 'protect_blocks.failures'),
    }));
  }

  /** Forgets unlock links that can no longer be used. */
  async purgeUnlocks(before: number): Promise<void> {
    await this.db.run((db) => db.deleteFrom('protect_unlocks').where('expires', '<', before).execute());
  }
}

/** What an attempt got wrong: null for a blocked one; a failure before migration 0186 was a password. */
function attemptFailure(kind: string, failure: string | null): AttemptView['failure'] {
  if (kind === 'challenge') return 'challenge';
  if (kind !== 'failure') return null;
  return failure === 'code' || failure === 'recovery_code' ? failure : 'password';
}
