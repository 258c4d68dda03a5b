import { auditEvent, jobSource } from '../audit/index.js';
import type { AuditObject } from '../../wire/audit.js';
import type { Selectable } from 'kysely';
import { toInt, toIntOrNull, toText } from '../../store/db-values.js';
import type { FeatureDb } from '../db/feature-db.js';
import type { MonitorIntervalsTable, MonitorTables } from './monitor-tables.js';

/** A downtime: milliseconds since the epoch; `end` null while it lasts. */
export interface DowntimeInterval {
  readonly id: number;
  readonly start: number;
  readonly end: number | null;
  readonly reason: string;
}

/** A period when no host checked: milliseconds since the epoch. */
export interface NoDataPeriod {
  readonly start: number;
  readonly end: number;
}

export interface MonitorRepo {
  /** The downtime still open (the newest when several are, which should not happen), or null. */
  openInterval(): Promise<DowntimeInterval | null>;
  /** Opens a downtime; returns its id. */
  startInterval(start: number, reason: string): Promise<number>;
  closeInterval(id: number, end: number): Promise<void>;
  /** Records a downtime that is already over. */
  addInterval(start: number, end: number, reason: string): Promise<void>;
  /** The downtime that started last, or null. */
  latest(): Promise<DowntimeInterval | null>;
  /** Downtimes that were open at some time at or after `since`, newest first. */
  since(since: number): Promise<DowntimeInterval[]>;
  /** Records a period when nothing checked (neither up nor down). */
  addNoData(start: number, end: number): Promise<void>;
  /** No-data periods that ended at or after `since`, oldest first. */
  noDataSince(since: number): Promise<NoDataPeriod[]>;
  heartbeat(): Promise<number | null>;
  setHeartbeat(at: number): Promise<void>;
  /** Deletes downtimes that ended before `cutoff`; returns how many. */
  purgeEndedBefore(cutoff: number): Promise<number>;
}

function toInterval(row: Selectable<MonitorIntervalsTable>): DowntimeInterval {
  return {
    id: toInt(row.id, 'monitor_intervals.id'),
    start: toInt(row.started, 'monitor_intervals.started'),
    end: toIntOrNull(row.ended, 'monitor_intervals.ended'),
    reason: toText(row.reason, 'monitor_intervals.reason'),
  };
}

/** The uptime checker records down and up as a job. */
const CHECKER = jobSource('monitor.checker');

export class KyselyMonitorRepo implements MonitorRepo {
  /** `checkId`: whose downtimes and heartbeat these are (1, the site's own URL, by default). */
  constructor(
    private readonly db: FeatureDb<MonitorTables>,
    private readonly checkId = 1,
  ) {}

  async openInterval(): Promise<DowntimeInterval | null> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('monitor_intervals')
        .selectAll()
        .where('check_id', '=', this.checkId)
        .where('ended', 'is', null)
        .orderBy('started', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
    return row === undefined ? null : toInterval(row);
  }

  async startInterval(start: number, reason: string): Promise<number> {
    return this.db.transaction(async (db, audit) => {
      const row = await db
        .insertInto('monitor_intervals')
        .values({ started: start, ended: null, reason, check_id: this.checkId })
        .returning('id')
        .executeTakeFirstOrThrow();
      audit(
        auditEvent(CHECKER, 'monitor.down', this.object(), {
          down: { before: false, after: true },
          since: { before: null, after: start },
          reason: { before: null, after: reason },
        }),
      );
      return toInt(row.id, 'monitor_intervals.id');
    });
  }

  async closeInterval(id: number, end: number): Promise<void> {
    await this.db.transaction(async (db, audit) => {
      // Only an open interval closes: a second close (another host) records nothing.
      const closed = await db
        .updateTable('monitor_intervals')
        .set({ ended: end })
        .where('id', '=', id)
        .where('ended', 'is', null)
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) > 0)
        audit(
          auditEvent(CHECKER, 'monitor.up', this.object(), { down: { before: true, after: false }, until: { before: null, after: end } }),
        );
    });
  }

  private object(): AuditObject {
    return { type: 'monitor_check', id: String(this.checkId), name: '' };
  }

  async addInterval(start: number, end: number, reason: string): Promise<void> {
    await this.db.run((db) =>
      db.insertInto('monitor_intervals').values({ started: start, ended: end, reason, check_id: this.checkId }).execute(),
    );
  }

  async latest(): Promise<DowntimeInterval | null> {
    const row = await this.db.run((db) =>
      db
        .selectFrom('monitor_intervals')
        .selectAll()
        .where('check_id', '=', this.checkId)
        .orderBy('started', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
    return row === undefined ? null : toInterval(row);
  }

  async since(since: number): Promise<DowntimeInterval[]> {
    const rows = await this.db.run((db) =>
      db
        .selectFrom('monitor_intervals')
        .selectAll()
        .where('check_id', '=', this.checkId)
        .where((eb) => eb.or([eb('ended', 'is', null), eb('ended', '>=', since)]))
        .orderBy('started', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    );
    return rows.map(toInterval);
  }

  async addNoData(start: number, end: number): Promise<void> {
    await this.db.run((db) => db.insertInto('monitor_no_data').values({ check_id: this.checkId, started: start, ended: end }).execute());
  }

  async noDataSince(since: number): Promise<NoDataPeriod[]> {
    const rows = await this.db.run((db) =>
      db
        .selectFrom('monitor_no_data')
        .select(['started', 'ended'])
        .where('check_id', '=', this.checkId)
        .where('ended', '>=', since)
        .orderBy('started')
        .execute(),
    );
    return rows.map((row) => ({ start: toInt(row.started, 'monitor_no_data.started'), end: toInt(row.ended, 'monitor_no_data.ended') }));
  }

  async heartbeat(): Promise<number | null> {
    const row = await this.db.run((db) =>
      db.selectFrom('monitor_heartbeat').select('at').where('id', '=', this.checkId).executeTakeFirst(),
    );
    return row === undefined ? null : toInt(row.at, 'monitor_heartbeat.at');
  }

  async setHeartbeat(at: number): Promise<void> {
    await this.db.run((db) =>
      db
        .insertInto('monitor_heartbeat')
        .values({ id: this.checkId, at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ at }))
        .execute(),
    );
  }

  /** Deletes downtimes and no-data periods (of every check) that ended before `cutoff`, and older response times; returns how many downtimes. */
  async purgeEndedBefore(cutoff: number): Promise<number> {
    const result = await this.db.run((db) => db.deleteFrom('monitor_intervals').where('ended', '<', cutoff).executeTakeFirst());
    await this.db.run((db) => db.deleteFrom('monitor_no_data').where('ended', '<', cutoff).execute());
    await this.db.run((db) => db.deleteFrom('monitor_samples').where('at', '<', cutoff).execute());
    return Number(result.numDeletedRows);
  }
}
