/**
 * The scheduled backup: a job (run by the one process holding the job lease) that takes a
 * backup when the schedule says one is due, then applies retention to each target that holds
 * it. The outcome of the last scheduled run is kept in a status row, never in options (writing
 * options would throw every process's option cache away), so `module/vaultpress/data` can
 * report a failure — an off-site copy that failed included.
 */
import type { JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/objects.js';
import { nextRunAfter, type BackupSchedule } from './backup-schedule.js';
import type { BackgroundJob } from '../../jobs/job-runner.js';
import type { Logger } from '../../plugins/api.js';
import type { StatusRepo } from '../../store/types.js';
import { applyRetention } from './backup-retention.js';
import type { BackupSetup } from './backup-setup.js';
import { createBackup, type TargetCopy } from './backups.js';
import type { AuditLogRepo } from '../../store/types.js';
import type { AuditCheckpoint } from '../../wire/audit.js';
import { auditEvent, jobSource, type AuditSource } from '../audit/index.js';

/** The status row of the last scheduled run. */
export const LAST_RUN_KEY = 'backups.last-scheduled-run';

/** A failed run is tried again after at most this long, not only at the next slot (a day later by default). */
const RETRY_AFTER_FAILURE_MS = 3_600_000;

/** How often the job looks at the schedule: the finest schedule is one minute. */
const CHECK_EVERY_MS = 60_000;

export type ScheduledRun =
  | {
      readonly ok: true;
      readonly time: number;
      readonly id: string;
      readonly size: number;
      readonly deleted: readonly string[];
      readonly copies: readonly TargetCopy[];
    }
  | { readonly ok: false; readonly time: number; readonly message: string; readonly copies: readonly TargetCopy[] };

function parseCopies(value: unknown): TargetCopy[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).flatMap((c): TargetCopy[] => {
    const { kind, where, ok, attempts, message } = c;
    if ((kind !== 'local' && kind !== 's3') || typeof where !== 'string' || typeof attempts !== 'number') return [];
    if (ok === true) return [{ kind, where, ok, attempts }];
    if (ok === false && typeof message === 'string') return [{ kind, where, ok, attempts, message }];
    return [];
  });
}

function parseRun(value: JsonValue | undefined): ScheduledRun | null {
  if (!isPlainObject(value)) return null;
  const { ok, time, id, size, message, deleted } = value;
  if (typeof time !== 'number') return null;
  const copies = parseCopies(value.copies);
  if (ok === true && typeof id === 'string' && typeof size === 'number') {
    return { ok, time, id, size, deleted: Array.isArray(deleted) ? deleted.filter((d): d is string => typeof d === 'string') : [], copies };
  }
  if (ok === false && typeof message === 'string') return { ok, time, message, copies };
  return null;
}

export async function readLastRun(status: StatusRepo): Promise<ScheduledRun | null> {
  return parseRun((await status.get(LAST_RUN_KEY))?.value);
}

/** When the next run is due: at once when none ran yet, sooner after a failure; null when off. */
export function nextDue(schedule: BackupSchedule, last: { readonly ok: boolean; readonly time: number } | null): number | null {
  if (schedule.kind === 'off') return null;
  if (last === null) return 0;
  const slot = nextRunAfter(schedule, new Date(last.time))?.getTime() ?? null;
  if (slot === null || last.ok) return slot;
  return Math.min(slot, last.time + RETRY_AFTER_FAILURE_MS);
}

export interface ScheduledBackupDeps {
  readonly setup: BackupSetup;
  readonly schedule: BackupSchedule;
  readonly status: StatusRepo;
  readonly log: Logger;
  readonly clock: () => number;
  /** Where `backup.created` / `backup.pruned` / `backup.failed` are recorded (docs/audit-log.md); absent: nowhere. */
  readonly auditLog?: Pick<AuditLogRepo, 'append'>;
  /** Signs the audit log's head for each backup's manifest (docs/audit-log.md); absent: none. */
  readonly auditCheckpoint?: () => Promise<AuditCheckpoint>;
}

/** One backup (scheduled or asked for), then retention per target; the outcome is stored and logged either way. */
export async function runBackup(
  deps: Omit<ScheduledBackupDeps, 'schedule'>,
  source: AuditSource = jobSource('scheduled-backup'),
): Promise<ScheduledRun> {
  const { setup } = deps;
  const now = deps.clock();
  let run: ScheduledRun;
  let storeId: string;
  try {
    storeId = await setup.storeId();
  } catch (error) {
    run = { ok: false, time: now, message: `backup failed: ${(error as Error).message}`, copies: [] };
    await deps.status.set(LAST_RUN_KEY, JSON.parse(JSON.stringify(run)) as JsonValue, now);
    await recordRun(deps, source, run);
    return run;
  }
  const created = await createBackup(setup.location, new Date(now), {
    targets: setup.targets,
    storeId,
    key: setup.key,
    retry: setup.retry,
    ...(deps.auditCheckpoint ? { auditCheckpoint: deps.auditCheckpoint } : {}),
  });
  if (created.ok) {
    // Retention only after a good backup, and only where it landed: a failing schedule must never eat the last good ones.
    const deleted: string[] = [];
    for (const target of setup.targets) {
      try {
        deleted.push(...(await applyRetention(target, storeId, setup.retention, new Date(now))).deleted);
      } catch (error) {
        deps.log.error({ err: error, target: target.where }, 'removing expired backups failed');
      }
    }
    run = { ok: true, time: now, id: created.id, size: created.size, deleted, copies: created.copies };
    deps.log.info({ backup: created.id, size: created.size, deleted }, 'backup done');
  } else {
    run = { ok: false, time: now, message: created.error.message, copies: created.copies };
    deps.log.error({ targets: setup.targets.map((t) => t.where), problem: created.error.message }, 'backup failed');
  }
  await deps.status.set(LAST_RUN_KEY, JSON.parse(JSON.stringify(run)) as JsonValue, now);
  await recordRun(deps, source, run);
  return run;
}

/** The run in the audit log: a backup is files, not a store change, so its events follow it in a transaction of their own. */
async function recordRun(deps: Omit<ScheduledBackupDeps, 'schedule'>, source: AuditSource, run: ScheduledRun): Promise<void> {
  if (!deps.auditLog) return;
  const backup = (id: string) => ({ type: 'backup', id, name: id });
  const events = run.ok
    ? [
        auditEvent(source, 'backup.created', backup(run.id), { size: { before: null, after: run.size } }),
        ...run.deleted.map((id) => auditEvent(source, 'backup.pruned', backup(id), { backup: { before: id, after: null } })),
      ]
    : [auditEvent(source, 'backup.failed', null, { error: { before: null, after: run.message } }, 'failed')];
  try {
    await deps.auditLog.append(events);
  } catch (error) {
    deps.log.error({ err: error }, 'could not record the backup in the audit log');
  }
}

export function scheduledBackupJob(deps: ScheduledBackupDeps): BackgroundJob {
  return {
    name: 'scheduled-backup',
    everyMs: CHECK_EVERY_MS,
    run: async () => {
      const due = nextDue(deps.schedule, await readLastRun(deps.status));
      if (due !== null && due <= deps.clock()) await runBackup(deps);
    },
  };
}
