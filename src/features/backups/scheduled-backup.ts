/**
 * The scheduled backup: a job (run by the one process holding the job lease) that takes a
 * backup when the schedule says one is due, then applies retention. The outcome of the last
 * scheduled run is kept in a status row, never in options (writing options would throw every
 * process's option cache away), so `module/vaultpress/data` can report a failure.
 */
import type { JsonValue } from '../../core/json.js';
import { nextRunAfter, type BackupSchedule } from '../../core/backup-schedule.js';
import type { BackgroundJob } from '../../jobs/job-runner.js';
import type { Logger } from '../../plugins/api.js';
import type { StatusRepo } from '../../store/types.js';
import { applyRetention, type RetentionPolicy } from './backup-retention.js';
import { createBackup } from './backups.js';
import type { StoreLocation } from './store-location.js';

/** The status row of the last scheduled run. */
export const LAST_RUN_KEY = 'backups.last-scheduled-run';

/** A failed run is tried again after at most this long, not only at the next slot (a day later by default). */
const RETRY_AFTER_FAILURE_MS = 3_600_000;

/** How often the job looks at the schedule: the finest schedule is one minute. */
const CHECK_EVERY_MS = 60_000;

export type ScheduledRun =
  | { readonly ok: true; readonly time: number; readonly id: string; readonly size: number; readonly deleted: readonly string[] }
  | { readonly ok: false; readonly time: number; readonly message: string };

function parseRun(value: JsonValue | undefined): ScheduledRun | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { ok, time, id, size, message, deleted } = value;
  if (typeof time !== 'number') return null;
  if (ok === true && typeof id === 'string' && typeof size === 'number') {
    return { ok, time, id, size, deleted: Array.isArray(deleted) ? deleted.filter((d): d is string => typeof d === 'string') : [] };
  }
  if (ok === false && typeof message === 'string') return { ok, time, message };
  return null;
}

export async function readLastRun(status: StatusRepo): Promise<ScheduledRun | null> {
  return parseRun((await status.get(LAST_RUN_KEY))?.value);
}

/** When the next scheduled backup is due: at once when none ran yet, sooner after a failure; null when off. */
export function nextDue(schedule: BackupSchedule, last: ScheduledRun | null): number | null {
  if (schedule.kind === 'off') return null;
  if (last === null) return 0;
  const slot = nextRunAfter(schedule, new Date(last.time))?.getTime() ?? null;
  if (slot === null || last.ok) return slot;
  return Math.min(slot, last.time + RETRY_AFTER_FAILURE_MS);
}

export interface ScheduledBackupDeps {
  readonly dir: string;
  readonly location: StoreLocation;
  readonly schedule: BackupSchedule;
  readonly retention: RetentionPolicy;
  readonly status: StatusRepo;
  readonly log: Logger;
  readonly clock: () => number;
}

/** One scheduled run: the backup, then retention; the outcome is stored and logged either way. */
export async function runScheduledBackup(deps: ScheduledBackupDeps): Promise<ScheduledRun> {
  const now = deps.clock();
  const created = await createBackup(deps.dir, deps.location, new Date(now));
  let run: ScheduledRun;
  if (created.ok) {
    // Retention only after a good backup: a failing schedule must never eat the last good ones.
    let deleted: readonly string[] = [];
    try {
      deleted = (await applyRetention(deps.dir, deps.retention, new Date(now))).deleted;
    } catch (error) {
      deps.log.error({ err: error, dir: deps.dir }, 'removing expired backups failed');
    }
    run = { ok: true, time: now, id: created.id, size: created.size, deleted };
    deps.log.info({ backup: created.id, size: created.size, deleted }, 'scheduled backup done');
  } else {
    run = { ok: false, time: now, message: created.error.message };
    deps.log.error({ dir: deps.dir, problem: created.error.message }, 'scheduled backup failed');
  }
  await deps.status.set(LAST_RUN_KEY, { ...run, deleted: run.ok ? [...run.deleted] : [] }, now);
  return run;
}

export function scheduledBackupJob(deps: ScheduledBackupDeps): BackgroundJob {
  return {
    name: 'scheduled-backup',
    everyMs: CHECK_EVERY_MS,
    run: async () => {
      const due = nextDue(deps.schedule, await readLastRun(deps.status));
      if (due !== null && due <= deps.clock()) await runScheduledBackup(deps);
    },
  };
}
