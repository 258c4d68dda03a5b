import { randomBytes } from 'node:crypto';
import type { AuditCheckpoint } from '../../wire/audit.js';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLITE_FILE } from '../../store/index.js';
import { keyOpens, type BackupKey } from './backup-crypto.js';
import { checkPayload, ensureBackupDir, PAYLOAD_OFFSET, payloadStream, writeBackupFile } from './backup-file.js';
import { backupIdTime, isBackupId, newBackupId, type BackupBackend, type BackupManifest } from './backup-manifest.js';
import type { AnyTarget, BackupTarget, TargetKind } from './backup-target.js';
import type { FeatureMigrations } from './postgres-restore.js';

// `pg` and the PostgreSQL backup code load on first use: most workers never back up PostgreSQL (issue 26, memory).
const postgresExport = () => import('./postgres-export.js');
const postgresRestore = () => import('./postgres-restore.js');
import { checkServerRunning, clearRestoredLeases, type DeadHolder, type ServerCheck } from './server-guard.js';
import { snapshotSqlite, swapSqlite, unpackSqlite, type TrialResult } from './sqlite-backup.js';
import type { StoreLocation } from './store-location.js';
import { uploadWithRetry, type RetryPolicy } from './upload-retry.js';

export type BackupErrorCode =
  | 'not_found'
  | 'corrupt'
  | 'backend_mismatch'
  | 'server_running'
  | 'lease_held'
  | 'backup_failed'
  | 'upload_failed'
  | 'restore_failed'
  | 'key_missing'
  | 'key_wrong'
  | 'other_store';

export interface BackupError {
  readonly code: BackupErrorCode;
  readonly message: string;
}

/** A backup in a target: which target, whose store (null: a legacy backup without one), which id. */
export interface BackupRef {
  readonly target: BackupTarget;
  readonly storeId: string | null;
  readonly id: string;
}

/** How one target fared with a new backup. */
export type TargetCopy =
  | { readonly kind: TargetKind; readonly where: string; readonly ok: true; readonly attempts: number }
  | { readonly kind: TargetKind; readonly where: string; readonly ok: false; readonly attempts: number; readonly message: string };

export type CreateBackupResult =
  | {
      readonly ok: true;
      readonly id: string;
      readonly size: number;
      readonly manifest: BackupManifest;
      readonly copies: readonly TargetCopy[];
    }
  | { readonly ok: false; readonly id: string; readonly error: BackupError; readonly copies: readonly TargetCopy[] };

export interface CreateOptions {
  /** Every target the backup goes to (a local directory, a bucket, or both). */
  readonly targets: readonly AnyTarget[];
  /** The store's id (store-id.ts), recorded in the manifest and naming the backup's folder. */
  readonly storeId: string;
  /** Encrypts the payload before it is written anywhere. */
  readonly key?: BackupKey | null;
  /** Staging directory when no local target is configured. Default: the OS temp directory. */
  readonly tempDir?: string;
  readonly retry?: RetryPolicy;
  /** Signs the audit log's head for the manifest, just before the snapshot (so the snapshot holds that head). */
  readonly auditCheckpoint?: () => Promise<AuditCheckpoint>;
}

/**
 * Takes a consistent snapshot of a live store and keeps it in every target. The file is written
 * once: into the local target's folder when there is one, else into a private temporary
 * directory; off-site targets get it uploaded from there (retried with back-off), and the
 * staging copy is removed. SQLite: online backup API into a temp file beside the backups.
 * PostgreSQL: COPY export of every table from one REPEATABLE READ snapshot. The result is ok
 * only when every target holds the backup.
 */
