/**
 * Where backups are kept: a local directory, an S3-compatible bucket (s3-target.ts), or both.
 * Every target keeps a store's backups under the store's id (`<dir>/<store id>/<id>.swbak`,
 * `<prefix>/<store id>/<id>.swbak`), so stores sharing a target never see each other's. Files
 * made before store ids lie directly in the directory: listed as store `null` ("legacy").
 */
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BACKUP_SUFFIX, readBackupHeader, syncDir, type BackupHeader } from './backup-file.js';
import { isBackupId } from './backup-manifest.js';
import { isStoreId } from './store-id.js';

export type TargetKind = 'local' | 's3';

export interface StoredBackup {
  readonly id: string;
  /** Bytes as stored. */
  readonly size: number;
}

/** A backup as a local file; `release` removes it when it is a downloaded copy. */
export interface LocalCopy {
  readonly file: string;
  release(): Promise<void>;
}

export interface BackupTarget {
  readonly kind: TargetKind;
  /** Where, for people: the directory or `s3://bucket/prefix`. */
  readonly where: string;
  /** One store's backups (null: the legacy ones without a store), oldest first. */
  list(storeId: string | null): Promise<StoredBackup[]>;
  /** The store ids that have backups here. */
  stores(): Promise<string[]>;
  /** Manifest and framing; null when there is no such backup. */
  header(storeId: string | null, id: string): Promise<BackupHeader | null>;
  /** The backup as a local file (downloaded into `tempDir` when remote); null when absent. */
  fetch(storeId: string | null, id: string, tempDir: string): Promise<LocalCopy | null>;
  /** The backup exactly as stored (downloads); null when absent. */
  read(storeId: string | null, id: string): Promise<{ stream: Readable; size: number } | null>;
  remove(storeId: string | null, id: string): Promise<void>;
}

/** The local directory: backups are written straight into `folder(storeId)`. */
export interface LocalTarget extends BackupTarget {
  readonly kind: 'local';
  folder(storeId: string | null): string;
}

/** An off-site target: a finished local file is copied up. */
export interface RemoteTarget extends BackupTarget {
  readonly kind: 's3';
  upload(storeId: string, id: string, file: string): Promise<void>;
}

export type AnyTarget = LocalTarget | RemoteTarget;

/** Backup ids among file or object names, sorted (ids sort by time). */
export function backupIdsIn(names: readonly string[]): string[] {
  return names
    .filter((n) => n.endsWith(BACKUP_SUFFIX))
    .map((n) => n.slice(0, -BACKUP_SUFFIX.length))
    .filter(isBackupId)
    .sort();
}

function missing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export function localTarget(dir: string): LocalTarget {
  const folder = (storeId: string | null) => (storeId === null ? dir : join(dir, storeId));
  const file = (storeId: string | null, id: string) => join(folder(storeId), `${id}${BACKUP_SUFFIX}`);
  return {
    kind: 'local',
    where: dir,
    folder,
    async list(storeId) {
      let names: string[];
      try {
        names = await readdir(folder(storeId));
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
      const found: StoredBackup[] = [];
      for (const id of backupIdsIn(names)) {
        try {
          found.push({ id, size: (await stat(file(storeId, id))).size });
        } catch (error) {
          if (!missing(error)) throw error; // removed meanwhile by another process's retention
        }
      }
      return found;
    },
    async stores() {
      try {
        return (await readdir(dir, { withFileTypes: true }))
          .filter((e) => e.isDirectory() && isStoreId(e.name))
          .map((e) => e.name)
          .sort();
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
    },
    async header(storeId, id) {
      try {
        return await readBackupHeader(file(storeId, id));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async fetch(storeId, id) {
      try {
        await stat(file(storeId, id));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      return { file: file(storeId, id), release: async () => undefined };
    },
    async read(storeId, id) {
      try {
        const { size } = await stat(file(storeId, id));
        return { stream: createReadStream(file(storeId, id)), size };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async remove(storeId, id) {
      await rm(file(storeId, id), { force: true });
      await syncDir(folder(storeId));
    },
  };
}
