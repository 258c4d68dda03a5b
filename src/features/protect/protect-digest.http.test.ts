/**
 * Who is told when Protect blocks an address: the chosen administrators by e-mail (a real SMTP
 * capture server) and the monitor's webhook when chosen (a real receiver), at most one digest an
 * hour; the blocks in between go out with the next one (the job, on the injected clock).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';

let now = Date.UTC(2026, 2, 2, 9, 0, 0);
const HOUR = 3_600_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };
let smtp: SmtpCapture;
const mails: CapturedMail[] = [];
let hooks: WebhookReceiver;
let app: TestApp;
let boss: LoggedIn;

async function block(address: string): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await app.request({ method: 'POST', path: '/login', headers: { ...FORM, 'X-Forwarded-For': address }, body: 'log=boss&pwd=wrong' });
  }
}

async function nextMail(count: number): Promise<CapturedMail> {
  await vi.waitUntil(() => mails.length >= count, { timeout: 20_000, interval: 10 }).catch(() => undefined);
  const mail = mails[count - 1];
  if (!mail) throw new Error('no e-mail arrived');
  return mail;
}

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('on %s', (backend) => {
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    mails.length = 0;
    if (backend === 'postgres') schema = await freshPgSchema();
    smtp = await startSmtpCapture((mail) => mails.push(mail));
    hooks = await startWebhookReceiver();
    const database: Record<string, string> = schema ? { SITEWARD_DATABASE_URL: schema.url } : {};
    app = await createTestApp({
      clock: () => now,
      startJobs: false,
      env: {
        SITEWARD_TRUST_PROXY: '1',
        SITEWARD_SMTP_URL: smtp.url,
        SITEWARD_MONITOR_WEBHOOK: hooks.url,
        SITEWARD_PROTECT_CHALLENGE_AFTER: '0',
        ...database,
      },
    });
    boss = await app.loginAs('administrator', { login: 'boss' });
    await app.app.users.create({ login: 'deputy', email: 'deputy@example.org', role: 'administrator', password: 'deputy-password-1' });
  });
  afterAll(async () => {
    await app.close();
    await hooks.close();
    await smtp.close();
    await schema?.drop();
  });

  describe('block digests', () => {
    it('go to nobody until administrators are chosen', async () => {
      await block('203.0.113.1');
      const res = await app.request({ path: '/wp-json/siteward/v1/protect/notifications', headers: app.auth(boss) });
      expect(res.json).toMatchObject({ administrators: [], webhook: false, mail_configured: true, webhook_configured: true });
      expect((res.json as { choices: { name: string }[] }).choices.map((c) => c.name).sort()).toEqual(['boss', 'deputy']);
    });

    it('take only administrators', async () => {
      const editor = await app.loginAs('editor');
      const refused = await app.request({
        method: 'POST',
        path: '/wp-json/siteward/v1/protect/notifications',
        headers: app.auth(boss),
        body: { administrators: [editor.userId] },
      });
      expect(refused.status).toBe(400);
      expect((refused.json as { code: string }).code).toBe('protect_invalid_notifications');
      const saved = await app.request({
        method: 'POST',
        path: '/wp-json/siteward/v1/protect/notifications',
        headers: app.auth(boss),
        body: { administrators: [boss.userId], webhook: true },
      });
      expect(saved.status).toBe(200);
      expect(saved.json).toEqual({ administrators: [boss.userId], webhook: true });
    });

    it('tell the first block at once, by e-mail and webhook', async () => {
      now += 3 * HOUR; // the block from before the choice is old news
      await block('203.0.113.2');
      const mail = await nextMail(1);
      expect(mail.to).toEqual(['boss@example.org']);
      expect(mail.data).toContain('Protect blocked 203.0.113.2');
      expect(mail.data).not.toContain('203.0.113.1');
      const body = await hooks.next();
      expect(body).toMatchObject({ event: 'protect.blocked', blocks: [{ address: '203.0.113.2', failures: 5, level: 1 }] });
    });

    it('send at most one an hour: later blocks wait for the next digest', async () => {
      now += 20 * 60_000;
      await block('203.0.113.3');
      now += 20 * 60_000;
      await block('2001:db8:5:6::1');
      now += 19 * 60_000;
      await app.app.jobs.tick(); // 59 minutes after the first: too soon
      now += 60_000 + 1;
      await app.app.jobs.tick();
      const mail = await nextMail(2);
      // Had a block been told on its own, this digest would not hold both.
      expect(mail.data).toContain('Protect blocked 2 addresses');
      expect(mail.data).toContain('203.0.113.3');
      expect(mail.data).toContain('2001:db8:5:6::/64');
      expect(mail.data).not.toContain('203.0.113.2\t');
      expect(mails).toHaveLength(2);
      const body = await hooks.next();
      expect((body.blocks as { address: string }[]).map((b) => b.address)).toEqual(['203.0.113.3', '2001:db8:5:6::/64']);
      expect(hooks.bodies).toHaveLength(2);
    });

    it('after a quiet hour, tell the next block at once again', async () => {
      now += 61 * 60_000;
      await app.app.jobs.tick(); // nothing new: no digest, and the next block is not held back
      await block('203.0.113.4');
      const mail = await nextMail(3);
      expect(mail.data).toContain('Protect blocked 203.0.113.4');
      expect(mails).toHaveLength(3);
    });
  });
});