export async function createBackup(source: StoreLocation, now: Date, options: CreateOptions): Promise<CreateBackupResult> {
  const id = newBackupId(now);
  const time = now.toISOString();
  const { storeId } = options;
  const key = options.key ?? null;
  const local = options.targets.find((t) => t.kind === 'local');
  let staging: string | null = null;
  let folder: string;
  let written: { file: string; size: number; manifest: BackupManifest };
  try {
    const signed = options.auditCheckpoint ? { auditCheckpoint: await options.auditCheckpoint() } : {};
    if (local !== undefined) folder = local.folder(storeId);
    else folder = staging = await mkdtemp(join(options.tempDir ?? tmpdir(), 'siteward-backup-'));
    await ensureBackupDir(folder);
    if (source.backend === 'sqlite') {
      const snapshot = join(folder, `.${id}.snapshot.tmp`);
      try {
        const info = await snapshotSqlite(source.dataDir, snapshot);
        written = await writeBackupFile(
          folder,
          id,
          createReadStream(snapshot),
          (digest) => ({
            format: 'siteward-backup',
            formatVersion: 1,
            id,
            time,
            backend: 'sqlite',
            schemaVersion: info.schemaVersion,
            tables: info.tables,
            storeId,
            ...signed,
            ...digest,
          }),
          key,
        );
      } finally {
        await rm(snapshot, { force: true });
      }
    } else {
      const exported = await (await postgresExport()).exportPostgres(source);
      written = await writeBackupFile(
        folder,
        id,
        exported.content,
        (digest) => {
          const { tables, sequences, schemaVersion } = exported.result();
          return {
            format: 'siteward-backup',
            formatVersion: 1,
            id,
            time,
            backend: 'postgres',
            schemaVersion,
            tables,
            sequences,
            storeId,
            ...signed,
            ...digest,
          };
        },
        key,
      );
    }
  } catch (error) {
    if (staging !== null) await rm(staging, { recursive: true, force: true });
    const copies = options.targets.map((t): TargetCopy => ({
      kind: t.kind,
      where: t.where,
      ok: false,
      attempts: 0,
      message: 'no backup was made',
    }));
    return { ok: false, id, error: { code: 'backup_failed', message: `backup failed: ${(error as Error).message}` }, copies };
  }
  try {
    const copies: TargetCopy[] = [];
    for (const target of options.targets) {
      if (target.kind === 'local') {
        copies.push({ kind: 'local', where: target.where, ok: true, attempts: 1 });
        continue;
      }
      const outcome = await uploadWithRetry(() => target.upload(storeId, id, written.file), options.retry);
      copies.push(
        outcome.ok
          ? { kind: target.kind, where: target.where, ok: true, attempts: outcome.attempts }
          : { kind: target.kind, where: target.where, ok: false, attempts: outcome.attempts, message: outcome.message },
      );
    }
    const failed = copies.filter((c) => !c.ok);
    if (failed.length > 0) {
      const kept = local === undefined ? 'nowhere' : `in ${local.where}`;
      const why = failed.map((c) => `${c.where}: ${c.ok ? '' : c.message} (${c.attempts} attempts)`).join('; ');
      return {
        ok: false,
        id,
        error: { code: 'upload_failed', message: `backup ${id} was made but is kept ${kept}: copying it off-site failed (${why})` },
        copies,
      };
    }
    return { ok: true, id, size: written.size, manifest: written.manifest, copies };
  } finally {
    if (staging !== null) await rm(staging, { recursive: true, force: true });
  }
}

export type BackupStatus = 'ok' | 'corrupt';

export interface BackupListEntry {
  readonly id: string;
  /** From the manifest; from the id when the manifest is unreadable. */
  readonly time: Date;
  /** Bytes as stored. */
  readonly size: number;
  readonly status: BackupStatus;
  /** Null when the manifest is unreadable. */
  readonly backend: BackupBackend | null;
  /** The store the backup belongs to (its folder); null for legacy backups without one. */
  readonly storeId: string | null;
  readonly encrypted: boolean;
  /** Why it is corrupt. */
  readonly problem?: string;
}

export interface ListOptions {
  /** Also compare each payload's SHA-256 (reads every file; local targets only, a bucket is not downloaded for a list). Default true. */
  readonly checksums?: boolean;
  /** Only the file listing: no manifest is read (sizes and times from names). Default false. */
  readonly namesOnly?: boolean;
}

