import type { ColumnType, Generated } from 'kysely';

/**
 * Kysely table types of the monitor feature. Timestamps are milliseconds since the epoch in
 * BIGINT columns; node-postgres returns BIGINT as a string, so selected values are narrowed.
 */
type Millis = ColumnType<number | string | bigint, number, number>;
type NullableMillis = ColumnType<number | string | bigint | null, number | null, number | null>;

/** One row per downtime; `ended` is null while the site is still down. */
export interface MonitorIntervalsTable {
  id: Generated<number>;
  started: Millis;
  ended: NullableMillis;
  /** Why the site was judged down, e.g. "HTTP 503", "timeout after 10 s", "monitor not running". */
  reason: string;
}

/** A single row (id 1): when a checker last checked, to tell how long no checker ran. */
export interface MonitorHeartbeatTable {
  id: number;
  at: Millis;
}

export interface MonitorTables {
  monitor_intervals: MonitorIntervalsTable;
  monitor_heartbeat: MonitorHeartbeatTable;
}
