/**
 * A blocked address as the person behind it and the operator see it: `/login` shows the block,
 * when it ends and the unlock offer at once (not a form that will refuse them), and the lockout
 * line of the log is a warning, which pino-pretty names WARN (a `level` field of its own made it
 * print USERLVL and broke the JSON line's level).
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const START = Date.UTC(2026, 11, 2, 10, 0, 0);
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };
const ADDRESS = '198.51.100.23';
let app: TestApp;
let smtp: SmtpCapture;
const lines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'info' }, pinoPretty({ destination: sink, colorize: false, sync: true, singleLine: true }));
  app = await createTestApp({
    clock: () => START,
    logger,
    env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_SMTP_URL: smtp.url, SITEWARD_PROTECT_CHALLENGE_AFTER: '0', SITEWARD_PROTECT_BLOCK: '900' },
  });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('a blocked address', () => {
  it('sees its block, its end and the unlock offer on /login at once; the log names the lockout a warning', async () => {
    const before = await app.request({ path: '/login', headers: { 'X-Forwarded-For': ADDRESS } });
    expect(before.status).toBe(200);
    expect(before.text).not.toContain('id="unlock"');
    for (let i = 0; i < 5; i += 1)
      await app.request({ method: 'POST', path: '/login', headers: { ...FORM, 'X-Forwarded-For': ADDRESS }, body: 'log=victim&pwd=wrong' });
    const page = await app.request({ path: '/login', headers: { 'X-Forwarded-For': ADDRESS } });
    expect(page.status).toBe(429);
    expect(page.headers['retry-after']).toBe('900');
    expect(page.text).toContain(
      'Too many failed login attempts from your address. Try again in 15 minutes. The block ends at 2026-12-02 10:15 UTC.',
    );
    expect(page.text).toContain('<form method="post" action="/login/unlock" id="unlock">');
    // Another address is not concerned.
    expect((await app.request({ path: '/login', headers: { 'X-Forwarded-For': '198.51.100.24' } })).status).toBe(200);
    const lockout = lines.find((l) => l.includes('address blocked after failed logins'));
    expect(lockout).toMatch(/^\[[^\]]+\] WARN \(\d+\): address blocked after failed logins /);
    expect(lockout).toContain('"blockLevel":1');
  });
});
