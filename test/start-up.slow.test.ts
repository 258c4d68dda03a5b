import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

// The built command (`npm run build:server`), run as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const baseEnv = { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, 'data') };

/** Runs `siteward start …` until its banner, then stops it; returns what it printed. */
async function startAndStop(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [bin, 'start', ...args], { cwd: dir, env: { ...baseEnv, ...env } });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve) => {
    const read = (d: Buffer) => {
      out += d.toString();
      if (out.includes('REST API:')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => resolve());
  });
  child.kill('SIGTERM');
  await exited;
  return out;
}

describe('starting the server', () => {
  it('warns when --host 0.0.0.0 is used without SITEWARD_HOME_URL, and not when it is set', async () => {
    const port = String(await freePort());
    const out = await startAndStop(['--host', '0.0.0.0', '--port', port]);
    expect(out).toContain(
      `Warning: listening on 0.0.0.0 without SITEWARD_HOME_URL, so links and REST URLs would say http://0.0.0.0:${port}/, which no client can open: set SITEWARD_HOME_URL to the address clients use`,
    );
    const configured = await startAndStop(['--host', '0.0.0.0', '--port', port], { SITEWARD_HOME_URL: `http://127.0.0.1:${port}` });
    expect(configured).toContain('REST API:');
    expect(configured).not.toContain('SITEWARD_HOME_URL');
  }, 90_000);

  it("prints the running server's /setup link when the last administrator is deleted, whatever port the command's settings say", async () => {
    const env = { ...baseEnv, SITEWARD_DATA_DIR: path.join(dir, 'setup-link') };
    const cli = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(
      cli(['user', 'create', 'boss', '--email', 'boss@example.org', '--role', 'administrator', '--password', 'a long boss password'])
        .status,
    ).toBe(0);
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start', '--port', String(port)], { cwd: dir, env });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      let out = '';
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (d: Buffer) => ((out += d.toString()).includes('REST API:') ? resolve() : undefined)),
      );
      // The command runs with the default settings (port 8080); the server listens elsewhere.
      const deleted = cli(['user', 'delete', 'boss', '--force']);
      expect(deleted.stdout).toMatch(
        new RegExp(`^No administrator is left\\. Create one: http://127\\.0\\.0\\.1:${port}/setup\\?token=[\\w-]+$`, 'm'),
      );
      const link = /http:\S+/.exec(deleted.stdout)![0];
      expect((await fetch(link)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);

  it('names SITEWARD_DATABASE_URL and the address tried when PostgreSQL cannot be reached', async () => {
    const port = await freePort();
    const url = `postgres://siteward:s3cret@127.0.0.1:${port}/siteward`;
    for (const args of [
      ['start', '--port', '0'],
      ['user', 'list'],
    ]) {
      const res = spawnSync(process.execPath, [bin, ...args], {
        cwd: dir,
        env: { ...baseEnv, SITEWARD_DATABASE_URL: url },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(res.status).toBe(1);
      expect(res.stderr.trim()).toBe(
        `SITEWARD_DATABASE_URL (config "databaseUrl"): cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED); check the host and port and that the server runs.`,
      );
      expect(res.stderr).not.toContain('s3cret');
    }
  }, 90_000);
});
