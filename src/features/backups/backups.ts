import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKUP_SUFFIX, backupFile, checkPayload, ensureBackupDir, readBackupHeader, writeBackupFile } from './backup-file.js';
import { backupIdTime, isBackupId, newBackupId, type BackupBackend, type BackupManifest } from './backup-manifest.js';
import { exportPostgres } from './postgres-export.js';
import { dropSchema, loadIntoNewSchema, resolveSchema, swapSchemas, type FeatureMigrations } from './postgres-restore.js';
import { checkServerRunning, clearRestoredLeases, type ServerCheck } from './server-guard.js';
import { snapshotSqlite, swapSqlite, unpackSqlite, type TrialResult } from './sqlite-backup.js';
import type { StoreLocation } from './store-location.js';

export type BackupErrorCode = 'not_found' | 'corrupt' | 'backend_mismatch' | 'server_running' | 'backup_failed' | 'restore_failed';

export interface BackupError {
  readonly code: BackupErrorCode;
  readonly message: string;
}

export type CreateBackupResult =
  | { readonly ok: true; readonly id: string; readonly file: string; readonly size: number; readonly manifest: BackupManifest }
  | { readonly ok: false; readonly error: BackupError };

/**
 * Takes a consistent snapshot of a live store into `<dir>/<id>.swbak` (see backup-file.ts).
 * SQLite: online backup API into a temp file beside the backups. PostgreSQL: COPY export of
 * every table from one REPEATABLE READ snapshot.
 */
export async function createBackup(dir: string, source: StoreLocation, now: Date): Promise<CreateBackupResult> {
  const id = newBackupId(now);
  const time = now.toISOString();
  try {
    await ensureBackupDir(dir);
    if (source.backend === 'sqlite') {
      const snapshot = join(dir, `.${id}.snapshot.tmp`);
      try {
        const info = await snapshotSqlite(source.dataDir, snapshot);
        const written = await writeBackupFile(dir, id, createReadStream(snapshot), (digest) => ({
          format: 'siteward-backup',
          formatVersion: 1,
          id,
          time,
          backend: 'sqlite',
          schemaVersion: info.schemaVersion,
          tables: info.tables,
          ...digest,
        }));
        return { ok: true, id, ...written };
      } finally {
        await rm(snapshot, { force: true });
      }
    }
    const exported = await exportPostgres(source);
    const written = await writeBackupFile(dir, id, exported.content, (digest) => {
      const { tables, sequences, schemaVersion } = exported.result();
      return { format: 'siteward-backup', formatVersion: 1, id, time, backend: 'postgres', schemaVersion, tables, sequences, ...digest };
    });
    return { ok: true, id, ...written };
  } catch (error) {
    return { ok: false, error: { code: 'backup_failed', message: `backup failed: ${(error as Error).message}` } };
  }
}

export type BackupStatus = 'ok' | 'corrupt';

export interface BackupListEntry {
  readonly id: string;
  /** From the manifest; from the id when the manifest is unreadable. */
  readonly time: Date;
  /** File size in bytes. */
  readonly size: number;
  readonly status: BackupStatus;
  /** Null when the manifest is unreadable. */
  readonly backend: BackupBackend | null;
  /** Why it is corrupt. */
  readonly problem?: string;
}

export interface ListOptions {
  /** Also compare each payload's SHA-256 (reads every file). Default true. */
  readonly checksums?: boolean;
}

