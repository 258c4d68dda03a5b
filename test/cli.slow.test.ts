import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './helpers/free-port.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresBinDir, startThrowawayPostgres } from './helpers/throwaway-postgres.js';

// These tests run the built command (`npm test` builds first), as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const baseEnv = { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, 'data') };

/** GET on a new connection each time, so that cluster spreads requests over the workers. */
async function getFresh(url: string, headers: Record<string, string>): Promise<unknown> {
  const { get } = await import('node:http');
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false, timeout: 5000 }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...baseEnv, ...env }, encoding: 'utf8', timeout: 90_000 });
}

/** `siteward --help`, run once for the two tests that read it (one CLI start less). */
let helpRun: ReturnType<typeof run> | undefined;
const help = () => (helpRun ??= run(['--help']));

/** Polls `check` every 50 ms until it holds, bounded by `ms`: a loaded machine only makes it slower. */
async function eventually(check: () => boolean, ms = 60_000): Promise<void> {
  await vi.waitUntil(check, { timeout: ms, interval: 50 });
}

async function waitFor(url: string, ms = 60_000): Promise<Response> {
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

/** A new session through the JSON login: its cookie and nonce as request headers. */
async function logIn(base: string, login: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: login, password }),
  });
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const { nonce } = (await res.json()) as { nonce: string };
  return { cookie, 'x-wp-nonce': nonce, 'content-type': 'application/json' };
}

/**
 * `siteward start --workers 2` on a fresh data directory holding one administrator, logged in
 * through the JSON login once both workers listen.
 */
