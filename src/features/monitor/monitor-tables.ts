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
  /** Why the site was judged down, e.g. "HTTP 503", "timeout after 10 s". */
  reason: string;
  /** The check (monitor_checks.id) the downtime is of; 1 is the site's own URL. */
  check_id: ColumnType<number, number | undefined, number>;
}

/** A period when no host checked (Siteward stopped, or the module off): neither up nor down, left out of uptime. */
export interface MonitorNoDataTable {
  id: Generated<number>;
  check_id: number;
  started: Millis;
  ended: Millis;
}

/** A single row (id 1): when a checker last checked, to tell how long no checker ran. */
export interface MonitorHeartbeatTable {
  id: number;
  at: Millis;
}

/** A URL checked; row 1 (url null) is the site's own URL. Empty `expected_status` means 2xx/3xx. */
export interface MonitorChecksTable {
  id: Generated<number>;
  url: string | null;
  expected_status: string;
  keyword: string | null;
  /** 1: the keyword must NOT appear. */
  keyword_absent: number;
  slow_ms: number | null;
  created: Millis;
}

/** One check by one host: response time and outcome (0 down, 1 up, 2 slow), compact enough for a year of minutes. */
export interface MonitorSamplesTable {
  check_id: number;
  at: Millis;
  host: string;
  ms: number | null;
  outcome: number;
  maintenance: number;
}

/** Each host's latest confirmed view of each check: the leader counts these for the quorum. */
export interface MonitorVotesTable {
  check_id: number;
  host: string;
  at: Millis;
  down: number;
  since: NullableMillis;
  reason: string | null;
}

/** A maintenance window: `once` (starts..ends), or `weekly`/`cron` (a cron expression and a duration). */
export interface MonitorMaintenanceTable {
  id: Generated<number>;
  kind: string;
  starts: NullableMillis;
  ends: NullableMillis;
  cron: string | null;
  duration_minutes: number | null;
  note: string;
  created: Millis;
}

export interface MonitorTables {
  monitor_intervals: MonitorIntervalsTable;
  monitor_heartbeat: MonitorHeartbeatTable;
  monitor_no_data: MonitorNoDataTable;
  monitor_checks: MonitorChecksTable;
  monitor_samples: MonitorSamplesTable;
  monitor_votes: MonitorVotesTable;
  monitor_maintenance: MonitorMaintenanceTable;
}