/** The backups in `dir`, oldest first (temp files of unfinished backups are not listed). */
export async function listBackups(dir: string, options: ListOptions = {}): Promise<BackupListEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const ids = names
    .filter((n) => n.endsWith(BACKUP_SUFFIX))
    .map((n) => n.slice(0, -BACKUP_SUFFIX.length))
    .filter(isBackupId)
    .sort();
  const entries: BackupListEntry[] = [];
  for (const id of ids) {
    const file = backupFile(dir, id);
    const header = await readBackupHeader(file);
    const fallbackTime = backupIdTime(id) ?? new Date(0);
    if (!header.ok) {
      entries.push({ id, time: fallbackTime, size: header.size, status: 'corrupt', backend: null, problem: header.reason });
      continue;
    }
    const { manifest, size } = header;
    const base = { id, time: new Date(manifest.time), size, backend: manifest.backend };
    if (manifest.id !== id) entries.push({ ...base, status: 'corrupt', problem: 'manifest belongs to another backup' });
    else if (options.checksums !== false && !(await checkPayload(file, manifest))) {
      entries.push({ ...base, status: 'corrupt', problem: 'payload checksum mismatch' });
    } else entries.push({ ...base, status: 'ok' });
  }
  return entries;
}

type Checked = { readonly ok: true; readonly file: string; readonly manifest: BackupManifest } | { readonly ok: false; readonly error: BackupError };

/** Framing and payload checksum; the refusal message names the backup and what is wrong. */
async function checkedBackup(dir: string, id: string): Promise<Checked> {
  if (!isBackupId(id)) return { ok: false, error: { code: 'not_found', message: `"${id}" is not a backup id` } };
  const file = backupFile(dir, id);
  let header;
  try {
    header = await readBackupHeader(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, error: { code: 'not_found', message: `no backup ${id} in ${dir}` } };
    throw error;
  }
  const corrupt = (why: string): Checked => ({ ok: false, error: { code: 'corrupt', message: `backup ${id} is corrupted (${why}); refusing to use it` } });
  if (!header.ok) return corrupt(header.reason);
  if (header.manifest.id !== id) return corrupt('its manifest belongs to another backup');
  if (!(await checkPayload(file, header.manifest))) return corrupt('payload checksum mismatch');
  return { ok: true, file, manifest: header.manifest };
}

export interface VerifyOptions {
  /** Needed for the trial restore of a PostgreSQL backup (into a temporary schema). */
  readonly postgresUrl?: string;
  /** Parent directory of the temporary SQLite file. Default: the OS temp directory. */
  readonly tempDir?: string;
  /** The features' migrations the store was opened with (PostgreSQL rebuilds their tables with them). */
  readonly migrations?: FeatureMigrations;
}

export type VerifyResult =
  | { readonly ok: true; readonly id: string; readonly manifest: BackupManifest; readonly trialRestore: 'passed' | 'skipped' }
  | { readonly ok: false; readonly id: string; readonly error: BackupError };

/**
 * Checks the payload checksum, then restores the backup somewhere temporary and compares it
 * with the manifest: SQLite into a temp file (integrity_check, tables, row counts, migrations);
 * PostgreSQL into a temporary schema (row counts per COPY, content checksum), dropped after.
 * A PostgreSQL backup without `postgresUrl` gets the checksum only (`trialRestore: 'skipped'`).
 */
