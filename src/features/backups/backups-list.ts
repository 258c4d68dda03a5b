/**
 * `GET siteward/v1/backups`: this store's backups in every target, newest first, each with
 * whether it is encrypted and its latest verification — what the admin page's Backups screen shows.
 */
import type { BackupsList } from '../../wire/siteward-v1.js';
import type { BackupSetup } from './backup-setup.js';
import type { BackupTarget } from './backup-target.js';
import { listBackups, type BackupListEntry } from './backups.js';
import { verificationOf, type BackupVerifications } from './backup-verifications.js';

/** Of a bucket, only the newest backups' headers are read (one ranged GET each), to say whether they are encrypted. */
const S3_HEADERS_READ = 10;

/** A bucket's listing (no manifest read), then the newest few headers for their encryption. */
async function bucketEntries(target: BackupTarget, storeId: string): Promise<(BackupListEntry & { encryptedKnown: boolean })[]> {
  const entries = await listBackups(target, storeId, { namesOnly: true });
  const newest = new Set(entries.slice(-S3_HEADERS_READ).map((e) => e.id));
  return Promise.all(
    entries.map(async (e) => {
      if (!newest.has(e.id)) return { ...e, encryptedKnown: false };
      const header = await target.header(storeId, e.id);
      return header?.ok === true
        ? { ...e, time: new Date(header.manifest.time), encrypted: header.manifest.encryption !== undefined, encryptedKnown: true }
        : { ...e, encryptedKnown: false };
    }),
  );
}

/** The answer without `running`, which the route adds (only it knows). */
export type BackupsListBody = Omit<BackupsList, 'running'>;

export async function backupsList(setup: BackupSetup, verifications: BackupVerifications): Promise<BackupsListBody> {
  const storeId = await setup.storeId();
  const targets = await Promise.all(
    setup.targets.map(async (target) => {
      const base = { kind: target.kind, where: target.where };
      try {
        // A bucket: its listing, and the headers of the newest only (a header read per backup would be slow on every view).
        const entries =
          target.kind === 'local'
            ? (await listBackups(target, storeId, { checksums: false })).map((e) => ({ ...e, encryptedKnown: e.status === 'ok' }))
            : await bucketEntries(target, storeId);
        const backups = entries.reverse().map((e) => {
          const verified = verificationOf(verifications, { ...base, id: e.id });
          return {
            id: e.id,
            time: Math.floor(e.time.getTime() / 1000),
            size: e.size,
            status: e.status,
            problem: e.problem ?? null,
            encrypted: e.encryptedKnown ? e.encrypted : null,
            verification: verified && { time: Math.floor(verified.time / 1000), ok: verified.ok, message: verified.message },
          };
        });
        return { ...base, error: null, backups };
      } catch (error) {
        return { ...base, error: `${target.where} cannot be read: ${(error as Error).message}`, backups: [] };
      }
    }),
  );
  return { store_id: storeId, backend: setup.location.backend, encrypted: setup.key !== null, targets };
}
