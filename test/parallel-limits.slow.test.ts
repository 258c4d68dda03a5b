/**
 * Limits that must hold under truly parallel requests, against the built server with two
 * workers (`siteward start --workers 2`), on SQLite and (with SITEWARD_TEST_PG) PostgreSQL:
 * Protect checks no more than its limit of passwords however many arrive at once, and a
 * password-reset link sets a password once however many times it is posted at once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { freshPgSchema, type PgSchema } from './helpers/pg-schema.js';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import { within } from './helpers/within.js';

const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const ADMIN_PASSWORD = 'Quartz-Lantern-Meadow-93';
const BURST = 100;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const backends = [{ name: 'SQLite', pg: false }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'PostgreSQL', pg: true }] : [])];

describe.each(backends)('two workers on $name under parallel requests', ({ pg }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-parallel-'));
  let schema: PgSchema | null = null;
  let smtp: SmtpCapture;
  const mails: string[] = [];
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let port: number;
  let env: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    smtp = await startSmtpCapture((mail) => mails.push(mail.data.replace(/=3D/g, '=').replace(/=\r?\n/g, '')));
    if (pg) schema = await freshPgSchema();
    port = await freePort();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      PORT: String(port),
      SITEWARD_DATA_DIR: path.join(dir, 'data'),
      SITEWARD_HOME_URL: `http://127.0.0.1:${port}`,
      SITEWARD_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      SITEWARD_SMTP_URL: smtp.url,
      ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
    };
    for (const [login, role] of [
      ['boss', 'administrator'],
      ['tess', 'editor'],
    ]) {
      const made = spawnSync(
        process.execPath,
        [bin, 'user', 'create', login!, '--email', `${login}@example.org`, '--role', role!, '--password', ADMIN_PASSWORD],
        { cwd: dir, env, encoding: 'utf8', timeout: 30_000 },
      );
      expect(made.status, made.stderr).toBe(0);
    }
    child = spawn(process.execPath, [bin, 'start', '--workers', '2'], { cwd: dir, env });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    await within(
      60_000,
      async () => out,
      (o) => o.includes('with 2 workers'),
      'both workers to listen',
    );
    const login = await send(
      port,
      'POST',
      '/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'boss', password: ADMIN_PASSWORD }),
    );
    expect(login.status, login.text).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    admin = { cookie, 'x-wp-nonce': (JSON.parse(login.text) as { nonce: string }).nonce, 'content-type': 'application/json' };
    const activated = await send(port, 'POST', '/wp-json/jetpack/v4/module/protect/active', admin, JSON.stringify({ active: true }));
    expect(activated.status, activated.text).toBe(200);
  }, 60_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await exited;
    await smtp?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`checks exactly SITEWARD_PROTECT_MAX_FAILURES (5) of ${BURST} simultaneous wrong passwords; the rest are refused before any check`, async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, () =>
        send(
          port,
          'POST',
          '/login',
          { 'content-type': 'application/json' },
          JSON.stringify({ username: 'tess', password: 'wrong-password' }),
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    // A 401 is a password that was checked and found wrong; a 429 a refusal before the check.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(BURST - 5);
    // Protect's own record: every refused attempt counted as blocked (the dashboard's number).
    const count = await send(port, 'GET', '/wp-json/jetpack/v4/module/protect/count/get', admin);
    expect(JSON.parse(count.text)).toBe(String(BURST - 5));
    // Still blocked for the right password too: the block holds across both workers.
    const right = await send(
      port,
      'POST',
      '/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'tess', password: ADMIN_PASSWORD }),
    );
    expect(right.status).toBe(429);
  }, 60_000);

  it('sets a password once when one reset link is posted four times at once', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: `http://127.0.0.1:${port}` };
    const asked = await send(port, 'POST', '/login/lost-password', form, 'user_login=tess');
    expect(asked.status).toBe(200);
    // The mail leaves a worker after the answer: a loaded machine only makes it later.
    await within(
      30_000,
      async () => mails.length,
      (n) => n > 0,
      'the reset mail',
    );
    const key = /key=([A-Za-z0-9_-]+)/.exec(mails[0] ?? '')?.[1];
    expect(key).toBeDefined();
    const posts = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        send(port, 'POST', '/login/reset-password', form, `login=tess&key=${key}&password=Amber-Falcon-Orbit-${n}${n}`),
      ),
    );
    expect(posts.map((p) => p.status).sort()).toEqual([302, 400, 400, 400]);
    for (const lost of posts.filter((p) => p.status === 400)) expect(lost.text).toContain('invalid, used or expired');
  }, 60_000);
});