export async function verifyBackup(dir: string, id: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const checked = await checkedBackup(dir, id);
  if (!checked.ok) return { ok: false, id, error: checked.error };
  const { file, manifest } = checked;
  let trial: TrialResult;
  if (manifest.backend === 'sqlite') {
    const temp = await mkdtemp(join(options.tempDir ?? tmpdir(), 'siteward-verify-'));
    try {
      trial = await unpackSqlite(file, manifest, join(temp, 'verify.db'));
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  } else {
    if (options.postgresUrl === undefined) return { ok: true, id, manifest, trialRestore: 'skipped' };
    const schema = `sw_verify_${randomBytes(6).toString('hex')}`;
    try {
      trial = await loadIntoNewSchema(file, manifest, options.postgresUrl, schema, options.migrations);
    } finally {
      await dropSchema(options.postgresUrl, schema);
    }
  }
  if (!trial.ok) return { ok: false, id, error: { code: 'corrupt', message: `backup ${id} failed its trial restore: ${trial.reason}` } };
  return { ok: true, id, manifest, trialRestore: 'passed' };
}

export interface RestoreOptions {
  /** For the running-server check (lease expiry). */
  readonly now: number;
  /** Keep the replaced database (SQLite file / PostgreSQL schema) under a `before-restore` name. Default true for SQLite, false for PostgreSQL (`public` is always kept). */
  readonly keepPrevious?: boolean;
  /** Skip the running-server check (only for callers that stopped the server themselves). */
  readonly skipServerCheck?: boolean;
  /** The features' migrations the store was opened with (PostgreSQL rebuilds their tables with them). */
  readonly migrations?: FeatureMigrations;
}

export type RestoreResult =
  | { readonly ok: true; readonly id: string; readonly previous: string | null }
  | { readonly ok: false; readonly id: string; readonly error: BackupError; readonly server?: ServerCheck };

/**
 * Replaces the store at `target` with the backup. Everything is rebuilt and checked beside the
 * live data first and swapped in with one atomic step (SQLite: rename over the file;
 * PostgreSQL: schema renames in one transaction); any failure before that leaves the live
 * data untouched. Refuses while a server runs on the target, and refuses corrupt backups.
 */
export async function restoreBackup(dir: string, id: string, target: StoreLocation, options: RestoreOptions): Promise<RestoreResult> {
  const fail = (code: BackupErrorCode, message: string): RestoreResult => ({ ok: false, id, error: { code, message } });
  const checked = await checkedBackup(dir, id);
  if (!checked.ok) return { ok: false, id, error: checked.error };
  const { file, manifest } = checked;
  if (manifest.backend !== target.backend) {
    return fail('backend_mismatch', `backup ${id} is a ${manifest.backend} backup and cannot be restored into ${target.backend}`);
  }
  if (options.skipServerCheck !== true) {
    const server = await checkServerRunning(target, options.now);
    if (server.running) {
      const why = server.evidence === 'pid-file' ? `process ${server.pid} on ${server.host} (server.pid)` : `background-jobs lease held until ${new Date(server.until).toISOString()}`;
      const message = `a Siteward server is running on this store (${why}); stop it before restoring`;
      return { ok: false, id, error: { code: 'server_running', message }, server };
    }
  }
  const previousName = `before-restore-${id}`;
  if (manifest.backend === 'sqlite' && target.backend === 'sqlite') {
    const temp = join(target.dataDir, `.restore-${id}.db.tmp`);
    try {
      const trial = await unpackSqlite(file, manifest, temp);
      if (!trial.ok) return fail('corrupt', `backup ${id} failed its check while restoring: ${trial.reason}; the live store is unchanged`);
      await clearRestoredLeases({ sqliteFile: temp });
      const swapped = await swapSqlite(target.dataDir, temp, `siteward.db.${previousName}`, options.keepPrevious ?? true);
      return { ok: true, id, previous: swapped.previousFile };
    } catch (error) {
      return fail('restore_failed', `restore of ${id} failed: ${(error as Error).message}; the live store is unchanged`);
    } finally {
      await rm(temp, { force: true });
    }
  }
  if (manifest.backend === 'postgres' && target.backend === 'postgres') {
    const schema = await resolveSchema(target.url, target.schema);
    const suffix = randomBytes(4).toString('hex');
    const staging = `${schema.slice(0, 45)}_restore_${suffix}`;
    const loaded = await loadIntoNewSchema(file, manifest, target.url, staging, options.migrations);
    if (!loaded.ok) return fail('restore_failed', `restore of ${id} failed: ${loaded.reason}; the live store is unchanged`);
    try {
      await clearRestoredLeases({ url: target.url, schema: staging });
      const previous = await swapSchemas(target.url, staging, schema, `${schema.slice(0, 45)}_before_${suffix}`, options.keepPrevious ?? false);
      return { ok: true, id, previous };
    } catch (error) {
      await dropSchema(target.url, staging).catch(() => undefined);
      return fail('restore_failed', `restore of ${id} failed while swapping schemas: ${(error as Error).message}; the live store is unchanged`);
    }
  }
  return fail('backend_mismatch', `backup ${id} cannot be restored into ${target.backend}`);
}
