/**
 * Blocks you can see and lift, through the production paths: a blocked address is listed (REST,
 * CLI), lifted by REST, by `siteward protect unblock` and by its e-mailed link (single use,
 * short-lived), and the lifting holds on another worker of the same store at once. Real peers:
 * an SMTP capture server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';
import { cellsUnder } from '../../../test/helpers/table-cells.js';
import { main } from '../../cli.js';

// Starts at the real time: `siteward protect` (the CLI, another process's view) reads the real clock.
let now = Date.now();
const clock = () => now;
const PASSWORD = 'correct horse battery';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };

const root = mkdtempSync(path.join(tmpdir(), 'siteward-protect-blocks-'));
const dataDir = path.join(root, 'data');
const configFile = path.join(root, 'siteward.config.json');
let smtp: SmtpCapture;
const mails: CapturedMail[] = [];
let app: TestApp;
let second: TestApp; // another worker on the same store
let admin: LoggedIn;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function loginFrom(address: string, login: string, password: string, target: TestApp = app): Promise<TestResponse> {
  return target.request({
    method: 'POST',
    path: '/login',
    headers: { ...FORM, 'X-Forwarded-For': address },
    body: `log=${encodeURIComponent(login)}&pwd=${encodeURIComponent(password)}`,
  });
}

/** Five failures (the default threshold) from `address`, trying `logins` in turn. */
async function block(address: string, logins: readonly string[] = ['victim']): Promise<void> {
  for (let i = 0; i < 5; i += 1) expect((await loginFrom(address, logins[i % logins.length]!, 'wrong-password')).status).toBe(401);
  expect((await loginFrom(address, 'victim', PASSWORD)).status).toBe(429);
}

interface BlockJson {
  address: string;
  last_address: string;
  active: boolean;
  level: number;
  failures: number;
  blocked_attempts: number;
  usernames: string[];
  first_attempt: string;
  last_attempt: string;
  blocked_at: string;
  blocked_until: string;
  lifted_at: string | null;
  lifted_by: string | null;
}

async function blocks(query = ''): Promise<{ res: TestResponse; items: BlockJson[] }> {
  const res = await app.request({ path: `/wp-json/siteward/v1/protect/blocks${query}`, headers: app.auth(admin) });
  return { res, items: res.json as BlockJson[] };
}

async function nextMail(count: number): Promise<CapturedMail> {
  await vi.waitUntil(() => mails.length >= count, { timeout: 20_000, interval: 10 }).catch(() => undefined);
  const mail = mails[count - 1];
  if (!mail) throw new Error('no e-mail arrived');
  return mail;
}