/** One store's backups in a target, oldest first (temp files of unfinished backups are not listed). */
export async function listBackups(target: BackupTarget, storeId: string | null, options: ListOptions = {}): Promise<BackupListEntry[]> {
  const entries: BackupListEntry[] = [];
  for (const { id, size: storedSize } of await target.list(storeId)) {
    const fallbackTime = backupIdTime(id) ?? new Date(0);
    if (options.namesOnly === true) {
      entries.push({ id, time: fallbackTime, size: storedSize, status: 'ok', backend: null, storeId, encrypted: false });
      continue;
    }
    const header = await target.header(storeId, id);
    if (header === null) continue; // removed meanwhile
    if (!header.ok) {
      entries.push({
        id,
        time: fallbackTime,
        size: header.size,
        status: 'corrupt',
        backend: null,
        storeId,
        encrypted: false,
        problem: header.reason,
      });
      continue;
    }
    const { manifest, size } = header;
    const base = {
      id,
      time: new Date(manifest.time),
      size,
      backend: manifest.backend,
      storeId,
      encrypted: manifest.encryption !== undefined,
    };
    if (manifest.id !== id) entries.push({ ...base, status: 'corrupt', problem: 'manifest belongs to another backup' });
    else if ((manifest.storeId ?? null) !== storeId)
      entries.push({ ...base, status: 'corrupt', problem: 'manifest belongs to another store' });
    else if (options.checksums !== false && target.kind === 'local' && !(await checksumMatches(target, storeId, id, manifest))) {
      entries.push({ ...base, status: 'corrupt', problem: 'payload checksum mismatch' });
    } else entries.push({ ...base, status: 'ok' });
  }
  return entries;
}

async function checksumMatches(target: BackupTarget, storeId: string | null, id: string, manifest: BackupManifest): Promise<boolean> {
  const copy = await target.fetch(storeId, id, tmpdir());
  if (copy === null) return false;
  try {
    return await checkPayload(copy.file, manifest);
  } finally {
    await copy.release();
  }
}

type Checked =
  | { readonly ok: true; readonly file: string; readonly manifest: BackupManifest; release(): Promise<void> }
  | { readonly ok: false; readonly error: BackupError };

/**
 * The backup as a local file (downloaded when remote) after framing, payload checksum and key
 * checks; the refusal message names the backup and what is wrong. Call `release` when done.
 */
async function checkedBackup(ref: BackupRef, key: BackupKey | null, tempDir: string): Promise<Checked> {
  const { target, storeId, id } = ref;
  if (!isBackupId(id)) return { ok: false, error: { code: 'not_found', message: `"${id}" is not a backup id` } };
  const header = await target.header(storeId, id);
  const place = storeId === null ? target.where : `${target.where} (store ${storeId})`;
  if (header === null) return { ok: false, error: { code: 'not_found', message: `no backup ${id} in ${place}` } };
  const corrupt = (why: string): Checked => ({
    ok: false,
    error: { code: 'corrupt', message: `backup ${id} is corrupted (${why}); refusing to use it` },
  });
  if (!header.ok) return corrupt(header.reason);
  const { manifest } = header;
  if (manifest.id !== id) return corrupt('its manifest belongs to another backup');
  if ((manifest.storeId ?? null) !== storeId) return corrupt('its manifest belongs to another store');
  if (manifest.encryption !== undefined && key === null) {
    return {
      ok: false,
      error: {
        code: 'key_missing',
        message: `backup ${id} is encrypted: set SITEWARD_BACKUP_ENCRYPTION_KEY (or SITEWARD_BACKUP_ENCRYPTION_KEY_FILE) to the key it was made with`,
      },
    };
  }
  if (manifest.encryption !== undefined && key !== null) {
    // A passphrase's scrypt (32 MiB for a moment) runs now, on top of the process's floor,
    // rather than after the download has grown the heap; the checks below reuse the derived
    // key (age-scrypt.ts), and the answer that counts is theirs.
    const whole = await target.read(storeId, id);
    if (whole !== null) await keyOpens(whole.stream, key, PAYLOAD_OFFSET);
  }
  const copy = await target.fetch(storeId, id, tempDir);
  if (copy === null) return { ok: false, error: { code: 'not_found', message: `no backup ${id} in ${place}` } };
  const refuse = async (result: Checked): Promise<Checked> => {
    await copy.release();
    return result;
  };
  if (!(await checkPayload(copy.file, manifest))) return refuse(corrupt('payload checksum mismatch'));
  if (manifest.encryption !== undefined && key !== null && !(await keyOpens(payloadStream(copy.file, manifest), key))) {
    return refuse({
      ok: false,
      error: {
        code: 'key_wrong',
        message: `backup ${id} is encrypted with another key: the configured ${key.from ?? 'SITEWARD_BACKUP_ENCRYPTION_KEY'} does not open it`,
      },
    });
  }
  return { ok: true, file: copy.file, manifest, release: () => copy.release() };
}

