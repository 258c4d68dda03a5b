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
  /** The process checking it (slot-owner.ts); null for rows older than migration 0188. */
  owner: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Every block ever imposed (kept until purged): the current one and the escalation history. */
export interface ProtectBlocksTable {
  id: Generated<number>;
  key: string;
  at: Millis;
  until: Millis;
  /** 1 = ordinary block, 2 = escalated (long) block. */
  level: number;
  /** The client address whose failure started it (the key of an IPv6 client is its /64). */
  address: ColumnType<string, string | undefined, string>;
  /** Failures within the window that caused it. */
  failures: ColumnType<number | string | bigint, number | undefined, number>;
  /** The first of those failures. */
  first_at: ColumnType<number | string | bigint | null, number | null | undefined, number | null>;
  /** Set when someone lifted it before `until`: no longer in force, whatever `until` says. */
  lifted_at: ColumnType<number | string | bigint | null, number | null | undefined, number | null>;
  /** Who lifted it: `rest:<login>`, `cli`, `link:<login>`. */
  lifted_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * Audit log: failed logins ('failure'), blocked login attempts ('blocked'), login-form attempts
 * refused for an unsolved challenge ('challenge', not counted towards a block), the start of each
 * block ('lockout') and its lifting ('unblock', `login` = who lifted it). Never a password.
 */
export interface ProtectEventsTable {
  id: Generated<number>;
  at: Millis;
  address: string;
  login: string;
  kind: string;
  /** The counter key (null for rows older than migration 0160). */
  key: ColumnType<string | null, string | null | undefined, string | null>;
  /** What a `failure` got wrong: `code`, `recovery_code`; null is a password (and every failure before migration 0186). */
  failure: ColumnType<string | null, string | null | undefined, string | null>;
}

/** E-mailed unlock links: the SHA-256 of the token, the key it lifts, single use (`used_at`). */
export interface ProtectUnlocksTable {
  hash: string;
  key: string;
  address: string;
  user_id: number;
  created: Millis;
  expires: Millis;
  used_at: ColumnType<number | string | bigint | null, number | null | undefined, number | null>;
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
  protect_unlocks: ProtectUnlocksTable;
}
