import type { FeatureDb } from '../db/feature-db.js';
import { toInt } from '../../store/db-values.js';
import type { TwoFactorTables } from './tables.js';
import type { AuditEventInput } from '../../wire/audit.js';

export interface TwoFactorRow {
  readonly secret: string;
  readonly enabled: boolean;
  readonly lastStep: number;
}

/** The two-factor tables; every write that must happen once (a code, a recovery code) is a conditional update. */
export class TwoFactorRepo {
  constructor(private readonly db: FeatureDb<TwoFactorTables>) {}

  async find(userId: number): Promise<TwoFactorRow | null> {
    const row = await this.db.run((db) =>
      db.selectFrom('two_factor_users').select(['secret', 'enabled', 'last_step']).where('user_id', '=', userId).executeTakeFirst(),
    );
    if (!row) return null;
    return {
      secret: row.secret,
      enabled: toInt(row.enabled, 'two_factor_users.enabled') === 1,
      lastStep: toInt(row.last_step, 'two_factor_users.last_step'),
    };
  }

  /** A new, not yet confirmed secret (replaces an unconfirmed one; never an enabled one). */
  async begin(userId: number, sealedSecret: string, now: number, event?: AuditEventInput): Promise<boolean> {
    return this.db.transaction(async (db, audit) => {
      const row = await db.selectFrom('two_factor_users').select('enabled').where('user_id', '=', userId).executeTakeFirst();
      if (row && toInt(row.enabled, 'two_factor_users.enabled') === 1) return false;
      await db.deleteFrom('two_factor_users').where('user_id', '=', userId).execute();
      await db
        .insertInto('two_factor_users')
        .values({ user_id: userId, secret: sealedSecret, enabled: 0, last_step: 0, created: now })
        .execute();
      if (event) audit(event);
      return true;
    });
  }

  /**
   * Accepts TOTP time step `step` once: true only for the first caller whose step is later than
   * the last accepted one (any process; a replayed code loses the race or the comparison).
   */
  async takeStep(userId: number, step: number, enable: boolean): Promise<boolean> {
    const result = await this.db.run((db) =>
      db
        .updateTable('two_factor_users')
        .set(enable ? { last_step: step, enabled: 1 } : { last_step: step })
        .where('user_id', '=', userId)
        .where('last_step', '<', step)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** Enables a confirmed enrolment with its first code's step (as `takeStep`), recording `event` with it. */
  async enable(userId: number, step: number, event: AuditEventInput): Promise<boolean> {
    return this.db.transaction(async (db, audit) => {
      const result = await db
        .updateTable('two_factor_users')
        .set({ last_step: step, enabled: 1 })
        .where('user_id', '=', userId)
        .where('last_step', '<', step)
        .executeTakeFirst();
      const done = Number(result.numUpdatedRows) === 1;
      if (done) audit(event);
      return done;
    });
  }

  /** Replaces the recovery codes of a user by these hashes, recording `event` with them. */
  async setRecovery(userId: number, hashes: readonly string[], event?: AuditEventInput): Promise<void> {
    await this.db.transaction(async (db, audit) => {
      await db.deleteFrom('two_factor_recovery').where('user_id', '=', userId).execute();
      if (hashes.length > 0)
        await db
          .insertInto('two_factor_recovery')
          .values(hashes.map((hash) => ({ user_id: userId, hash, used_at: null })))
          .execute();
      if (event) audit(event);
    });
  }

  /** Uses a recovery code once: true only for the first caller. */
  async useRecovery(userId: number, hash: string, now: number): Promise<boolean> {
    const result = await this.db.run((db) =>
      db
        .updateTable('two_factor_recovery')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  async recoveryLeft(userId: number): Promise<number> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('two_factor_recovery')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst(),
    );
    return row === undefined ? 0 : toInt(row.n, 'count');
  }

  /** Forgets everything of a user's second factor, recording `event` with it; true when there was something. */
  async remove(userId: number, event?: AuditEventInput): Promise<boolean> {
    return this.db.transaction(async (db, audit) => {
      await db.deleteFrom('two_factor_recovery').where('user_id', '=', userId).execute();
      const result = await db.deleteFrom('two_factor_users').where('user_id', '=', userId).executeTakeFirst();
      const removed = Number(result.numDeletedRows) > 0;
      if (removed && event) audit(event);
      return removed;
    });
  }
}
