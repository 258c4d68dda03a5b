import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { JOB_LEASE } from '../../jobs/job-runner.js';
import { sqliteFile } from './sqlite-backup.js';
import type { StoreLocation } from './store-location.js';

/** Written by the server's main process into the data directory while it runs. */
export const SERVER_PID_FILE = 'server.pid';

export interface PidFileContent {
  readonly pid: number;
  readonly host: string;
  /** ms since the epoch. */
  readonly started: number;
  /** The server's home URL, for links the CLI prints (absent in files of older versions). */
  readonly url?: string;
}

/** The holder of a lease still in force whose process is gone (a kill -9, a crash): it never gave the lease up. */
export interface DeadHolder {
  readonly pid: number;
  readonly host: string;
  /** ms since the epoch: when the lease lapses on its own. */
  readonly until: number;
}

export type ServerCheck =
  | { readonly running: false; readonly deadHolder?: DeadHolder }
  | { readonly running: true; readonly evidence: 'pid-file'; readonly pid: number; readonly host: string }
  | { readonly running: true; readonly evidence: 'job-lease'; readonly holder: string; readonly until: number };

/** Records this process as the server of `dataDir`; call at start (primary only), `removeServerPidFile` at exit. */
export async function writeServerPidFile(dataDir: string, now: number, pid: number = process.pid): Promise<void> {
  const content: PidFileContent = { pid, host: hostname(), started: now };
  await writeFile(join(dataDir, SERVER_PID_FILE), JSON.stringify(content), { mode: 0o600 });
}

export type PidFileClaim = { readonly ok: true } | { readonly ok: false; readonly pid: number; readonly host: string };

/**
 * Records this process as the server of `dataDir` unless another live server already did
 * (the file is created exclusively, so two servers starting at once cannot both win). A file
 * left by a server that died on this host is replaced; one naming another host cannot be
 * checked and counts as live.
 */
export async function claimServerPidFile(dataDir: string, now: number, url: string, pid: number = process.pid): Promise<PidFileClaim> {
  const content: PidFileContent = { pid, host: hostname(), started: now, url };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(join(dataDir, SERVER_PID_FILE), JSON.stringify(content), { mode: 0o600, flag: 'wx' });
      return { ok: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const live = await runningServer(dataDir);
    if (live !== null) return { ok: false, pid: live.pid, host: live.host };
    // Stale or damaged: remove it and try once more (a server starting at the same moment may win that try).
    if (attempt > 0) throw new Error(`could not create ${join(dataDir, SERVER_PID_FILE)}: another process keeps recreating it`);
    await rm(join(dataDir, SERVER_PID_FILE), { force: true });
  }
}

/** Removes the pid file when it names `pid` (another server's file is left alone). */
export async function removeServerPidFile(dataDir: string, pid: number = process.pid): Promise<void> {
  const found = await readPidFile(dataDir);
  if (found?.pid === pid && found.host === hostname()) await rm(join(dataDir, SERVER_PID_FILE), { force: true });
}

/** The record of the server running on `dataDir`, or null when none runs (or its file is gone). */
export async function runningServer(dataDir: string): Promise<PidFileContent | null> {
  const found = await readPidFile(dataDir);
  return found !== null && (found.host !== hostname() || alive(found.pid)) ? found : null;
}