async function twoWorkersLoggedIn(name: string, login: string, password: string) {
  const data = path.join(dir, name);
  const created = run(['user', 'create', login, '--email', `${login}@example.org`, '--role', 'administrator', '--password', password], {
    SITEWARD_DATA_DIR: data,
  });
  expect(created.status, created.stderr).toBe(0);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'start', '--workers', '2'], {
    cwd: dir,
    env: { ...baseEnv, PORT: String(port), SITEWARD_DATA_DIR: data },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/wp-json/`);
    await eventually(() => out.includes('with 2 workers'));
    const headers = await logIn(base, login, password);
    return { child, exited, base, headers, output: () => out };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

describe('the siteward command', () => {
  it('prints help', () => {
    const res = help();
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
    const created = run([
      'user',
      'create',
      'cliadmin',
      '--email',
      'cli@example.org',
      '--role',
      'administrator',
      '--password',
      'cli-password-1',
    ]);
    expect(created.status, created.stderr).toBe(0);
    const dup = run(['user', 'create', 'cliadmin', '--email', 'other@example.org', '--role', 'editor', '--password', 'cli-password-1']);
    expect(dup.status).toBe(1);
    expect(run(['user', 'list']).stdout).toContain('cliadmin');
  });

  it('manages the local account service without opening the site, even with a bad site setting', async () => {
    const data = path.join(dir, 'accounts', 'accounts.sqlite');
    const env = { SITEWARD_DATA_DIR: path.join(dir, 'site-never-opened'), SITEWARD_PERMALINKS: 'fancy', SITEWARD_ACCOUNTS_DATA: data };
    // Only `accounts start` creates the data file; the user commands refuse a missing one.
    expect(run(['accounts', 'user', 'list'], env).status).toBe(1);
    const service = spawn(process.execPath, [bin, 'accounts', 'start', '--port', '0'], { cwd: dir, env: { ...baseEnv, ...env } });
    await new Promise<void>((resolve) =>
      service.stdout.on('data', (d: Buffer) => (d.toString().includes('listening') ? resolve() : undefined)),
    );
    service.kill('SIGTERM');
    await new Promise((resolve) => service.on('exit', resolve));
    const added = run(
      ['accounts', 'user', 'add', 'ann', '--email', 'ann@example.com', '--name', 'Ann', '--password', 'correct horse'],
      env,
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Added ann \(sub \d+\)\./);
    expect(run(['accounts', 'user', 'list'], env).stdout).toMatch(/ann +ann@example\.com +no +Ann/);
    expect(run(['accounts', '--help'], env).stdout).toContain('siteward accounts user add');
    expect(run(['--help']).stdout).toContain('accounts [start]');
    expect(existsSync(path.join(dir, 'site-never-opened'))).toBe(false);
  }, 60_000);

  it('serves HTTPS directly with SITEWARD_TLS_CERT/KEY and builds https REST URLs', async (ctx) => {
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      ctx.skip();
    }
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start'], {
      cwd: dir,
      env: {
        ...baseEnv,
        PORT: String(port),
        SITEWARD_DATA_DIR: path.join(dir, 'tls'),
        SITEWARD_TLS_CERT: 'cert.pem',
        SITEWARD_TLS_KEY: 'key.pem',
        NODE_TLS_REJECT_UNAUTHORIZED: '0',
      },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const { request } = await import('node:https');
      const until = Date.now() + 60_000;
      let link: string | undefined;
      while (link === undefined) {
        link = await new Promise<string | undefined>((resolve) => {
          const req = request({ host: '127.0.0.1', port, path: '/wp-json/', rejectUnauthorized: false }, (res) => {
            res.resume();
            resolve(String(res.headers.link));
          });
          req.on('error', () => resolve(undefined));
          req.end();
        });
        if (link === undefined) {
          if (Date.now() > until) throw new Error('no TLS answer');
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(link).toBe(`<https://127.0.0.1:${port}/wp-json/>; rel="https://api.w.org/"`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  // Speed trick: these two tests share one two-worker server (a `user create` and a cluster start
  // less); each has its own session, and the server must still stop cleanly (exit 0) after both.
  describe('with two workers on one port', () => {
    let workers: Awaited<ReturnType<typeof twoWorkersLoggedIn>>;
    beforeAll(async () => {
      workers = await twoWorkersLoggedIn('workers', 'wadmin', 'workers-password');
    }, 120_000);
    afterAll(async () => {
      if (!workers) return;
      workers.child.kill('SIGTERM');
      expect(await workers.exited).toBe(0);
    }, 120_000);

    it('runs several workers on one port that see each other’s writes at once', async () => {
      const { base, headers, output } = workers;
      const pids = new Set<string>();
      for (const active of [true, false, true]) {
        const set = await fetch(`${base}/wp-json/jetpack/v4/module/markdown/active`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ active }),
        });
        expect(set.status).toBe(200);
        // Requests are spread over the workers: every one of them must see the write.
        for (let i = 0; i < 8; i++) {
          const all = (await getFresh(`${base}/wp-json/jetpack/v4/module/all`, headers)) as Record<string, { activated: boolean }>;
          expect(all.markdown!.activated).toBe(active);
        }
      }
      for (const line of output().split('\n')) {
        const pid = /"pid":(\d+)/.exec(line)?.[1];
        if (pid && line.includes('"url":"/wp-json/jetpack/v4/module/all"')) pids.add(pid);
      }
      expect(pids.size).toBe(2);
    });

    it('refuses a logged-out cookie on every worker at once', async () => {
      // A session of its own: the other test's goes on.
      const { base } = workers;
      const headers = await logIn(base, 'wadmin', 'workers-password');
      // Both workers verify (and cache) the cookie.
      for (let i = 0; i < 8; i++)
        expect(((await getFresh(`${base}/wp-json/jetpack/v4/module/all`, headers)) as Record<string, unknown>).markdown).toBeDefined();
      const logout = await fetch(`${base}/logout`, { method: 'POST', headers });
      expect(logout.status).toBe(200);
      let accepted = 0;
      for (let i = 0; i < 20; i++) {
        const write = await fetch(`${base}/wp-json/jetpack/v4/module/markdown/active`, {
          method: 'POST',
          headers: { ...headers, connection: 'close' },
          body: JSON.stringify({ active: i % 2 === 0 }),
        });
        if (write.status === 200) accepted++;
      }
      expect(accepted).toBe(0);
    });
  });

  it('names the option or setting at fault in one line: --port, HOST, an unknown option', () => {
    const port = run(['start', '--port', 'abc']);
    expect(port.status).toBe(1);
    expect(port.stderr.trim()).toBe('--port must be an integer from 0 to 65535 (got "abc")');
    const host = run(['start'], { HOST: '999.1.1.1' });
    expect(host.stderr.trim()).toBe('HOST (config "host") must be a host name or an IP address (got "999.1.1.1")');
    const unknown = run(['user', 'create', 'x', '--bogus']);
    expect(unknown.stderr.trim()).toBe("error: Unknown option '--bogus'");
  });

  it('stops with one line naming a busy port and what to do', async () => {
    const busy = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)),
    );
    try {
      const res = run(['start'], { PORT: String(port), SITEWARD_DATA_DIR: path.join(dir, 'busy') });
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toEqual([
        `Port ${port} is already in use on 127.0.0.1 (another Siteward or another server?): stop it, or choose another port with PORT or --port.`,
      ]);
    } finally {
      busy.close();
    }
  });

  it('documents every option in --help', () => {
    const { stdout } = help();
    for (const option of ['--display-name', '--format', '--porcelain', '--force', '--password-stdin']) expect(stdout).toContain(option);
    expect(stdout).toMatch(/generates one and prints it once/);
  });

  it('builds every URL with the port actually bound when started with PORT=0', async () => {
    const child = spawn(process.execPath, [bin, 'start'], {
      cwd: dir,
      env: { ...baseEnv, PORT: '0', SITEWARD_DATA_DIR: path.join(dir, 'port-zero') },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => /listening on 127\.0\.0\.1:\d+/.test(out));
      const port = /listening on 127\.0\.0\.1:(\d+)/.exec(out)![1]!;
      expect(port).not.toBe('0');
      const base = `http://127.0.0.1:${port}`;
      expect(out).toContain(`Siteward is running at ${base}/`);
      expect(out).toContain(`REST API: ${base}/wp-json/`);
      expect(out).toMatch(new RegExp(`Create the first administrator: ${base}/setup\\?token=`));
      expect(out).not.toContain(':0/');
      const index = await fetch(`${base}/wp-json/`);
      expect(index.headers.get('link')).toContain(`${base}/wp-json/`);
      expect(await index.json()).toMatchObject({ url: base, home: base });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('keeps replacing a worker while PostgreSQL is down and serves again when it returns', async (ctx) => {
    const binDir = postgresBinDir();
    if (!binDir) ctx.skip();
    const pg = await startThrowawayPostgres(binDir!);
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start'], {
      cwd: dir,
      env: {
        ...baseEnv,
        PORT: String(port),
        SITEWARD_DATA_DIR: path.join(dir, 'pg-outage'),
        SITEWARD_DATABASE_URL: pg.url,
        SITEWARD_DB_CONNECT_TIMEOUT_MS: '1000',
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      expect((await waitFor(`${base}/wp-json/`)).status).toBe(200);
      pg.stop();
      // The worker dies while the database is away; its replacements cannot start (migrations).
      const worker = Number(
        execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      );
      process.kill(worker, 'SIGKILL');
      await eventually(() => out.includes('could not start'));
      expect(out).toContain('could not start');
      expect(child.exitCode).toBeNull();
      pg.start();
      let status = 0;
      for (let i = 0; i < 150 && status !== 200; i++) {
        status = await fetch(`${base}/wp-json/`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
      pg.destroy();
    }
  }, 180_000);

  it('serves the index, logs one line per request and shuts down gracefully on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start'], {
      cwd: dir,
      env: { ...baseEnv, PORT: String(port), SITEWARD_DATA_DIR: path.join(dir, 'serve') },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const res = await waitFor(`http://127.0.0.1:${port}/wp-json/`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { namespaces: string[] }).namespaces).toContain('jetpack/v4');
      expect(out).toMatch(/Create the first administrator: http:\/\/127\.0\.0\.1:\d+\/setup\?token=/);
      // The log line is written after the answer: poll for it.
      await eventually(() => /"method":"GET","url":"\/wp-json\/","status":200/.test(out));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('shutting down');
  });
});
