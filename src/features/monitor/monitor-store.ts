import { auditEvent, type AuditSource } from '../audit/index.js';
import type { AuditChange, AuditObject } from '../../wire/audit.js';
import type { Selectable } from 'kysely';
import { toInt, toIntOrNull } from '../../store/db-values.js';
import type { FeatureDb } from '../db/feature-db.js';
import { windowCron, type MaintenanceInput, type MaintenanceWindow } from './maintenance.js';
import type { MonitorChecksTable, MonitorMaintenanceTable, MonitorTables } from './monitor-tables.js';

/** A check as stored: `url` null is the site's own URL (check 1). */
export interface StoredCheck {
  readonly id: number;
  readonly url: string | null;
  readonly expectedStatus: string;
  readonly keyword: string | null;
  readonly keywordAbsent: boolean;
  readonly slowMs: number | null;
}

export type CheckInput = Omit<StoredCheck, 'id'>;

export type Outcome = 'down' | 'up' | 'slow';
const OUTCOME_CODES: Record<Outcome, number> = { down: 0, up: 1, slow: 2 };
const OUTCOMES: readonly Outcome[] = ['down', 'up', 'slow'];

export interface Sample {
  readonly at: number;
  readonly host: string;
  readonly ms: number | null;
  readonly outcome: Outcome;
  readonly maintenance: boolean;
}

/** A host's latest confirmed view of a check. */
export interface Vote {
  readonly host: string;
  readonly at: number;
  readonly down: boolean;
  readonly since: number | null;
  readonly reason: string | null;
}

/** The site's own URL is check 1; it can be changed but never removed. */
export const SITE_CHECK_ID = 1;

function toCheck(row: Selectable<MonitorChecksTable>): StoredCheck {
  return {
    id: toInt(row.id, 'monitor_checks.id'),
    url: row.url,
    expectedStatus: row.expected_status,
    keyword: row.keyword,
    keywordAbsent: row.keyword_absent === 1,
    slowMs: row.slow_ms,
  };
}

function toWindow(row: Selectable<MonitorMaintenanceTable>): MaintenanceWindow {
  const id = toInt(row.id, 'monitor_maintenance.id');
  const durationMinutes = row.duration_minutes ?? 0;
  if (row.kind === 'once')
    return { id, kind: 'once', starts: toIntOrNull(row.starts, 'starts') ?? 0, ends: toIntOrNull(row.ends, 'ends') ?? 0, note: row.note };
  const cron = row.cron ?? '';
  if (row.kind === 'weekly') {
    // Stored as the cron expression windowCron() wrote: "M H * * d,d".
    const [minutes = '0', hours = '0', , , days = ''] = cron.split(' ');
    const time = `${hours.padStart(2, '0')}:${minutes.padStart(2, '0')}`;
    return { id, kind: 'weekly', days: days.split(',').map(Number), time, durationMinutes, note: row.note };
  }
  return { id, kind: 'cron', cron, durationMinutes, note: row.note };
}

/** The monitor's tables beyond the downtimes: checks, response times, votes, maintenance windows. */
export class MonitorStore {
  constructor(private readonly db: FeatureDb<MonitorTables>) {}

  async checks(): Promise<StoredCheck[]> {
    const rows = await this.db.run((db) => db.selectFrom('monitor_checks').selectAll().orderBy('id').execute());
    return rows.map(toCheck);
  }

