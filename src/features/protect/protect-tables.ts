import type { ColumnType, Generated } from 'kysely';

/**
 * Kysely table types of the protect feature. Timestamps are milliseconds since the epoch in
 * BIGINT columns; node-postgres returns BIGINT as a string, so selected values are narrowed.
 */
type Millis = ColumnType<number | string | bigint, number, number>;
type Count = ColumnType<number | string | bigint, number, number>;

/** One row per counter key: upserted first in every failure transaction to serialize that key. */
export interface ProtectKeysTable {
  key: string;
  touched: Millis;
}

/** One row per failed login (sliding window). */
export interface ProtectFailuresTable {
  key: string;
  at: Millis;
}

/**
 * Password checks in progress: a row is inserted before the password is checked and removed
 * when its outcome is recorded, so parallel attempts count against the limit while they run.
 */
export interface ProtectAttemptsTable {
  id: Generated<number>;
  key: string;
  at: Millis;
}

/** Every block ever imposed (kept until purged): the current one and the escalation history. */
export interface ProtectBlocksTable {
  id: Generated<number>;
  key: string;
  at: Millis;
  until: Millis;
  /** 1 = ordinary block, 2 = escalated (long) block. */
  level: number;
}

/** Audit log: blocked login attempts ('blocked') and the start of each block ('lockout'). Never a password. */
export interface ProtectEventsTable {
  id: Generated<number>;
  at: Millis;
  address: string;
  login: string;
  kind: string;
}

/** Named counters that survive purges (`blocked_attempts`, the dashboard count). */
export interface ProtectStatsTable {
  name: string;
  value: Count;
}

export interface ProtectTables {
  protect_keys: ProtectKeysTable;
  protect_failures: ProtectFailuresTable;
  protect_attempts: ProtectAttemptsTable;
  protect_blocks: ProtectBlocksTable;
  protect_events: ProtectEventsTable;
  protect_stats: ProtectStatsTable;
}
