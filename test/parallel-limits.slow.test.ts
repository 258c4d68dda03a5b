/**
 * Limits that must hold under truly parallel requests, against the built server with two
 * workers (`siteward start --workers 2`), on SQLite and (with SITEWARD_TEST_PG) PostgreSQL:
 * Protect checks no more than its limit of passwords however many arrive at once, and a
 * password-reset link sets a password once however many times it is posted at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, type SmtpCapture } from './helpers/smtp-capture.js';
import { JSON_BODY, send, serverBackends, twoWorkerServer, type TwoWorkerServer } from './helpers/two-worker-server.js';
import { within } from './helpers/within.js';

const ADMIN_PASSWORD = 'Quartz-Lantern-Meadow-93';
const BURST = 100;

describe.each(serverBackends)('two workers on $name under parallel requests', ({ pg }) => {
  let server: TwoWorkerServer;
  let smtp: SmtpCapture;
  const mails: string[] = [];
  let port: number;
  let admin: Record<string, string>;

  beforeAll(async () => {
    smtp = await startSmtpCapture((mail) => mails.push(mail.data.replace(/=3D/g, '=').replace(/=\r?\n/g, '')));
    server = await twoWorkerServer({ prefix: 'siteward-parallel-', pg, env: { SITEWARD_SMTP_URL: smtp.url } });
    port = server.port;
    for (const [login, role] of [
      ['boss', 'administrator'],
      ['tess', 'editor'],
    ]) {
      server.cli(['user', 'create', login!, '--email', `${login}@example.org`, '--role', role!, '--password', ADMIN_PASSWORD]);
    }
    await server.start();
    admin = await server.login('boss', ADMIN_PASSWORD);
    const activated = await send(port, 'POST', '/wp-json/jetpack/v4/module/protect/active', admin, JSON.stringify({ active: true }));
    expect(activated.status, activated.text).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it(`checks exactly SITEWARD_PROTECT_MAX_FAILURES (5) of ${BURST} simultaneous wrong passwords; the rest are refused before any check`, async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, () =>
        send(port, 'POST', '/login', JSON_BODY, JSON.stringify({ username: 'tess', password: 'wrong-password' })),
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
    const right = await send(port, 'POST', '/login', JSON_BODY, JSON.stringify({ username: 'tess', password: ADMIN_PASSWORD }));
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
