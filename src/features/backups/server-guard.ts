import { access } from 'node:fs/promises';
import { hostname } from 'node:os';
import BetterSqlite3 from 'better-sqlite3';
import { alive, runningServer } from '../../core/server-pid-file.js';
import { JOB_LEASE } from '../../jobs/job-runner.js';
import { sqliteFile } from './sqlite-backup.js';
import type { StoreLocation } from './store-location.js';

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
