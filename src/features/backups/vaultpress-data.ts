/**
 * `GET jetpack/v4/module/vaultpress/data` (docs/spec/jetpack-v4-reference.md §3.24, docs/spec/compat.md §9): the state of
 * Siteward's own backups in the shape the admin client reads (`code`, `message`,
 * `data.security.notice_count`), with the last backup's time, status and size.
 */
import type { BackupSchedule } from './backup-schedule.js';
import { humanTimeDiff } from '../../core/human-time-diff.js';
import type { BackupSetup } from './backup-setup.js';
import type { AnyTarget, TargetKind } from './backup-target.js';
import { listBackups, type BackupListEntry } from './backups.js';
import { nextDue, type ScheduledRun } from './scheduled-backup.js';
import type { VerificationRun } from './scheduled-verification.js';

export const vaultpressMessages = {
  notConfigured: 'Backups are not set up on this site: set SITEWARD_BACKUP_DIR or SITEWARD_BACKUP_S3_URL to turn them on.',
  soon: 'VaultPress is active and will back up your site soon.',
  // With the schedule off nothing will back the site up by itself: the reference's "soon" would be a false promise.
  scheduleOff: 'No backup yet, and automatic backups are off (SITEWARD_BACKUP_SCHEDULE=off): run `siteward backup now` to take one.',
  done: (ago: string) => `Your site was successfully backed-up ${ago} ago.`,
  failed: (ago: string, why: string) => `The last backup failed ${ago} ago: ${why}`,
} as const;

export interface TargetData {
  readonly kind: TargetKind;
  /** The directory or `s3://bucket/prefix`. */
  readonly where: string;
  /** `ok`: holds the newest backup; `failed`: the last run could not put its backup here (or the target cannot be read); `none`: no backup yet. */
  readonly status: 'ok' | 'failed' | 'none';
  readonly count: number;
  readonly last_backup: number | null;
  readonly id: string | null;
  readonly size: number | null;
  readonly last_failure: { readonly time: number; readonly message: string } | null;
  /** The last scheduled verification of this target. */
  readonly verification: { readonly time: number; readonly ok: boolean; readonly id: string | null; readonly message: string } | null;
}

export interface BackupsData {
  readonly backups: {
    /** Unix seconds of the newest good backup, null before the first. */
    readonly last_backup: number | null;
    /** `ok`: the newest attempt worked everywhere; `failed`: the last run failed (in any target) after it; `none`: no backup yet. */
    readonly status: 'ok' | 'failed' | 'none';
    /** Bytes of the newest good backup. */
    readonly size: number | null;
    readonly id: string | null;
    /** Good backups kept (in the first target). */
    readonly count: number;
    /** Unix seconds of the next scheduled run, null when the schedule is off. */
    readonly next_backup: number | null;
    readonly last_failure: { readonly time: number; readonly message: string } | null;
    /** The store these backups belong to (issue 20: stores sharing a target see only their own). */
    readonly store_id: string;
    readonly backend: 'sqlite' | 'postgres';
    readonly encrypted: boolean;
    readonly targets: readonly TargetData[];
    /** The last scheduled verification (all targets), null before the first. */
    readonly verification: { readonly time: number; readonly ok: boolean } | null;
    /** Unix seconds of the next verification, null when its schedule is off. */
    readonly next_verification: number | null;
  };
  readonly security: { readonly notice_count: 0 };
}

export type VaultpressBody =
  | { readonly code: 'not_registered'; readonly message: string }
  | { readonly code: 'success'; readonly message: string; readonly data: BackupsData };

