/**
 * The server's pid file in the data directory: the server claims it at start and removes it at
 * exit; the CLI reads it to tell whether a server runs there (backups' restore refuses, `user`
 * commands print its URL).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

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

/** Whether a process of this host with that pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
