import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let now = Date.UTC(2026, 0, 5, 9, 0, 0);
const mails: { to: string[]; data: string }[] = [];
let smtp: SmtpCapture;
let app: TestApp;

// One browser: the same pre-session cookie on every form, so answers compare byte for byte.
const form = (body: string) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    origin: 'http://example.org',
    cookie: 'siteward_form=AAAAAAAAAAAAAAAAAAAAAAAA',
  },
  body,
});

/** Waits (polling, bounded well inside the test's timeout, so a loaded machine only slows it) for the `count`th e-mail. */
async function nextMail(count: number): Promise<{ to: string[]; data: string }> {
  await vi.waitUntil(() => mails.length >= count, { timeout: 20_000, interval: 10 }).catch(() => undefined);
  const mail = mails[count - 1];
  if (!mail) throw new Error('no e-mail arrived');
  return mail;
}

function linkIn(mail: { data: string }): string {
  const match = /http:\/\/example\.org(\/login\/reset-password\?login=[^\s]+&key=[A-Za-z0-9_-]+)/.exec(mail.data);
  if (!match) throw new Error(`no link in ${mail.data}`);
  return match[1]!;
}

beforeAll(async () => {
  smtp = await startSmtpCapture((mail) => mails.push({ to: mail.to, data: mail.data.replace(/=3D/g, '=') }));
  app = await createTestApp({ env: { SITEWARD_SMTP_URL: smtp.url }, clock: () => now, startJobs: false });
  await app.app.users.create({ login: 'rita', email: 'rita@example.org', role: 'editor', password: 'old-password-1' });
  await app.app.users.create({ login: 'sam', email: 'sam@example.org', role: 'editor', password: 'old-password-1' });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('password reset by e-mail', () => {
  it('is offered on the login page', async () => {
    const login = await app.request({ path: '/login' });
    expect(login.text).toContain('href="/login/lost-password"');
    expect((await app.request({ path: '/login/lost-password' })).text).toContain('name="user_login"');
  });

  it('answers the same for an unknown account and sends nothing', async () => {
    const known = await app.request({ path: '/login/lost-password', ...form('user_login=rita') });
    await nextMail(1);
    const unknown = await app.request({ path: '/login/lost-password', ...form('user_login=nobody') });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    // No sleep: a request for another account after it is sent; a mail for the unknown one would
    // have been handed to the mailer first.
    await app.request({ path: '/login/lost-password', ...form('user_login=sam') });
    await nextMail(2);
    expect(mails.map((m) => m.to)).toEqual([['rita@example.org'], ['sam@example.org']]);
  });

  it('sets a new password through the e-mailed link, once', async () => {
    const link = linkIn(mails[0]!);
    const page = await app.request({ path: link });
    expect(page.status).toBe(200);
    const key = /name="key" value="([^"]+)"/.exec(page.text)![1]!;
    const saved = await app.request({ path: '/login/reset-password', ...form(`login=rita&key=${key}&password=new-password-2`) });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe('/login?password_reset=done');
    expect((await app.request({ path: '/login?password_reset=done' })).text).toContain('Your password has been reset.');
    expect((await app.request({ method: 'POST', path: '/login', body: { username: 'rita', password: 'old-password-1' } })).status).toBe(
      401,
    );
    expect((await app.request({ method: 'POST', path: '/login', body: { username: 'rita', password: 'new-password-2' } })).status).toBe(
      200,
    );
    // Single use.
    expect((await app.request({ path: link })).status).toBe(400);
    expect((await app.request({ path: '/login/reset-password', ...form(`login=rita&key=${key}&password=third-password-3`) })).status).toBe(
      400,
    );
  });

  it('refuses a link after one hour and a forged key', async () => {
    await app.request({ path: '/login/lost-password', ...form('user_login=rita@example.org') });
    const link = linkIn(await nextMail(3));
    expect((await app.request({ path: link.replace(/key=[^&]+$/, 'key=forged') })).status).toBe(400);
    now += 3_600_001;
    const expired = await app.request({ path: link });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('invalid, used or expired');
  });

  it('limits requests per address, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await app.request({ path: '/login/lost-password', ...form('user_login=nobody') })).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    const refused = await app.request({ path: '/login/lost-password', ...form('user_login=nobody') });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
  });

  it('says how to reset a password when the site cannot send e-mail', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.request({ path: '/login/lost-password', ...form('user_login=anyone') });
      expect(res.status).toBe(200);
      expect(res.text).toContain('siteward user set-password');
      // Before anyone types: the form page itself says e-mail is not configured and what to do, above the form.
      const page = await plain.request({ path: '/login/lost-password' });
      expect(page.status).toBe(200);
      const notice = page.text.indexOf('E-mail is not configured on this site');
      expect(notice).toBeGreaterThan(-1);
      expect(notice).toBeLessThan(page.text.indexOf('<form'));
      expect(page.text).toContain('Ask an administrator');
      expect(page.text).toContain('siteward user set-password &lt;login&gt;');
    } finally {
      await plain.close();
    }
  });
});

describe('a password reset link posted several times at once', () => {
  it('sets the password once; the other posts get the used-link answer', async () => {
    const site = await createTestApp({ env: { SITEWARD_SMTP_URL: smtp.url } });
    try {
      await site.app.users.create({ login: 'tess', email: 'tess@example.org', role: 'editor', password: 'old-password-1' });
      const before = mails.length;
      await site.request({ path: '/login/lost-password', ...form('user_login=tess') });
      const link = linkIn(await nextMail(before + 1));
      const key = new URL(link, 'http://example.org').searchParams.get('key')!;
      // A weak password is refused with the reason, and the link still works.
      const weak = await site.request({ path: '/login/reset-password', ...form(`login=tess&key=${key}&password=password`) });
      expect(weak.status).toBe(400);
      expect(weak.text).toContain('This password is too easy to guess');
      expect(weak.text).toContain('name="key"');
      const posts = await Promise.all(
        ['first', 'second', 'third', 'fourth'].map((n) =>
          site.request({ path: '/login/reset-password', ...form(`login=tess&key=${key}&password=${n}-Quartz-Lantern-93`) }),
        ),
      );
      expect(posts.map((p) => p.status).sort()).toEqual([302, 400, 400, 400]);
      for (const lost of posts.filter((p) => p.status === 400)) expect(lost.text).toContain('invalid, used or expired');
      const winner = ['first', 'second', 'third', 'fourth'][posts.findIndex((p) => p.status === 302)]!;
      expect(
        (await site.request({ method: 'POST', path: '/login', body: { username: 'tess', password: `${winner}-Quartz-Lantern-93` } }))
          .status,
      ).toBe(200);
    } finally {
      await site.close();
    }
  });
});
