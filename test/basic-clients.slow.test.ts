/**
 * Honest HTTP Basic clients and Protect's check slots, against the built server with two workers
 * (`siteward start --workers 2`) on SQLite and (with SITEWARD_TEST_PG) PostgreSQL: a valid
 * application password is never refused for lack of a slot, not under 48 parallel clients and
 * not right after a kill -9 left slots behind, while a burst of wrong passwords is still checked
 * exactly SITEWARD_PROTECT_MAX_FAILURES (5) times.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { freshPgSchema, type PgSchema } from './helpers/pg-schema.js';
import { within } from './helpers/within.js';

const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const PASSWORD = 'Quartz-Lantern-Meadow-93';
const CLIENTS = 48;

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request on a connection of its own, so the primary spreads them over both workers. */
function send(port: number, method: string, urlPath: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

const backends = [{ name: 'SQLite', pg: false }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'PostgreSQL', pg: true }] : [])];

describe.each(backends)('honest Basic clients of two workers on $name', ({ pg: onPg }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-basic-'));
  let schema: PgSchema | null = null;
  let child: ChildProcess;
  let exited: Promise<unknown>;
  let port: number;
  let env: Record<string, string>;
  const apps: string[] = [];

  const cli = (args: string[]) => {
    const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout.trim();
  };

  async function startServer(): Promise<void> {
    child = spawn(process.execPath, [bin, 'start', '--workers', '2'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    exited = new Promise((resolve) => child.on('exit', resolve));
    await within(
      60_000,
      async () => out,
      (o) => o.includes('with 2 workers'),
      'both workers to listen',
    );
  }

  /** Runs `statement` on the server's store from outside (SQLite file or PostgreSQL schema); answers the rows. */
  async function onStore<T>(statement: string): Promise<T[]> {
    if (schema) {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        return (await client.query(statement)).rows as T[];
      } finally {
        await client.end();
      }
    }
    const db = new Database(path.join(dir, 'data', 'siteward.db'));
    try {
      const prepared = db.prepare(statement);
      return prepared.reader ? (prepared.all() as T[]) : (prepared.run(), []);
    } finally {
      db.close();
    }
  }

  /** Check slots in the store (reservations of checks in progress, or of processes that died mid-check). */
  const pendingSlots = async () => Number((await onStore<{ n: unknown }>('SELECT count(*) AS n FROM protect_attempts'))[0]!.n);

  beforeAll(async () => {
    if (onPg) schema = await freshPgSchema();
    port = await freePort();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      PORT: String(port),
      SITEWARD_DATA_DIR: path.join(dir, 'data'),
      SITEWARD_HOME_URL: `http://127.0.0.1:${port}`,
      SITEWARD_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
    };
    cli(['user', 'create', 'boss', '--email', 'boss@example.org', '--role', 'administrator', '--password', PASSWORD]);
    for (const name of ['deploy', 'backup-script']) apps.push(cli(['app-password', 'create', 'boss', name, '--porcelain']));
    expect(apps.every((p) => /^[A-Za-z0-9 ]{24,}$/.test(p))).toBe(true);
    await startServer();
    const login = await send(
      port,
      'POST',
      '/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'boss', password: PASSWORD }),
    );
    expect(login.status, login.text).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const admin = { cookie, 'x-wp-nonce': (JSON.parse(login.text) as { nonce: string }).nonce, 'content-type': 'application/json' };
    const activated = await send(port, 'POST', '/wp-json/jetpack/v4/module/protect/active', admin, JSON.stringify({ active: true }));
    expect(activated.status, activated.text).toBe(200);
  }, 90_000);

  afterAll(async () => {
    if (child?.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`answers ${CLIENTS} parallel Basic clients with valid application passwords without a single 429`, async () => {
    const statuses: number[] = [];
    // Fresh credentials on both workers first (nothing verified yet), then again.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) => send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', apps[i % apps.length]!))),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('lets a valid Basic request in at once after a kill -9 in the middle of password checks', async () => {
    // Right passwords through the login form (each check takes tens of milliseconds), many at
    // once: their slots are held when the whole server is killed.
    let stop = false;
    const logins = Array.from({ length: 24 }, async () => {
      while (!stop) {
        await send(
          port,
          'POST',
          '/login',
          { 'content-type': 'application/json' },
          JSON.stringify({ username: 'boss', password: PASSWORD }),
        ).catch(() => undefined);
      }
    });
    await within(30_000, pendingSlots, (n) => n >= 3, 'password checks in progress');
    process.kill(-child.pid!, 'SIGKILL');
    stop = true;
    await exited;
    await Promise.all(logins);
    // What the dead processes left behind: reservations that nobody will give back. The kill
    // may land just as one was given back: copies of them make up the limit (5) exactly.
    const left = await pendingSlots();
    expect(left).toBeGreaterThan(0);
    const columns = (
      await onStore<{ name: string }>(
        schema
          ? "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'protect_attempts' AND table_schema = current_schema()"
          : "SELECT name FROM pragma_table_info('protect_attempts')",
      )
    )
      .map((c) => c.name)
      .filter((name) => name !== 'id')
      .join(', ');
    for (let n = left; n < 5; n++)
      await onStore(`INSERT INTO protect_attempts (${columns}) SELECT ${columns} FROM protect_attempts LIMIT 1`);
    expect(await pendingSlots()).toBe(Math.max(left, 5));

    await startServer();
    const answer = await send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', apps[0]!));
    // At once: not a 429 until the dead slots' time-to-live (60 s) has passed.
    expect(answer.status, answer.text).toBe(200);
    const login = await send(
      port,
      'POST',
      '/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'boss', password: PASSWORD }),
    );
    expect(login.status, login.text).toBe(200);
  }, 120_000);

  it('still checks exactly 5 of 100 simultaneous wrong Basic passwords; the rest are refused before any check', async () => {
    const wrong = 'AAAAbbbbCCCCddddEEEEffff';
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        // Half the same wrong password (one check in flight per credential must not share a failure), half different ones.
        send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', i % 2 === 0 ? wrong : `${wrong.slice(0, 20)}${String(1000 + i)}`)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
  }, 60_000);
});
