/**
 * `GET siteward/v1/backups`: this store's backups in every target, newest first, with the last
 * verification — what the admin page's Backups screen shows.
 */
import type { BackupsList } from '../../wire/siteward-v1.js';
import type { BackupSetup } from './backup-setup.js';
import { listBackups } from './backups.js';
import type { VerificationRun } from './scheduled-verification.js';

/** The answer without `running`, which the route adds (only it knows). */
export type BackupsListBody = Omit<BackupsList, 'running'>;

export async function backupsList(setup: BackupSetup, verification: VerificationRun | null): Promise<BackupsListBody> {
  const storeId = await setup.storeId();
  const targets = await Promise.all(
    setup.targets.map(async (target) => {
      const base = { kind: target.kind, where: target.where };
      try {
        // A bucket: its listing only (a header read per backup would be slow on every view).
        const entries = await listBackups(target, storeId, target.kind === 'local' ? { checksums: false } : { namesOnly: true });
        const checked = verification?.targets.find((t) => t.kind === target.kind && t.where === target.where);
        const backups = entries.reverse().map((e) => ({
          id: e.id,
          time: Math.floor(e.time.getTime() / 1000),
          size: e.size,
          status: e.status,
          problem: e.problem ?? null,
          verification:
            verification !== null && checked !== undefined && checked.id === e.id
              ? { time: Math.floor(verification.time / 1000), ok: checked.ok, message: checked.message }
              : null,
        }));
        return { ...base, error: null, backups };
      } catch (error) {
        return { ...base, error: `${target.where} cannot be read: ${(error as Error).message}`, backups: [] };
      }
    }),
  );
  return { store_id: storeId, backend: setup.location.backend, encrypted: setup.key !== null, targets };
}
