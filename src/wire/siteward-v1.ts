/**
 * Shapes of Siteward's own `siteward/v1` answers the admin page reads. Types only, shared by the
 * server that builds them and the page that reads them (test/layers.test.ts checks there is no code).
 */

/** GET siteward/v1/protect/history */
export interface ProtectHistory {
  days: number;
  timezone: string;
  total: number;
  history: { date: string; count: number }[];
}

/** One down interval: ISO times (`end` null while still down), duration in seconds. */
export interface DownInterval {
  start: string;
  end: string | null;
  duration: number;
  reason: string;
}

/** GET siteward/v1/monitor/history */
export interface MonitorHistory {
  days: number;
  intervals: DownInterval[];
}

export type BackupTargetKind = 'local' | 's3';

/** One backup of GET siteward/v1/backups. */
export interface BackupEntry {
  readonly id: string;
  /** Unix seconds. */
  readonly time: number;
  readonly size: number;
  readonly status: 'ok' | 'corrupt';
  readonly problem: string | null;
  readonly verification: { readonly time: number; readonly ok: boolean; readonly message: string } | null;
}

/** One target of GET siteward/v1/backups. */
export interface BackupTargetList {
  readonly kind: BackupTargetKind;
  readonly where: string;
  /** Null when the listing worked; else why it did not. */
  readonly error: string | null;
  readonly backups: readonly BackupEntry[];
}

/** GET siteward/v1/backups */
export interface BackupsList {
  readonly store_id: string;
  readonly backend: 'sqlite' | 'postgres';
  readonly encrypted: boolean;
  /** A backup is running now. */
  readonly running: boolean;
  readonly targets: readonly BackupTargetList[];
}
