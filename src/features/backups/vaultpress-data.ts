/**
 * `GET jetpack/v4/module/vaultpress/data` (docs/spec/jetpack-v4-reference.md §3.24, docs/spec/compat.md §9): the state of
 * Siteward's own backups in the shape the admin client reads (`code`, `message`,
 * `data.security.notice_count`), with the last backup's time, status and size.
 */
import type { BackupSchedule } from '../../core/backup-schedule.js';
import { humanTimeDiff } from '../monitor/human-time-diff.js';
import { listBackups, type BackupListEntry } from './backups.js';
import { nextDue, type ScheduledRun } from './scheduled-backup.js';

export const vaultpressMessages = {
  notConfigured: 'Backups are not set up on this site: set SITEWARD_BACKUP_DIR to turn them on.',
  soon: 'VaultPress is active and will back up your site soon.',
  // With the schedule off nothing will back the site up by itself: the reference's "soon" would be a false promise.
  scheduleOff: 'No backup yet, and automatic backups are off (SITEWARD_BACKUP_SCHEDULE=off): run `siteward backup now` to take one.',
  done: (ago: string) => `Your site was successfully backed-up ${ago} ago.`,
  failed: (ago: string, why: string) => `The last scheduled backup failed ${ago} ago: ${why}`,
} as const;

export interface BackupsData {
  readonly backups: {
    /** Unix seconds of the newest good backup, null before the first. */
    readonly last_backup: number | null;
    /** `ok`: the newest attempt worked; `failed`: the last scheduled run failed after it; `none`: no backup yet. */
    readonly status: 'ok' | 'failed' | 'none';
    /** Bytes of the newest good backup. */
    readonly size: number | null;
    readonly id: string | null;
    /** Good backups kept. */
    readonly count: number;
    /** Unix seconds of the next scheduled run, null when the schedule is off. */
    readonly next_backup: number | null;
    readonly last_failure: { readonly time: number; readonly message: string } | null;
  };
  readonly security: { readonly notice_count: 0 };
}

export type VaultpressBody =
  | { readonly code: 'not_registered'; readonly message: string }
  | { readonly code: 'success'; readonly message: string; readonly data: BackupsData };

export interface VaultpressInputs {
  readonly dir: string | null;
  readonly schedule: BackupSchedule;
  readonly lastRun: ScheduledRun | null;
  readonly now: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export async function vaultpressData(inputs: VaultpressInputs): Promise<VaultpressBody> {
  const { dir, lastRun, now } = inputs;
  if (dir === null) return { code: 'not_registered', message: vaultpressMessages.notConfigured };
  let good: BackupListEntry[] = [];
  let unreadable: { time: number; message: string } | null = null;
  try {
    // Framing only: a checksum pass over every file on each dashboard view would read gigabytes.
    good = (await listBackups(dir, { checksums: false })).filter((entry) => entry.status === 'ok');
  } catch (error) {
    unreadable = { time: now, message: `the backup directory ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  const newest = good.at(-1) ?? null;
  const failed = lastRun !== null && !lastRun.ok && (newest === null || lastRun.time > newest.time.getTime()) ? lastRun : null;
  const failure = failed ?? unreadable;
  const due = nextDue(inputs.schedule, lastRun);
  const data: BackupsData = {
    backups: {
      last_backup: newest && seconds(newest.time.getTime()),
      status: failure !== null ? 'failed' : newest !== null ? 'ok' : 'none',
      size: newest?.size ?? null,
      id: newest?.id ?? null,
      count: good.length,
      next_backup: due === null ? null : seconds(Math.max(due, now)),
      last_failure: failure && { time: seconds(failure.time), message: failure.message },
    },
    security: { notice_count: 0 },
  };
  const ago = (ms: number) => humanTimeDiff(seconds(ms), seconds(now));
  if (failure !== null) return { code: 'success', message: vaultpressMessages.failed(ago(failure.time), failure.message), data };
  if (newest === null) return { code: 'success', message: due === null ? vaultpressMessages.scheduleOff : vaultpressMessages.soon, data };
  return { code: 'success', message: vaultpressMessages.done(ago(newest.time.getTime())), data };
}
