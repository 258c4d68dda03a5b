import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// These tests run the built command (`npm test` builds first), as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const baseEnv = { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, 'data') };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...baseEnv, ...env }, encoding: 'utf8', timeout: 30_000 });
}

async function waitFor(url: string, ms = 15_000): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('the siteward command', () => {
  it('prints help', () => {
    const res = run(['--help']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('siteward <command>');
  });

  it('stops start-up with one line naming a bad setting', () => {
    const res = run(['start'], { SITEWARD_PERMALINKS: 'fancy' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('SITEWARD_PERMALINKS (config "permalinks") must be one of pretty, index, plain (got "fancy")');
  });

  it('stops start-up with a clear message when a plugin fails to load', () => {
    const res = run(['start'], { SITEWARD_PLUGINS: './missing-plugin.js', PORT: '0' });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/Plugin "\.\/missing-plugin\.js" could not be loaded/);
  });

  it('creates and lists users', () => {
    const created = run(['user', 'create', 'cliadmin', '--email', 'cli@example.org', '--role', 'administrator', '--password', 'cli-password-1']);
    expect(created.status, created.stderr).toBe(0);
    const dup = run(['user', 'create', 'cliadmin', '--email', 'other@example.org', '--role', 'editor', '--password', 'cli-password-1']);
    expect(dup.status).toBe(1);
    expect(run(['user', 'list']).stdout).toContain('cliadmin');
  });

  it('serves the index, logs one line per request and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start'], { cwd: dir, env: { ...baseEnv, PORT: String(port), SITEWARD_DATA_DIR: path.join(dir, 'serve') } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const res = await waitFor(`http://127.0.0.1:${port}/wp-json/`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { namespaces: string[] }).namespaces).toContain('jetpack/v4');
      expect(out).toMatch(/Create the first administrator: http:\/\/127\.0\.0\.1:\d+\/setup\?token=/);
      await new Promise((r) => setTimeout(r, 200));
      expect(out).toMatch(/"method":"GET","url":"\/wp-json\/","status":200/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('shutting down');
  });
});