export interface VaultpressInputs {
  readonly setup: BackupSetup;
  readonly schedule: BackupSchedule;
  readonly verifySchedule: BackupSchedule;
  readonly lastRun: ScheduledRun | null;
  readonly lastVerification: VerificationRun | null;
  readonly now: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

interface Failure {
  time: number;
  message: string;
}

async function targetData(
  target: AnyTarget,
  storeId: string,
  lastRun: ScheduledRun | null,
  verification: VerificationRun | null,
): Promise<TargetData> {
  let good: BackupListEntry[] = [];
  let unreadable: Failure | null = null;
  try {
    // A directory: framing only (a checksum pass over every file on each view would read
    // gigabytes); a bucket: the listing only (three requests per backup would be slow).
    good = (await listBackups(target, storeId, target.kind === 'local' ? { checksums: false } : { namesOnly: true })).filter(
      (e) => e.status === 'ok',
    );
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    unreadable = { time: lastRun?.time ?? 0, message: `${target.where} cannot be read (${e.code ?? e.message})` };
  }
  const newest = good.at(-1) ?? null;
  const copy = lastRun?.copies.find((c) => c.kind === target.kind && c.where === target.where);
  // The run's own backup has the run's time: a failure at that time still counts (the copy is missing here).
  const missed: Failure | null =
    lastRun !== null && !lastRun.ok && (copy === undefined || !copy.ok) && (newest === null || lastRun.time >= newest.time.getTime())
      ? { time: lastRun.time, message: copy !== undefined && !copy.ok ? `${copy.message} (${copy.attempts} attempts)` : lastRun.message }
      : null;
  const failure = missed ?? unreadable;
  const checked = verification?.targets.find((t) => t.kind === target.kind && t.where === target.where);
  return {
    kind: target.kind,
    where: target.where,
    status: failure !== null ? 'failed' : newest !== null ? 'ok' : 'none',
    count: good.length,
    last_backup: newest && seconds(newest.time.getTime()),
    id: newest?.id ?? null,
    size: newest?.size ?? null,
    last_failure: failure && { time: seconds(failure.time), message: failure.message },
    verification:
      verification && checked ? { time: seconds(verification.time), ok: checked.ok, id: checked.id, message: checked.message } : null,
  };
}

/** The answer while no backup target is configured, whether or not the module is in the active list. */
export function vaultpressNotRegistered(): VaultpressBody {
  return { code: 'not_registered', message: vaultpressMessages.notConfigured };
}

/** Why the `vaultpress` module is unavailable without a target (its record's `unavailable_reason`). */
export const backupsServiceGap: { readonly message: string; readonly settings: readonly string[] } = {
  message:
    'It needs a place to keep backups, and none is set: set SITEWARD_BACKUP_DIR (a directory) or SITEWARD_BACKUP_S3_URL (a bucket), then restart Siteward.',
  settings: ['SITEWARD_BACKUP_DIR', 'SITEWARD_BACKUP_S3_URL'],
};

export async function vaultpressData(inputs: VaultpressInputs): Promise<VaultpressBody> {
  const { setup, lastRun, now } = inputs;
  if (setup.targets.length === 0) return vaultpressNotRegistered();
  const storeId = await setup.storeId();
  const targets = await Promise.all(setup.targets.map((t) => targetData(t, storeId, lastRun, inputs.lastVerification)));
  // The newest good backup anywhere; a run that failed in any target at or after it is the state.
  const newest = targets.filter((t) => t.last_backup !== null).sort((a, b) => (b.id ?? '').localeCompare(a.id ?? ''))[0] ?? null;
  const failedTarget = targets.find((t) => t.status === 'failed') ?? null;
  const runFailed =
    lastRun !== null && !lastRun.ok && (newest?.last_backup == null || seconds(lastRun.time) >= newest.last_backup) ? lastRun : null;
  const failure = runFailed ? { time: seconds(runFailed.time), message: runFailed.message } : (failedTarget?.last_failure ?? null);
  const due = nextDue(inputs.schedule, lastRun);
  const verifyDue = nextDue(inputs.verifySchedule, inputs.lastVerification);
  const data: BackupsData = {
    backups: {
      last_backup: newest?.last_backup ?? null,
      status: failure !== null ? 'failed' : newest !== null ? 'ok' : 'none',
      size: newest?.size ?? null,
      id: newest?.id ?? null,
      count: targets[0].count,
      next_backup: due === null ? null : seconds(Math.max(due, now)),
      last_failure: failure,
      store_id: storeId,
      backend: setup.location.backend,
      encrypted: setup.key !== null,
      targets,
      verification: inputs.lastVerification && { time: seconds(inputs.lastVerification.time), ok: inputs.lastVerification.ok },
      next_verification: verifyDue === null ? null : seconds(Math.max(verifyDue, now)),
    },
    security: { notice_count: 0 },
  };
  const ago = (s: number) => humanTimeDiff(s, seconds(now));
  if (failure !== null) return { code: 'success', message: vaultpressMessages.failed(ago(failure.time), failure.message), data };
  if (newest?.last_backup == null)
    return { code: 'success', message: due === null ? vaultpressMessages.scheduleOff : vaultpressMessages.soon, data };
  return { code: 'success', message: vaultpressMessages.done(ago(newest.last_backup)), data };
}