async function readPidFile(dataDir: string): Promise<PidFileContent | null> {
  let text: string;
  try {
    text = await readFile(join(dataDir, SERVER_PID_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<Record<keyof PidFileContent, unknown>>;
    const { pid, host, started, url } = value;
    if (typeof pid === 'number' && typeof host === 'string' && typeof started === 'number')
      return { pid, host, started, ...(typeof url === 'string' ? { url } : {}) };
  } catch {
    // A damaged file proves nothing either way; the lease check still runs.
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface LeaseRow {
  holder: string;
  until: number;
}

/** The host and pid in a lease holder's name (`host:pid:random`, src/jobs/job-runner.ts), or null for another shape. */
export function leaseHolderProcess(holder: string): { readonly host: string; readonly pid: number } | null {
  const match = /^(.+):(\d+):[^:]+$/.exec(holder);
  return match === null ? null : { host: match[1]!, pid: Number(match[2]) };
}

/**
 * A lease in force means a server runs, unless its holder is a process on this host that is
 * gone: a server killed with -9 (or crashed) keeps its lease until it lapses, and calling it
 * running would send the operator looking for a server that does not exist. Another host's
 * process cannot be checked from here, so its lease still counts.
 */
function leaseCheck(row: LeaseRow | undefined, now: number): ServerCheck {
  if (row === undefined || row.until <= now) return { running: false };
  const holder = leaseHolderProcess(row.holder);
  if (holder !== null && holder.host === hostname() && !alive(holder.pid))
    return { running: false, deadHolder: { pid: holder.pid, host: holder.host, until: row.until } };
  return { running: true, evidence: 'job-lease', holder: row.holder, until: row.until };
}

/** The background-jobs lease row (src/jobs/job-runner.ts), read without opening a store. */
async function readLease(target: StoreLocation): Promise<LeaseRow | undefined> {
  if (target.backend === 'sqlite') {
    const file = sqliteFile(target.dataDir);
    if (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    )
      return undefined;
    const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'`).get();
      if (hasTable === undefined) return undefined;
      const row = db.prepare('SELECT holder, until FROM leases WHERE name = ?').get(JOB_LEASE) as
        { holder: string; until: number | bigint } | undefined;
      return row && { holder: row.holder, until: Number(row.until) };
    } finally {
      db.close();
    }
  }
  const client = await (await import('./postgres-export.js')).pgClient(target.url, target.schema);
  await client.connect();
  try {
    const { rows } = await client.query<{ holder: string; until: string }>('SELECT holder, until FROM leases WHERE name = $1', [JOB_LEASE]);
    return rows[0] && { holder: rows[0].holder, until: Number(rows[0].until) };
  } catch (error) {
    // No leases table yet (an empty schema): no server has ever run on it.
    if ((error as { code?: unknown }).code === '42P01') return undefined;
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Is a Siteward server running on this store? Two independent signs, either one suffices:
 * 1. a `server.pid` in the data directory naming a live process on this host (another host's
 *    pid cannot be checked, so it counts as running; delete the file if that server is gone);
 * 2. the background-jobs lease in the store itself: every server process keeps trying to take
 *    it and the holder renews it every third of its 30 s life, so a fresh lease means a server
 *    is up — also one on another machine sharing a PostgreSQL store. A server that crashed
 *    keeps it for at most 30 s; a clean stop gives it up at once.
 */
export async function checkServerRunning(target: StoreLocation, now: number): Promise<ServerCheck> {
  if (target.dataDir !== undefined) {
    const pidFile = await runningServer(target.dataDir);
    if (pidFile !== null) {
      return { running: true, evidence: 'pid-file', pid: pidFile.pid, host: pidFile.host };
    }
  }
  return leaseCheck(await readLease(target), now);
}

/**
 * Clears the leases of a restored copy before it goes live. A backup made while a server ran
 * holds that server's job lease; restored, it would make the store look in use (refusing the
 * next restore) and keep the jobs paused until it expired, though its holder is long gone.
 */
export async function clearRestoredLeases(
  target: { readonly sqliteFile: string } | { readonly url: string; readonly schema: string },
): Promise<void> {
  if ('sqliteFile' in target) {
    const db = new BetterSqlite3(target.sqliteFile, { fileMustExist: true });
    try {
      const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'`).get();
      if (hasTable !== undefined) db.prepare('DELETE FROM leases').run();
    } finally {
      db.close();
    }
    return;
  }
  const client = await (await import('./postgres-export.js')).pgClient(target.url, target.schema);
  await client.connect();
  try {
    await client.query('DELETE FROM leases');
  } catch (error) {
    if ((error as { code?: unknown }).code !== '42P01') throw error;
  } finally {
    await client.end();
  }
}