function unlockLinkIn(mail: CapturedMail): string {
  const match = /http:\/\/example\.org(\/login\/unlock\?key=[A-Za-z0-9_-]+)/.exec(mail.data.replace(/=3D/g, '='));
  if (!match) throw new Error(`no link in ${mail.data}`);
  return match[1]!;
}

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(stores)('on %s', (backend) => {
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    mails.length = 0;
    if (backend === 'postgres') schema = await freshPgSchema();
    smtp = await startSmtpCapture((mail) => mails.push(mail));
    const database: Record<string, string> = schema ? { SITEWARD_DATABASE_URL: schema.url } : {};
    // The login form's challenge (after 3 failures) has its own tests (login/login-challenge.http.test.ts).
    const env = {
      SITEWARD_TRUST_PROXY: '1',
      SITEWARD_SMTP_URL: smtp.url,
      SITEWARD_PROTECT_BLOCK: '3600',
      SITEWARD_PROTECT_CHALLENGE_AFTER: '0',
      ...database,
    };
    writeFileSync(
      configFile,
      JSON.stringify({ dataDir, homeUrl: 'http://example.org', protectBlock: 3600, ...(schema ? { databaseUrl: schema.url } : {}) }),
    );
    app = await createTestApp({ clock, startJobs: false, env, dataDir });
    second = await createTestApp({ clock, startJobs: false, env, dataDir });
    admin = await app.loginAs('administrator', { login: 'boss' });
    const created = await app.app.users.create({ login: 'victim', email: 'victim@example.org', role: 'administrator', password: PASSWORD });
    if (!created.ok) throw new Error(created.error.message);
  });
  afterAll(async () => {
    await second.close();
    await app.close();
    await smtp.close();
    await schema?.drop();
  });

  describe('the block list', () => {
    it('lists a blocked address with its failures, the usernames tried, its times and level', async () => {
      const started = now;
      await block('203.0.113.5', ['victim', 'admin', 'root']);
      now += 1000;
      await loginFrom('203.0.113.5', 'guest', 'x'); // refused while blocked: counted, listed
      const { res, items } = await blocks();
      expect(res.status).toBe(200);
      expect(res.headers['x-wp-total']).toBe('1');
      expect(res.headers['x-wp-totalpages']).toBe('1');
      expect(items[0]).toMatchObject({
        address: '203.0.113.5',
        last_address: '203.0.113.5',
        active: true,
        level: 1,
        failures: 5,
        blocked_attempts: 2,
        usernames: ['admin', 'guest', 'root', 'victim'],
        first_attempt: new Date(started).toISOString(),
        last_attempt: new Date(now).toISOString(),
        blocked_until: new Date(started + 3600_000).toISOString(),
        lifted_at: null,
      });
    });

    it('lists an IPv6 client by its /64', async () => {
      await block('2001:db8:1:2::7');
      const { items } = await blocks();
      expect(items[0]).toMatchObject({ address: '2001:db8:1:2::/64', last_address: '2001:db8:1:2::7', active: true });
    });

    it('lists the failed and refused attempts, newest first, paged like WordPress', async () => {
      const res = await app.request({ path: '/wp-json/siteward/v1/protect/attempts?per_page=3', headers: app.auth(admin) });
      expect(res.status).toBe(200);
      const total = Number(res.headers['x-wp-total']);
      expect(total).toBeGreaterThanOrEqual(12);
      expect(res.headers['x-wp-totalpages']).toBe(String(Math.ceil(total / 3)));
      expect(res.headers.link).toContain('rel="next"');
      expect(res.headers.link).toContain('per_page=3');
      const items = res.json as { address: string; login: string; outcome: string }[];
      expect(items).toHaveLength(3);
      expect(items[0]).toMatchObject({ address: '2001:db8:1:2::7', outcome: 'refused' });
      expect(items[1]).toMatchObject({ address: '2001:db8:1:2::7', login: 'victim', outcome: 'failed' });
    });

    it('pages blocks and refuses a page past the last', async () => {
      const { res, items } = await blocks('?per_page=1&page=2');
      expect(items.map((b) => b.address)).toEqual(['203.0.113.5']);
      expect(res.headers['x-wp-totalpages']).toBe('2');
      expect(res.headers.link).toContain('rel="prev"');
      const past = await blocks('?per_page=1&page=3');
      expect(past.res.status).toBe(400);
      expect((past.res.json as { code: string }).code).toBe('rest_invalid_page_number');
    });

    it('is for administrators only, and the namespace index documents it', async () => {
      const editor = await app.loginAs('editor');
      expect((await app.request({ path: '/wp-json/siteward/v1/protect/blocks', headers: app.auth(editor) })).status).toBe(403);
      expect((await app.request({ path: '/wp-json/siteward/v1/protect/blocks' })).status).toBe(401);
      const index = await app.request({ path: '/wp-json/siteward/v1' });
      const routes = (index.json as { routes: Record<string, { endpoints: { methods: string[]; args: Record<string, unknown> }[] }> })
        .routes;
      expect(Object.keys(routes)).toEqual(expect.arrayContaining(['/siteward/v1/protect/blocks', '/siteward/v1/protect/attempts']));
      expect(Object.keys(routes['/siteward/v1/protect/blocks']!.endpoints[0]!.args)).toEqual(
        expect.arrayContaining(['page', 'per_page', 'active']),
      );
    });

    it('prints the blocks in force with `siteward protect list`', async () => {
      const listed = await cli('protect', 'list');
      expect(listed.code).toBe(0);
      const [header, ...lines] = listed.out.split('\n').filter(Boolean);
      expect(header).toMatch(/^ADDRESS +STATE +FAILURES +REFUSED +FIRST +LAST +USERNAMES$/);
      const v4 = lines.find((l) => l.startsWith('203.0.113.5 '))!;
      const [state, usernames] = cellsUnder(header!, v4, ['STATE', 'USERNAMES']);
      expect(state).toMatch(/^blocked until \d{4}-/);
      expect(usernames).toBe('admin, guest, root, victim');
      expect(lines.some((l) => l.startsWith('2001:db8:1:2::/64 '))).toBe(true);
    });
  });

  describe('lifting a block', () => {
    it('by REST: logged in the list and in force on the other worker at once', async () => {
      expect((await loginFrom('203.0.113.5', 'victim', PASSWORD, second)).status).toBe(429);
      const res = await app.request({
        method: 'DELETE',
        path: '/wp-json/siteward/v1/protect/blocks/203.0.113.5',
        headers: app.auth(admin),
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ unblocked: true, address: '203.0.113.5' });
      expect((await loginFrom('203.0.113.5', 'victim', PASSWORD, second)).status).toBe(302);
      const lifted = (await blocks()).items.find((b) => b.address === '203.0.113.5');
      expect(lifted).toMatchObject({ active: false, lifted_at: new Date(now).toISOString(), lifted_by: 'rest:boss' });
      const again = await app.request({
        method: 'DELETE',
        path: '/wp-json/siteward/v1/protect/blocks/203.0.113.5',
        headers: app.auth(admin),
      });
      expect(again.status).toBe(404);
      expect((again.json as { code: string }).code).toBe('protect_not_blocked');
      const bad = await app.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks/1.2.3', headers: app.auth(admin) });
      expect(bad.status).toBe(400);
    });

    it('by REST for an IPv6 /64, given with its suffix', async () => {
      const res = await app.request({
        method: 'DELETE',
        path: '/wp-json/siteward/v1/protect/blocks/2001:db8:1:2::/64',
        headers: app.auth(admin),
      });
      expect(res.json).toEqual({ unblocked: true, address: '2001:db8:1:2::/64' });
      expect((await loginFrom('2001:db8:1:2:ffff::1', 'victim', PASSWORD, second)).status).toBe(302);
    });

    it('refuses a /64 on an IPv4 address with 400 and keeps the IPv4 block in force', async () => {
      await block('10.1.1.1');
      for (const given of ['10.1.1.1/64', '::ffff:10.1.1.1/64']) {
        const res = await app.request({ method: 'DELETE', path: `/wp-json/siteward/v1/protect/blocks/${given}`, headers: app.auth(admin) });
        expect(res.status, given).toBe(400);
        expect(res.json, given).toMatchObject({ code: 'protect_invalid_address' });
        expect((res.json as { message: string }).message, given).toContain('/64 is a prefix of IPv6 addresses only');
      }
      expect((await loginFrom('10.1.1.1', 'victim', PASSWORD, second)).status).toBe(429);
      const lifted = await app.request({
        method: 'DELETE',
        path: '/wp-json/siteward/v1/protect/blocks/10.1.1.1',
        headers: app.auth(admin),
      });
      expect(lifted.json).toEqual({ unblocked: true, address: '10.1.1.1' });
    });

    it('by the CLI, one address or all, while the server runs', async () => {
      await block('198.51.100.8');
      await block('198.51.100.9');
      const one = await cli('protect', 'unblock', '198.51.100.8');
      expect(one).toMatchObject({ code: 0, out: 'unblocked 198.51.100.8' });
      expect((await loginFrom('198.51.100.8', 'victim', PASSWORD, second)).status).toBe(302);
      expect((await loginFrom('198.51.100.9', 'victim', PASSWORD, second)).status).toBe(429);
      const none = await cli('protect', 'unblock', '198.51.100.8');
      expect(none.code).toBe(1);
      expect(none.err).toContain('198.51.100.8 is not blocked.');
      const all = await cli('protect', 'unblock', '--all');
      expect(all).toMatchObject({ code: 0, out: 'unblocked 198.51.100.9' });
      expect((await loginFrom('198.51.100.9', 'victim', PASSWORD, app)).status).toBe(302);
      expect((await blocks()).items.find((b) => b.address === '198.51.100.9')?.lifted_by).toBe('cli');
      expect((await cli('protect', 'unblock')).code).toBe(2);
    });

    it('forgives: a lifted block does not count towards the escalated (24-hour) block', async () => {
      for (let i = 0; i < 3; i += 1) {
        await block('198.51.100.20');
        await app.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks/198.51.100.20', headers: app.auth(admin) });
      }
      await block('198.51.100.20'); // the 4th within 24 hours: escalated, unless the lifted ones were forgiven
      const fourth = (await blocks('?active=true')).items.find((b) => b.address === '198.51.100.20');
      expect(fourth).toMatchObject({ level: 1, blocked_until: new Date(now + 3600_000).toISOString() });
      await app.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks/198.51.100.20', headers: app.auth(admin) });
    });

    it('all at once by REST', async () => {
      await block('198.51.100.10');
      const res = await app.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks', headers: app.auth(admin) });
      expect(res.json).toEqual({ unblocked: ['198.51.100.10'] });
      expect((await blocks('?active=true')).items).toEqual([]);
    });
  });

  describe('the e-mailed unlock link', () => {
    const ADDRESS = '192.0.2.44';
    const unlockForm = (login: string, from = ADDRESS) =>
      app.request({
        method: 'POST',
        path: '/login/unlock',
        headers: { ...FORM, 'X-Forwarded-For': from },
        body: `user_login=${encodeURIComponent(login)}`,
      });

    it('is offered on the 429 page of the login form', async () => {
      await block(ADDRESS);
      const page = await loginFrom(ADDRESS, 'victim', PASSWORD);
      expect(page.status).toBe(429);
      expect(page.text).toContain('action="/login/unlock"');
      expect(page.text).toContain('E-mail me an unlock link');
      expect(page.text).toContain(ADDRESS);
    });

    it('answers the same whether the account exists or not, and mails only the account', async () => {
      const known = await unlockForm('victim');
      await nextMail(1);
      const unknown = await unlockForm('nobody@example.org');
      expect(unknown.status).toBe(known.status);
      expect(unknown.text.replace(/name="_siteward_form" value="[^"]*"/g, '')).toBe(
        known.text.replace(/name="_siteward_form" value="[^"]*"/g, ''),
      );
      // Another request after it: a mail for the unknown account would have been handed over first.
      await unlockForm('victim@example.org');
      await nextMail(2);
      expect(mails.map((m) => m.to)).toEqual([['victim@example.org'], ['victim@example.org']]);
    });

    it('lifts the block of the address that asked for it, once', async () => {
      const link = unlockLinkIn(mails[0]!);
      // Opening the link (a mail scanner does) uses nothing: a button does.
      const page = await app.request({ path: link });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`This lifts the block on ${ADDRESS}`);
      expect((await loginFrom(ADDRESS, 'victim', PASSWORD)).status).toBe(429);
      const key = new URL(link, 'http://example.org').searchParams.get('key')!;
      const confirm = () =>
        app.request({
          method: 'POST',
          path: '/login/unlock/confirm',
          headers: { ...FORM, 'X-Forwarded-For': '203.0.113.200' },
          body: `key=${key}`,
        });
      const used = await confirm();
      expect(used.status).toBe(200);
      expect(used.text).toContain(`The block on ${ADDRESS} is lifted.`);
      expect((await loginFrom(ADDRESS, 'victim', PASSWORD, second)).status).toBe(302);
      expect((await blocks()).items.find((b) => b.address === ADDRESS)?.lifted_by).toBe('link:victim');
      const twice = await confirm();
      expect(twice.status).toBe(400);
      expect(twice.text).toContain('invalid, used or expired');
      expect((await app.request({ path: link })).status).toBe(400);
    });

    it('expires after 15 minutes', async () => {
      await block(ADDRESS);
      await unlockForm('victim');
      const link = unlockLinkIn(await nextMail(3));
      now += 15 * 60_000 + 1;
      expect((await app.request({ path: link })).status).toBe(400);
      const key = new URL(link, 'http://example.org').searchParams.get('key')!;
      const late = await app.request({ method: 'POST', path: '/login/unlock/confirm', headers: FORM, body: `key=${key}` });
      expect(late.status).toBe(400);
      expect((await loginFrom(ADDRESS, 'victim', PASSWORD)).status).toBe(429);
    });

    it('is not sent for an address that is not blocked, and an address asks at most 5 times an hour', async () => {
      await app.app.users.create({ login: 'other', email: 'other@example.org', role: 'editor', password: PASSWORD });
      expect((await unlockForm('victim', '192.0.2.99')).status).toBe(200);
      expect((await unlockForm('other')).status).toBe(200); // the 5th from this address
      const mail = await nextMail(4);
      // Sent after the one for the unblocked address would have been.
      expect(mails.map((m) => m.to)).toEqual([
        ['victim@example.org'],
        ['victim@example.org'],
        ['victim@example.org'],
        ['other@example.org'],
      ]);
      expect(mail.data).toContain(ADDRESS);
      expect((await unlockForm('other')).status).toBe(429);
    });
  });

  describe('without SMTP', () => {
    let bare: TestApp;
    beforeAll(async () => {
      bare = await createTestApp({ clock, startJobs: false, env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0' } });
      await bare.app.users.create({ login: 'victim', email: 'victim@example.org', role: 'administrator', password: PASSWORD });
    });
    afterAll(() => bare.close());

    it('the 429 page says whom to ask and which command lifts the block', async () => {
      for (let i = 0; i < 5; i += 1) await loginFrom('203.0.113.77', 'victim', 'wrong', bare);
      const page = await loginFrom('203.0.113.77', 'victim', PASSWORD, bare);
      expect(page.status).toBe(429);
      expect(page.text).not.toContain('E-mail me an unlock link');
      expect(page.text).toContain('E-mail is not configured on this site');
      expect(page.text).toContain('siteward protect unblock 203.0.113.77');
      const asked = await bare.request({
        method: 'POST',
        path: '/login/unlock',
        headers: { ...FORM, 'X-Forwarded-For': '203.0.113.77' },
        body: 'user_login=victim',
      });
      expect(asked.status).toBe(200);
      expect(asked.text).toContain('siteward protect unblock 203.0.113.77');
    });
  });

  describe('CIDR allow-list entries', () => {
    it('exempt the IPv4 and IPv6 blocks they cover, and only those', async () => {
      const saved = await app.request({
        method: 'PUT',
        path: '/wp-json/jetpack/v4/module/protect',
        headers: app.auth(admin),
        body: { jetpack_protect_global_whitelist: '100.64.0.0/24, 2001:db8:aaaa::/48' },
      });
      expect(saved.status).toBe(200);
      const shown = await app.request({ path: '/wp-json/jetpack/v4/module/protect', headers: app.auth(admin) });
      expect(JSON.stringify(shown.json)).toContain('100.64.0.0/24');
      for (const address of ['100.64.0.200', '2001:db8:aaaa:1::5']) {
        for (let i = 0; i < 7; i += 1) expect((await loginFrom(address, 'victim', 'wrong')).status).toBe(401);
        expect((await loginFrom(address, 'victim', PASSWORD)).status).toBe(302);
      }
      await block('100.64.1.1');
      await block('2001:db8:aaab::1');
      const bad = await app.request({
        method: 'PUT',
        path: '/wp-json/jetpack/v4/module/protect',
        headers: app.auth(admin),
        body: { jetpack_protect_global_whitelist: '10.0.0.0/33' },
      });
      expect(bad.status).toBe(400);
    });
  });
});