/** A check of a trial-restored store while it exists (the scheduled verification logs in to it). */
export type TrialCheck = (location: StoreLocation) => Promise<TrialResult>;

export interface VerifyOptions {
  /** Needed for the trial restore of a PostgreSQL backup (into a temporary schema). */
  readonly postgresUrl?: string;
  /** Parent directory of the temporary SQLite file and of downloads. Default: the OS temp directory. */
  readonly tempDir?: string;
  /** The features' migrations the store was opened with (PostgreSQL rebuilds their tables with them). */
  readonly migrations?: FeatureMigrations;
  /** Opens encrypted backups. */
  readonly key?: BackupKey | null;
  /** Runs on the trial-restored store after the manifest checks passed. */
  readonly check?: TrialCheck;
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
export async function verifyBackup(ref: BackupRef, options: VerifyOptions = {}): Promise<VerifyResult> {
  const { id } = ref;
  const tempRoot = options.tempDir ?? tmpdir();
  const key = options.key ?? null;
  const checked = await checkedBackup(ref, key, tempRoot);
  if (!checked.ok) return { ok: false, id, error: checked.error };
  const { file, manifest } = checked;
  let trial: TrialResult;
  try {
    if (manifest.backend === 'sqlite') {
      const temp = await mkdtemp(join(tempRoot, 'siteward-verify-'));
      try {
        trial = await unpackSqlite(file, manifest, join(temp, SQLITE_FILE), key);
        if (trial.ok && options.check) trial = await options.check({ backend: 'sqlite', dataDir: temp });
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    } else {
      if (options.postgresUrl === undefined) return { ok: true, id, manifest, trialRestore: 'skipped' };
      const schema = `sw_verify_${randomBytes(6).toString('hex')}`;
      try {
        trial = await (await postgresRestore()).loadIntoNewSchema(file, manifest, options.postgresUrl, schema, options.migrations, key);
        if (trial.ok && options.check) trial = await options.check({ backend: 'postgres', url: options.postgresUrl, schema });
      } finally {
        await (await postgresRestore()).dropSchema(options.postgresUrl, schema);
      }
    }
  } finally {
    await checked.release();
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
  /** Opens encrypted backups. */
  readonly key?: BackupKey | null;
  /** Where a remote backup is downloaded to first. Default: the data directory (SQLite) or the OS temp directory. */
  readonly tempDir?: string;
}

export type RestoreResult =
  | {
      readonly ok: true;
      readonly id: string;
      readonly previous: string | null;
      /** The gone process whose unreleased job lease the restore found (and left behind with the replaced store). */
      readonly deadHolder?: DeadHolder;
    }
  | { readonly ok: false; readonly id: string; readonly error: BackupError; readonly server?: ServerCheck };

/**
 * Replaces the store at `target` with the backup. Everything is rebuilt and checked beside the
 * live data first and swapped in with one atomic step (SQLite: rename over the file;
 * PostgreSQL: schema renames in one transaction); any failure before that leaves the live
 * data untouched. Refuses while a server runs on the target, and refuses corrupt backups.
 */
export async function restoreBackup(from: BackupRef, target: StoreLocation, options: RestoreOptions): Promise<RestoreResult> {
  const { id } = from;
  const tempDir = options.tempDir ?? target.dataDir ?? tmpdir();
  const checked = await checkedBackup(from, options.key ?? null, tempDir);
  if (!checked.ok) return { ok: false, id, error: checked.error };
  try {
    return await restoreChecked(id, checked.file, checked.manifest, target, options);
  } finally {
    await checked.release();
  }
}

async function restoreChecked(
  id: string,
  file: string,
  manifest: BackupManifest,
  target: StoreLocation,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const fail = (code: BackupErrorCode, message: string): RestoreResult => ({ ok: false, id, error: { code, message } });
  const key = options.key ?? null;
  if (manifest.backend !== target.backend) {
    return fail('backend_mismatch', `backup ${id} is a ${manifest.backend} backup and cannot be restored into ${target.backend}`);
  }
  let deadHolder: DeadHolder | undefined;
  if (options.skipServerCheck !== true) {
    const server = await checkServerRunning(target, options.now);
    if (server.running) {
      const why =
        server.evidence === 'pid-file'
          ? `process ${server.pid} on ${server.host} (server.pid)`
          : `background-jobs lease held by ${server.holder} until ${new Date(server.until).toISOString()}`;
      const message = `a Siteward server is running on this store (${why}); stop it before restoring`;
      return { ok: false, id, error: { code: 'server_running', message }, server };
    }
    deadHolder = server.deadHolder;
    // A SQLite store serves one data directory, whose server.pid said no server runs. A
    // PostgreSQL store may also serve other hosts, which the dead holder keeps from taking the
    // lease (and so from showing up) until it lapses: wait for that rather than guess.
    if (deadHolder !== undefined && target.backend === 'postgres') {
      const until = new Date(deadHolder.until).toISOString();
      const message = `no Siteward server is running on this host, but the background-jobs lease is still held until ${until} by process ${deadHolder.pid} on ${deadHolder.host}, which is gone (killed or crashed, so it could not give the lease up); a server on another host sharing this database could take it only then. Run the restore again after ${until}.`;
      return { ok: false, id, error: { code: 'lease_held', message }, server };
    }
  }
  const previousName = `before-restore-${id}`;
  if (manifest.backend === 'sqlite' && target.backend === 'sqlite') {
    const temp = join(target.dataDir, `.restore-${id}.db.tmp`);
    try {
      const trial = await unpackSqlite(file, manifest, temp, key);
      if (!trial.ok) return fail('corrupt', `backup ${id} failed its check while restoring: ${trial.reason}; the live store is unchanged`);
      await clearRestoredLeases({ sqliteFile: temp });
      const swapped = await swapSqlite(target.dataDir, temp, `siteward.db.${previousName}`, options.keepPrevious ?? true);
      return { ok: true, id, previous: swapped.previousFile, ...(deadHolder ? { deadHolder } : {}) };
    } catch (error) {
      return fail('restore_failed', `restore of ${id} failed: ${(error as Error).message}; the live store is unchanged`);
    } finally {
      await rm(temp, { force: true });
    }
  }
  if (manifest.backend === 'postgres' && target.backend === 'postgres') {
    const schema = await (await postgresRestore()).resolveSchema(target.url, target.schema);
    const suffix = randomBytes(4).toString('hex');
    const staging = `${schema.slice(0, 45)}_restore_${suffix}`;
    const loaded = await (await postgresRestore()).loadIntoNewSchema(file, manifest, target.url, staging, options.migrations, key);
    if (!loaded.ok) return fail('restore_failed', `restore of ${id} failed: ${loaded.reason}; the live store is unchanged`);
    try {
      await clearRestoredLeases({ url: target.url, schema: staging });
      const previous = await (
        await postgresRestore()
      ).swapSchemas(target.url, staging, schema, `${schema.slice(0, 45)}_before_${suffix}`, options.keepPrevious ?? false);
      return { ok: true, id, previous };
    } catch (error) {
      await (await postgresRestore()).dropSchema(target.url, staging).catch(() => undefined);
      return fail(
        'restore_failed',
        `restore of ${id} failed while swapping schemas: ${(error as Error).message}; the live store is unchanged`,
      );
    }
  }
  return fail('backend_mismatch', `backup ${id} cannot be restored into ${target.backend}`);
}