  async addCheck(input: CheckInput, now: number, source: AuditSource): Promise<StoredCheck> {
    return this.db.transaction(async (db, audit) => {
      const row = await db
        .insertInto('monitor_checks')
        .values({
          url: input.url,
          expected_status: input.expectedStatus,
          keyword: input.keyword,
          keyword_absent: input.keywordAbsent ? 1 : 0,
          slow_ms: input.slowMs,
          created: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const check = toCheck(row);
      audit(auditEvent(source, 'monitor.check_added', checkObject(check), fieldChanges(null, check)));
      return check;
    });
  }

  /** Returns the updated check, or null when there is none with that id. */
  async updateCheck(id: number, input: CheckInput, source: AuditSource): Promise<StoredCheck | null> {
    return this.db.transaction(async (db, audit) => {
      const before = await db.selectFrom('monitor_checks').selectAll().where('id', '=', id).executeTakeFirst();
      const row = await db
        .updateTable('monitor_checks')
        .set({
          url: input.url,
          expected_status: input.expectedStatus,
          keyword: input.keyword,
          keyword_absent: input.keywordAbsent ? 1 : 0,
          slow_ms: input.slowMs,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined || before === undefined) return null;
      const check = toCheck(row);
      const changes = fieldChanges(toCheck(before), check);
      if (Object.keys(changes).length > 0) audit(auditEvent(source, 'monitor.check_updated', checkObject(check), changes));
      return check;
    });
  }

  /** Removes a check with its history; false when there was none. */
  async removeCheck(id: number, source: AuditSource): Promise<boolean> {
    return this.db.transaction(async (db, audit) => {
      const before = await db.selectFrom('monitor_checks').selectAll().where('id', '=', id).executeTakeFirst();
      const result = await db.deleteFrom('monitor_checks').where('id', '=', id).executeTakeFirst();
      await db.deleteFrom('monitor_intervals').where('check_id', '=', id).execute();
      await db.deleteFrom('monitor_samples').where('check_id', '=', id).execute();
      await db.deleteFrom('monitor_votes').where('check_id', '=', id).execute();
      await db.deleteFrom('monitor_heartbeat').where('id', '=', id).execute();
      if (before !== undefined) {
        const check = toCheck(before);
        audit(auditEvent(source, 'monitor.check_removed', checkObject(check), fieldChanges(check, null)));
      }
      return Number(result.numDeletedRows) > 0;
    });
  }

  async addSample(checkId: number, sample: Sample): Promise<void> {
    await this.db.run((db) =>
      db
        .insertInto('monitor_samples')
        .values({
          check_id: checkId,
          at: sample.at,
          host: sample.host,
          ms: sample.ms,
          outcome: OUTCOME_CODES[sample.outcome],
          maintenance: sample.maintenance ? 1 : 0,
        })
        .execute(),
    );
  }

  async samples(checkId: number, since: number): Promise<Sample[]> {
    const rows = await this.db.run((db) =>
      db.selectFrom('monitor_samples').selectAll().where('check_id', '=', checkId).where('at', '>=', since).orderBy('at').execute(),
    );
    return rows.map((row) => ({
      at: toInt(row.at, 'monitor_samples.at'),
      host: row.host,
      ms: row.ms,
      outcome: OUTCOMES[row.outcome] ?? 'down',
      maintenance: row.maintenance === 1,
    }));
  }

  /** The earliest stored response time of a check (when its history starts), or null. */
  async firstSampleAt(checkId: number): Promise<number | null> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('monitor_samples')
        .select((eb) => eb.fn.min('at').as('first'))
        .where('check_id', '=', checkId)
        .executeTakeFirst(),
    );
    return toIntOrNull(row?.first ?? null, 'monitor_samples.at');
  }

  async vote(checkId: number, vote: Vote): Promise<void> {
    const values = { at: vote.at, down: vote.down ? 1 : 0, since: vote.since, reason: vote.reason };
    await this.db.run((db) =>
      db
        .insertInto('monitor_votes')
        .values({ check_id: checkId, host: vote.host, ...values })
        .onConflict((oc) => oc.columns(['check_id', 'host']).doUpdateSet(values))
        .execute(),
    );
  }

  /** The votes cast at or after `since`. */
  async votes(checkId: number, since: number): Promise<Vote[]> {
    const rows = await this.db.run((db) =>
      db.selectFrom('monitor_votes').selectAll().where('check_id', '=', checkId).where('at', '>=', since).orderBy('host').execute(),
    );
    return rows.map((row) => ({
      host: row.host,
      at: toInt(row.at, 'monitor_votes.at'),
      down: row.down === 1,
      since: toIntOrNull(row.since, 'monitor_votes.since'),
      reason: row.reason,
    }));
  }

  async maintenanceWindows(): Promise<MaintenanceWindow[]> {
    const rows = await this.db.run((db) => db.selectFrom('monitor_maintenance').selectAll().orderBy('id').execute());
    return rows.map(toWindow);
  }

  async addMaintenance(input: MaintenanceInput, now: number, source: AuditSource): Promise<MaintenanceWindow> {
    return this.db.transaction(async (db, audit) => {
      const row = await db
        .insertInto('monitor_maintenance')
        .values({
          kind: input.kind,
          starts: input.kind === 'once' ? input.starts : null,
          ends: input.kind === 'once' ? input.ends : null,
          cron: windowCron(input),
          duration_minutes: input.kind === 'once' ? null : input.durationMinutes,
          note: input.note,
          created: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const window = toWindow(row);
      audit(auditEvent(source, 'monitor.maintenance_added', windowObject(window), fieldChanges(null, window)));
      return window;
    });
  }

  async removeMaintenance(id: number, source: AuditSource): Promise<boolean> {
    return this.db.transaction(async (db, audit) => {
      const before = await db.selectFrom('monitor_maintenance').selectAll().where('id', '=', id).executeTakeFirst();
      const result = await db.deleteFrom('monitor_maintenance').where('id', '=', id).executeTakeFirst();
      if (before === undefined || Number(result.numDeletedRows) === 0) return false;
      const window = toWindow(before);
      audit(auditEvent(source, 'monitor.maintenance_removed', windowObject(window), fieldChanges(window, null)));
      return true;
    });
  }
}

function checkObject(check: StoredCheck): AuditObject {
  return { type: 'monitor_check', id: String(check.id), name: check.url ?? 'the site' };
}

function windowObject(window: MaintenanceWindow): AuditObject {
  return { type: 'maintenance_window', id: String(window.id), name: window.note ?? '' };
}

/** Field → before/after between two records (null: none), the id left out. */
function fieldChanges(before: object | null, after: object | null): Record<string, AuditChange> {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const changes: Record<string, AuditChange> = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (key === 'id') continue;
    const was = b[key] ?? null;
    const is = a[key] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[key] = { before: was, after: is };
  }
  return changes;
}
