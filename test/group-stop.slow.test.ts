/**
 * Every stop signal stops the server cleanly, also when it goes to the whole process group
 * (systemd's default KillMode=control-group, `kill -TERM -- -PGID`, Ctrl-C on a terminal): the
 * workers say so, give up the background-jobs lease, the primary removes server.pid, and
 * `siteward backup restore` works at once. Before, a group signal reached a worker twice (its
 * own and the primary's relay), the second one killed it mid-stop and the restore right after
 * was refused: "a Siteward server is running on this store (background-jobs lease held …)".
 *
 * After a kill -9 the lease is still in force; the restore checks its holder and says it is gone
 * rather than calling a dead server running.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { within } from './helpers/within.js';

// The built command (`npm run build:server`), run as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-group-stop-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  LOG_LEVEL: 'info',
  SITEWARD_DATA_DIR: path.join(dir, 'data'),
  SITEWARD_BACKUP_DIR: path.join(dir, 'backups'),
  // A lease far longer than the test: one left behind refuses every restore below.
  SITEWARD_JOB_LEASE_MS: '600000',
};
const pidFile = path.join(env.SITEWARD_DATA_DIR!, 'server.pid');
const HOLDS = 'background jobs: this process holds the lease and runs them';

function run(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
}

/**
 * `siteward start` in a process group of its own (as systemd runs it), once a worker holds the
 * job lease (and `waitFor`, if given, is in the output).
 */
async function start(workers: number, waitFor?: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'start', '--port', String(port), '--workers', String(workers)], {
    cwd: dir,
    env,
    detached: true,
  });
  started.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await within(
    90_000,
    async () => (child.exitCode === null ? out : `exited: ${out}`),
    (o) => o.startsWith('exited') || (o.includes('REST API:') && o.includes(HOLDS) && (waitFor === undefined || o.includes(waitFor))),
    'the server to start and take the job lease',
  );
  expect(child.exitCode, out).toBe(null);
  return { child, exited, output: () => out };
}

/** The JSON log lines with this message. */
const lines = (out: string, msg: string) =>
  out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; pid: number; signal?: string })
    .filter((line) => line.msg === msg);

let backupId = '';
beforeAll(async () => {
  // The backup every restore below puts back: the one the server takes at its first start.
  const first = await start(1, '"msg":"backup done"');
  process.kill(first.child.pid!, 'SIGTERM');
  expect(await first.exited).toBe(0);
  const listed = run(['backup', 'list', '--format', 'json']);
  backupId = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
}, 180_000);

describe('a stop signal', () => {
  it.each([
    ['SIGTERM', 'the process group', 1],
    ['SIGTERM', 'the process group', 2],
    ['SIGTERM', 'the process group', 1],
    ['SIGINT', 'the process group', 1],
    ['SIGHUP', 'the process group', 2],
    ['SIGHUP', 'the primary', 2],
  ] as const)(
    '%s to %s with %i worker(s) stops cleanly: logged, lease and server.pid released, and a restore right after works',
    async (signal, to, workers) => {
      const server = await start(workers);
      const pid = server.child.pid!;
      process.kill(to === 'the process group' ? -pid : pid, signal);
      expect(await server.exited, server.output()).toBe(0);
      const out = server.output();
      // Each worker says it is stopping, and that it stopped, once.
      expect(lines(out, 'shutting down: finishing in-flight requests').map((l) => l.signal)).toEqual(Array(workers).fill(signal));
      expect(lines(out, 'stopped: requests finished, background-jobs lease released, store closed')).toHaveLength(workers);
      expect(existsSync(pidFile)).toBe(false);
      const restored = run(['backup', 'restore', backupId]);
      expect(restored.stderr, out).toBe('');
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain(`Restored backup ${backupId}`);
      expect(restored.stdout).not.toContain('No Siteward server was running');
    },
    120_000,
  );

  it('after a kill -9, the restore says the lease holder is gone instead of calling it running, and restores', async () => {
    const server = await start(1);
    const holder = lines(server.output(), HOLDS)[0]!.pid;
    process.kill(-server.child.pid!, 'SIGKILL');
    await server.exited;
    await within(
      10_000,
      async () => {
        try {
          process.kill(holder, 0);
          return 'alive';
        } catch {
          return 'gone';
        }
      },
      (state) => state === 'gone',
      'the worker to be gone',
    );
    // server.pid stays behind; it names a dead process, so it proves nothing.
    expect(existsSync(pidFile)).toBe(true);
    const restored = run(['backup', 'restore', backupId]);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toMatch(
      new RegExp(
        `^No Siteward server was running: the background-jobs lease \\(until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) was held by process ${holder} on ${hostname()}, which is gone \\(killed or crashed, so it could not give the lease up\\)\\. The restored store starts without it\\.\\nRestored backup ${backupId} `,
      ),
    );
    // A server starts on the restored store and takes the jobs at once.
    const again = await start(1);
    process.kill(-again.child.pid!, 'SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);
});
