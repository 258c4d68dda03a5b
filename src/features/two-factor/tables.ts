import type { ColumnType } from 'kysely';

/** Milliseconds since the epoch (and TOTP time steps) in BIGINT columns; node-postgres returns strings. */
type Big = ColumnType<number | string | bigint, number, number>;
type MaybeBig = ColumnType<number | string | bigint | null, number | null, number | null>;

/**
 * One row per user who started enrolling. `secret`: the TOTP secret sealed with a key derived
 * from the master secret (AES-256-GCM, the user id as associated data); `enabled` once a first
 * code confirmed it; `last_step`: the last TOTP time step accepted, so a code is never taken twice.
 */
export interface TwoFactorUsersTable {
  user_id: number;
  secret: string;
  enabled: number;
  last_step: Big;
  created: Big;
}

/** The recovery codes: an HMAC of each (never the code), used once (`used_at`). */
export interface TwoFactorRecoveryTable {
  user_id: number;
  hash: string;
  used_at: MaybeBig;
}

export interface TwoFactorTables {
  two_factor_users: TwoFactorUsersTable;
  two_factor_recovery: TwoFactorRecoveryTable;
}
