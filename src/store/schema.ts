import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are milliseconds since the epoch in BIGINT columns;
 * node-postgres returns BIGINT as a string, so selected values are narrowed by `db-values.ts`.
 */
type Millis = ColumnType<number | string | bigint, number, number>;
type NullableMillis = ColumnType<number | string | bigint | null, number | null, number | null>;

export interface OptionsTable {
  name: string;
  /** JSON text. */
  value: string;
  /** 1 or 0 (an integer, so both dialects read the same type). */
  autoload: number;
}

export interface StateVersionTable {
  id: number;
  v: ColumnType<number | string | bigint, number, number>;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  pass_hash: string;
  registered: Millis;
}

export interface UserMetaTable {
  user_id: number;
  key: string;
  /** JSON text. */
  value: string;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  expires_at: Millis;
  user_agent: string;
  ip: string;
  created: Millis;
}

export interface AppPasswordsTable {
  uuid: string;
  user_id: number;
  name: string;
  hash: string;
  created: Millis;
  last_used: NullableMillis;
  app_id: ColumnType<string, string | undefined, string>;
  last_ip: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which process holds a named lease (background jobs), and until when. Never cached. */
export interface LeasesTable {
  name: string;
  holder: string;
  until: Millis;
}

/** Fast-changing status rows (key → JSON), outside the cached and versioned options. */
export interface StatusValuesTable {
  key: string;
  /** JSON text. */
  value: string;
  updated: Millis;
}

/** One audit event (docs/audit-log.md); `data` is its canonical JSON, `hash` the chain's. */
export interface AuditLogTable {
  id: Millis;
  time: Millis;
  action: string;
  result: string;
  actor_user_id: number;
  object_type: string;
  object_id: string;
  data: string;
  hash: string;
}

/** The chain's head: row 1, locked by every append. */
export interface AuditHeadTable {
  id: number;
  last_id: Millis;
  hash: string;
  count: Millis;
}

export interface AuditCheckpointsTable {
  last_id: Millis;
  head_hash: string;
  count: Millis;
  time: Millis;
  signature: string;
}

export interface AuditFailedLoginsTable {
  address: string;
  login: string;
  window_start: Millis;
  count: Millis;
  first_time: Millis;
  last_time: Millis;
}

export interface Database {
  options: OptionsTable;
  state_version: StateVersionTable;
  users: UsersTable;
  user_meta: UserMetaTable;
  sessions: SessionsTable;
  app_passwords: AppPasswordsTable;
  leases: LeasesTable;
  status_values: StatusValuesTable;
  audit_log: AuditLogTable;
  audit_head: AuditHeadTable;
  audit_checkpoints: AuditCheckpointsTable;
  audit_failed_logins: AuditFailedLoginsTable;
}
