import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

// The built command (`npm run build:server`), run as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-stop-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function envFor(name: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    SITEWARD_DATA_DIR: path.join(dir, name, 'data'),
    SITEWARD_BACKUP_DIR: path.join(dir, name, 'backups'),
  };
}

function run(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
}

/** `siteward start` on a free port; resolves once it printed its banner (or exited). */
async function start(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'start', '--port', String(port)], { cwd: dir, env });
  started.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => {
    const check = () => (out.includes('REST API:') ? resolve() : undefined);
    child.stdout.on('data', check);
  });
  await Promise.race([ready, exited]);
  return { child, port, exited, output: () => out };
}

describe('a clean stop', () => {
  it('releases the job lease and server.pid, so a backup can be restored at once, and again after that', async () => {
    // A lease far longer than the test: one left behind would refuse every restore below.
    const env: Record<string, string> = { ...envFor('restore'), SITEWARD_JOB_LEASE_MS: '600000' };
    const server = await start(env);
    expect(server.output()).toContain('REST API:');
    expect(existsSync(path.join(env.SITEWARD_DATA_DIR!, 'server.pid'))).toBe(true);
    // The scheduled backup taken at start holds this server's lease in its copy of the store.
    for (let waited = 0; !server.output().includes('"msg":"backup done"'); waited += 50) {
      if (waited > 60_000) throw new Error(`no scheduled backup within 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(path.join(env.SITEWARD_DATA_DIR!, 'server.pid'))).toBe(false);
    const list = run(['backup', 'list', '--format', 'json'], env);
    const [id] = (JSON.parse(list.stdout) as { id: string }[]).map((b) => b.id);
    for (const attempt of ['first', 'second']) {
      const restored = run(['backup', 'restore', id!], env);
      expect(restored.stderr, `${attempt} restore`).toBe('');
      expect(restored.status).toBe(0);
    }
  }, 120_000);

  it('keeps a second server off a data directory in use, with one line naming the first', async () => {
    const env = envFor('second');
    const first = await start(env);
    expect(first.output()).toContain('REST API:');
    const pidFile = path.join(env.SITEWARD_DATA_DIR!, 'server.pid');
    const record = readFileSync(pidFile, 'utf8');
    const second = await start(env);
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000));
    expect(await Promise.race([second.exited, timeout])).toBe(1);
    expect(second.output().trim()).toMatch(
      new RegExp(
        `^Another Siteward server \\(pid ${first.child.pid} on [^)]+\\) is running on the data directory .*server\\.pid.*SITEWARD_DATA_DIR\\.$`,
      ),
    );
    expect(second.output().trim().split('\n')).toHaveLength(1);
    // The first server's record is untouched and it still serves.
    expect(readFileSync(pidFile, 'utf8')).toBe(record);
    expect((await fetch(`http://127.0.0.1:${first.port}/healthz`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 120_000);
});
