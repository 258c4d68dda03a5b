import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { JOB_LEASE } from '../../jobs/job-runner.js';
import { pgClient } from './postgres-export.js';
import { sqliteFile } from './sqlite-backup.js';
import type { StoreLocation } from './store-location.js';

/** Written by the server's main process into the data directory while it runs. */
export const SERVER_PID_FILE = 'server.pid';

export interface PidFileContent {
  readonly pid: number;
  readonly host: string;
  /** ms since the epoch. */
  readonly started: number;
}

export type ServerCheck =
  | { readonly running: false }
  | { readonly running: true; readonly evidence: 'pid-file'; readonly pid: number; readonly host: string }
  | { readonly running: true; readonly evidence: 'job-lease'; readonly holder: string; readonly until: number };

/** Records this process as the server of `dataDir`; call at start (primary only), `removeServerPidFile` at exit. */
export async function writeServerPidFile(dataDir: string, now: number, pid: number = process.pid): Promise<void> {
  const content: PidFileContent = { pid, host: hostname(), started: now };
  await writeFile(join(dataDir, SERVER_PID_FILE), JSON.stringify(content), { mode: 0o600 });
}

/** Removes the pid file when it names `pid` (another server's file is left alone). */
export async function removeServerPidFile(dataDir: string, pid: number = process.pid): Promise<void> {
  const found = await readPidFile(dataDir);
  if (found?.pid === pid && found.host === hostname()) await rm(join(dataDir, SERVER_PID_FILE), { force: true });
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
    const { pid, host, started } = value;
    if (typeof pid === 'number' && typeof host === 'string' && typeof started === 'number') return { pid, host, started };
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

function leaseCheck(row: LeaseRow | undefined, now: number): ServerCheck {
  return row !== undefined && row.until > now ? { running: true, evidence: 'job-lease', holder: row.holder, until: row.until } : { running: false };
}

/** The background-jobs lease row (src/jobs/job-runner.ts), read without opening a store. */
async function readLease(target: StoreLocation): Promise<LeaseRow | undefined> {
  if (target.backend === 'sqlite') {
    const file = sqliteFile(target.dataDir);
    if (!(await access(file).then(() => true, () => false))) return undefined;
    const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      const hasTable = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'`).get();
      if (hasTable === undefined) return undefined;
      const row = db.prepare('SELECT holder, until FROM leases WHERE name = ?').get(JOB_LEASE) as { holder: string; until: number | bigint } | undefined;
      return row && { holder: row.holder, until: Number(row.until) };
    } finally {
      db.close();
    }
  }
  const client = pgClient(target.url, target.schema);
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
    const pidFile = await readPidFile(target.dataDir);
    if (pidFile !== null && (pidFile.host !== hostname() || alive(pidFile.pid))) {
      return { running: true, evidence: 'pid-file', pid: pidFile.pid, host: pidFile.host };
    }
  }
  return leaseCheck(await readLease(target), now);
}
