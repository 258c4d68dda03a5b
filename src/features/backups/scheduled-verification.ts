/**
 * Scheduled verification (restic's `check --read-data`, pgBackRest's verify, done by restoring):
 * on its schedule (default weekly) the newest backup of each target is fetched, its checksum
 * checked, restored into a temporary store and compared with its manifest (integrity, tables,
 * row counts, migrations), and an administrator's login is tried on the restored store. The
 * result per target goes into a status row that `module/vaultpress/data`, the admin page and
 * `backup list` show.
 */
import { randomBytes } from 'node:crypto';
import type { BackupSchedule } from './backup-schedule.js';
import type { JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/objects.js';
import type { BackgroundJob } from '../../jobs/job-runner.js';
import type { Logger } from '../../plugins/api.js';
import { openStore } from '../../store/index.js';
import type { StatusRepo } from '../../store/types.js';
import type { BackupSetup } from './backup-setup.js';
import type { TargetKind } from './backup-target.js';
import { listBackups, verifyBackup, type TrialCheck } from './backups.js';
import { recordVerification } from './backup-verifications.js';
import { nextDue } from './scheduled-backup.js';
import type { FeatureMigrations } from './postgres-restore.js';

export const LAST_VERIFICATION_KEY = 'backups.last-verification';

export interface TargetVerification {
  readonly kind: TargetKind;
  readonly where: string;
  readonly ok: boolean;
  /** The backup verified; null when the target had none. */
  readonly id: string | null;
  readonly message: string;
}

export interface VerificationRun {
  readonly time: number;
  readonly ok: boolean;
  readonly targets: readonly TargetVerification[];
}

export async function readLastVerification(status: StatusRepo): Promise<VerificationRun | null> {
  const value = (await status.get(LAST_VERIFICATION_KEY))?.value;
  if (!isPlainObject(value) || typeof value.time !== 'number' || typeof value.ok !== 'boolean' || !Array.isArray(value.targets))
    return null;
  const targets = (value.targets as unknown[]).filter(isPlainObject).flatMap((t): TargetVerification[] => {
    const { kind, where, ok, id, message } = t;
    if ((kind !== 'local' && kind !== 's3') || typeof where !== 'string' || typeof ok !== 'boolean' || typeof message !== 'string')
      return [];
    return [{ kind, where, ok, id: typeof id === 'string' ? id : null, message }];
  });
  return { time: value.time, ok: value.ok, targets };
}

/**
 * "A login works": the restored store opens with this Siteward's code (pending migrations
 * applied, as a server would), has an administrator, and takes and finds a login session for
 * them. Passwords are not known here, so the session is what is tried.
 */
export function loginCheck(migrations: FeatureMigrations): TrialCheck {
  return async (location) => {
    const store = await openStore(
      location.backend === 'sqlite'
        ? { dataDir: location.dataDir, migrations }
        : { databaseUrl: location.url, schema: location.schema, dataDir: location.dataDir ?? '', migrations },
    );
    try {
      const users = await store.users.list();
      // A site before /setup has nobody to log in: nothing a backup could have lost.
      if (users.length === 0) return { ok: true };
      let adminId: number | null = null;
      for (const user of users) {
        if ((await store.users.roles(user.id)).includes('administrator')) {
          adminId = user.id;
          break;
        }
      }
      if (adminId === null) return { ok: false, reason: 'the restored store has no administrator who could log in' };
      const tokenHash = `verify-${randomBytes(16).toString('hex')}`;
      const now = Date.now();
      await store.sessions.create({
        tokenHash,
        userId: adminId,
        expiresAt: now + 60_000,
        userAgent: 'siteward-backup-verify',
        ip: '127.0.0.1',
        created: now,
      });
      const found = await store.sessions.find(tokenHash);
      await store.sessions.destroy(tokenHash);
      return found?.userId === adminId ? { ok: true } : { ok: false, reason: 'a login session could not be stored and read back' };
    } finally {
      await store.close();
    }
  };
}

/** Verifies the newest backup of each target; stores and returns the result. */
export async function runVerification(setup: BackupSetup, status: StatusRepo, log: Logger, now: number): Promise<VerificationRun> {
  const storeId = await setup.storeId();
  const postgresUrl = setup.location.backend === 'postgres' ? setup.location.url : undefined;
  const targets: TargetVerification[] = [];
  for (const target of setup.targets) {
    const base = { kind: target.kind, where: target.where };
    try {
      const newest = (await listBackups(target, storeId, { checksums: false })).filter((e) => e.status === 'ok').at(-1);
      if (newest === undefined) {
        targets.push({ ...base, ok: false, id: null, message: 'no backup to verify' });
        continue;
      }
      const verified = await verifyBackup(
        { target, storeId, id: newest.id },
        { postgresUrl, migrations: setup.migrations, key: setup.key, check: loginCheck(setup.migrations) },
      );
      const result = verified.ok
        ? { ok: true, message: 'restored into a temporary store: integrity, row counts and an administrator login checked' }
        : { ok: false, message: verified.error.message };
      targets.push({ ...base, id: newest.id, ...result });
      await recordVerification(status, { ...base, id: newest.id }, { time: now, by: 'schedule', ...result });
    } catch (error) {
      targets.push({ ...base, ok: false, id: null, message: `verification failed: ${(error as Error).message}` });
    }
  }
  const run: VerificationRun = { time: now, ok: targets.length > 0 && targets.every((t) => t.ok), targets };
  await status.set(LAST_VERIFICATION_KEY, JSON.parse(JSON.stringify(run)) as JsonValue, now);
  if (run.ok) log.info({ targets: targets.map((t) => `${t.where}: ${t.id ?? ''}`) }, 'backup verification passed');
  else log.error({ targets: targets.filter((t) => !t.ok).map((t) => `${t.where}: ${t.message}`) }, 'backup verification failed');
  return run;
}

export function scheduledVerificationJob(deps: {
  setup: BackupSetup;
  schedule: BackupSchedule;
  status: StatusRepo;
  log: Logger;
  clock: () => number;
}): BackgroundJob {
  return {
    name: 'backup-verification',
    everyMs: 60_000,
    run: async () => {
      const last = await readLastVerification(deps.status);
      const due = nextDue(deps.schedule, last);
      if (due === null || due > deps.clock()) return;
      // Nothing to verify before the first backup: wait for one rather than record a failure.
      const storeId = await deps.setup.storeId();
      let any = false;
      for (const target of deps.setup.targets) if ((await target.list(storeId)).length > 0) any = true;
      if (any) await runVerification(deps.setup, deps.status, deps.log, deps.clock());
    },
  };
}
