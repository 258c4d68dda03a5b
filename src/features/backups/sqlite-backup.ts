import { createWriteStream } from 'node:fs';
import { access, copyFile, link, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_FILE } from '../../store/index.js';
import type { BackupKey } from './backup-crypto.js';
import { openContent, syncDir } from './backup-file.js';
import { MIGRATION_TABLES, type SqliteManifest, type SqliteTableEntry } from './backup-manifest.js';

export interface SqliteSnapshotInfo {
  readonly tables: SqliteTableEntry[];
  readonly schemaVersion: string[];
}

/**
 * A backup's own connections read every page once: better-sqlite3's default page cache (16 MB
 * per connection, SQLITE_DEFAULT_CACHE_SIZE) would fill up with pages never read again and
 * count against the backup's memory budget (docs/performance.md). 2 MiB is SQLite's own default.
 */
function streamingConnection(path: string, options: BetterSqlite3.Options): BetterSqlite3.Database {
  const db = new BetterSqlite3(path, options);
  db.pragma('cache_size = -2048');
  return db;
}

/** The live database file of a data directory. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, SQLITE_FILE);
}

/**
 * Copies the live database into `dest` with SQLite's online backup while the server keeps
 * writing. Its own connection, one step for all pages: writes from other connections restart
 * a multi-step backup, so a busy server could starve a paged one; in WAL mode the single
 * step only holds a read snapshot, so writers never wait for it.
 */
export async function snapshotSqlite(dataDir: string, dest: string): Promise<SqliteSnapshotInfo> {
  const source = streamingConnection(sqliteFile(dataDir), { fileMustExist: true, timeout: 5000 });
  try {
    await source.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = streamingConnection(dest, { fileMustExist: true });
  try {
    // Rollback journal in the copy: its header would otherwise still say WAL, and the
    // self-contained file is what gets compressed and later restored.
    copy.pragma('journal_mode = DELETE');
    return describeSqlite(copy);
  } finally {
    copy.close();
  }
}

/** Tables (discovered, never listed by hand) with row counts, and the applied migrations. */
export function describeSqlite(db: BetterSqlite3.Database): SqliteSnapshotInfo {
  const names = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  for (const required of MIGRATION_TABLES) {
    if (!names.includes(required)) throw new Error(`the store has no ${required} table: not a migrated Siteward store`);
  }
  const tables = names.map((name) => {
    const { n } = db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number };
    return { name, rows: n };
  });
  const schemaVersion = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  return { tables, schemaVersion };
}

export type TrialResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Decompresses the backup into `dest` (mode 0600, fsynced) and checks it against the manifest. */
export async function unpackSqlite(
  file: string,
  manifest: SqliteManifest,
  dest: string,
  key: BackupKey | null = null,
): Promise<TrialResult> {
  const content = openContent(file, manifest, key);
  await pipeline(content.stream, createWriteStream(dest, { flags: 'wx', mode: 0o600 }));
  const written = await open(dest, 'r+');
  try {
    await written.sync();
  } finally {
    await written.close();
  }
  if (!content.matches()) return { ok: false, reason: 'content checksum differs from the manifest' };
  return checkSqliteFile(dest, manifest);
}

/** `PRAGMA integrity_check`, then tables, row counts and migrations equal to the manifest's. */
export function checkSqliteFile(path: string, manifest: SqliteManifest): TrialResult {
  let db: BetterSqlite3.Database;
  try {
    db = streamingConnection(path, { fileMustExist: true });
  } catch (error) {
    return { ok: false, reason: `not an SQLite database: ${(error as Error).message}` };
  }
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (integrity.join() !== 'ok') return { ok: false, reason: `integrity_check: ${integrity.slice(0, 3).join('; ')}` };
    const found = describeSqlite(db);
    const expected = JSON.stringify({ tables: manifest.tables, schemaVersion: manifest.schemaVersion });
    if (JSON.stringify(found) !== expected) return { ok: false, reason: 'tables, row counts or migrations differ from the manifest' };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    db.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export interface SqliteSwapResult {
  /** The replaced database, kept under this name (null when there was none, or not kept). */
  readonly previousFile: string | null;
}

/**
 * Swaps a checked restored file in for the live database. The WAL is checkpointed into the
 * old file first: a `-wal` left next to the new file would be replayed into it and corrupt it.
 * The old file is hard-linked (or copied) aside before one atomic rename replaces the live
 * name, so until that rename succeeds the old database is complete and in place.
 */
export async function swapSqlite(
  dataDir: string,
  restored: string,
  previousName: string,
  keepPrevious: boolean,
): Promise<SqliteSwapResult> {
  const live = sqliteFile(dataDir);
  if (!(await exists(live))) {
    await rename(restored, live);
    await syncDir(dataDir);
    return { previousFile: null };
  }
  const db = new BetterSqlite3(live, { fileMustExist: true, timeout: 5000 });
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (result && result.busy !== 0) throw new Error('the live database is busy (another connection is using it); stop the server first');
  } finally {
    // The last connection to close deletes the -wal and -shm files.
    db.close();
  }
  const previous = join(dataDir, previousName);
  await link(live, previous).catch(() => copyFile(live, previous));
  const moved: [string, string][] = [];
  try {
    for (const side of ['-wal', '-shm']) {
      if (await exists(live + side)) {
        await rename(live + side, previous + side);
        moved.push([previous + side, live + side]);
      }
    }
    await rename(restored, live);
  } catch (error) {
    for (const [from, to] of moved) await rename(from, to).catch(() => undefined);
    await rm(previous, { force: true });
    throw error;
  }
  await syncDir(dataDir);
  if (!keepPrevious) {
    for (const name of [previous, previous + '-wal', previous + '-shm']) await rm(name, { force: true });
    return { previousFile: null };
  }
  return { previousFile: previous };
}
