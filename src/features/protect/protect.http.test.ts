import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';

const START = Date.UTC(2024, 4, 1, 9, 0, 0);
let now = START;
const clock = () => now;
const advance = (seconds: number) => void (now += seconds * 1000);

const ATTACKER = '203.0.113.5';
const IPV6_ATTACKER = '2001:db8:1:2::7';
const IPV6_NEIGHBOUR = '2001:db8:1:2:ffff::1'; // same /64
const ALLOWED = '198.51.100.20';
const PASSWORD = 'correct horse battery';

let app: TestApp;
let second: TestApp; // another worker on the same data directory
let admin: LoggedIn;
let appPassword = '';

beforeAll(async () => {
  app = await createTestApp({ clock, startJobs: false, env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0' } });
  second = await createTestApp({
    clock,
    startJobs: false,
    env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0' },
    dataDir: app.app.config.dataDir,
  });
  admin = await app.loginAs('administrator');
  const created = await app.app.users.create({ login: 'victim', email: 'victim@example.org', role: 'administrator', password: PASSWORD });
  if (!created.ok) throw new Error(created.error.message);
  const key = await app.app.authenticator.appPasswords.create('victim', 'cli');
  if (!key.ok) throw new Error(key.message);
  appPassword = key.password;
  const allow = await app.request({
    method: 'PUT',
    path: '/wp-json/jetpack/v4/module/protect',
    headers: app.auth(admin),
    body: { jetpack_protect_global_whitelist: '198.51.100.1 - 198.51.100.99, 2001:db8::1' },
  });
  expect(allow.status).toBe(200);
});
afterAll(async () => {
  await second.close();
  await app.close();
});

type Via = 'form' | 'json' | 'basic';

function attempt(from: string, via: Via, password: string, target: TestApp = app): Promise<TestResponse> {
  // The trusted proxy appends the address it saw; what comes before is the client's own claim,
  // here an allow-listed address, which must not help the attacker.
  const headers = { 'X-Forwarded-For': `198.51.100.7, ${from}` };
  if (via === 'basic') {
    const basic = Buffer.from(`victim:${password}`).toString('base64');
    return target.request({ path: '/wp-json/jetpack/v4/settings', headers: { ...headers, Authorization: `Basic ${basic}` } });
  }
  if (via === 'json') return target.request({ method: 'POST', path: '/login', headers, body: { username: 'victim', password } });
  return target.request({
    method: 'POST',
    path: '/login',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
    body: `log=victim&pwd=${encodeURIComponent(password)}`,
  });
}

async function failTimes(from: string, vias: readonly Via[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const via of vias) statuses.push((await attempt(from, via, 'wrong-password')).status);
  return statuses;
}

async function count(target: TestApp = app): Promise<unknown> {
  return (await target.request({ path: '/wp-json/jetpack/v4/module/protect/count/get', headers: target.auth(admin) })).json;
}

async function todaysHistory(): Promise<number> {
  const res = await app.request({ path: '/wp-json/siteward/v1/protect/history?days=1', headers: app.auth(admin) });
  return (res.json as { history: { count: number }[] }).history[0]!.count;
}

const FIVE: readonly Via[] = ['form', 'json', 'basic', 'form', 'json'];
let blockedSoFar = 0;

describe('brute-force protection over HTTP', () => {
  it('counts "0" before any block', async () => {
    expect(await count()).toBe('0');
  });

  it('blocks an address after its 5th failure, on form, JSON and Basic alike, before checking the password', async () => {
    expect(await failTimes(ATTACKER, FIVE)).not.toContain(429);
    const json = await attempt(ATTACKER, 'json', PASSWORD);
    expect(json.status).toBe(429);
    expect(json.headers['retry-after']).toBe('900');
    expect(json.headers['set-cookie']).toBeUndefined();
    expect(json.json).toMatchObject({
      code: 'siteward_protect_blocked',
      message: 'Too many failed login attempts from your address. Try again in 15 minutes.',
    });
    const form = await attempt(ATTACKER, 'form', PASSWORD);
    expect([form.status, form.headers['content-type']]).toEqual([429, expect.stringMatching(/^text\/html/)]);
    expect(form.text).toContain('Too many failed login attempts');
    const basic = await attempt(ATTACKER, 'basic', appPassword);
    expect([basic.status, basic.headers['retry-after']]).toEqual([429, '900']);
    blockedSoFar += 3;
    expect(await count()).toBe(String(blockedSoFar));
    expect(await todaysHistory()).toBe(blockedSoFar);
  });

  it('leaves other addresses alone, and blocks an IPv6 attacker by its /64', async () => {
    expect((await attempt('192.0.2.44', 'json', PASSWORD)).status).toBe(200);
    expect(await failTimes(IPV6_ATTACKER, ['basic', 'basic', 'json', 'basic', 'form'])).not.toContain(429);
    const neighbour = await attempt(IPV6_NEIGHBOUR, 'basic', appPassword);
    expect(neighbour.status).toBe(429);
    blockedSoFar += 1;
    expect(await count()).toBe(String(blockedSoFar));
  });

  it('never blocks an allow-listed address', async () => {
    const statuses = await failTimes(ALLOWED, [...FIVE, ...FIVE, ...FIVE]);
    expect(statuses).not.toContain(429);
    expect((await attempt(ALLOWED, 'json', PASSWORD)).status).toBe(200);
  });

  it('shares the count and the blocks with another worker on the same store', async () => {
    expect(await count(second)).toBe(String(blockedSoFar));
    const elsewhere = await attempt(ATTACKER, 'json', PASSWORD, second);
    expect(elsewhere.status).toBe(429);
    blockedSoFar += 1;
    expect(await count(app)).toBe(String(blockedSoFar));
  });

  it('lifts the block when it expires, and makes the 4th block within a day last 24 hours', async () => {
    advance(901);
    expect((await attempt(ATTACKER, 'json', PASSWORD)).status).toBe(200);
    for (const round of [2, 3]) {
      expect(await failTimes(ATTACKER, FIVE), `round ${round}`).not.toContain(429);
      const refused = await attempt(ATTACKER, 'basic', appPassword);
      expect([refused.status, refused.headers['retry-after']]).toEqual([429, '900']);
      blockedSoFar += 1;
      advance(901);
    }
    expect(await failTimes(ATTACKER, FIVE)).not.toContain(429);
    const escalated = await attempt(ATTACKER, 'form', PASSWORD);
    expect([escalated.status, escalated.headers['retry-after']]).toEqual([429, '86400']);
    expect(escalated.text).toContain('Try again in 24 hours.');
    blockedSoFar += 1;
    advance(3600);
    expect((await attempt(ATTACKER, 'json', PASSWORD)).status).toBe(429);
    blockedSoFar += 1;
    expect(await count()).toBe(String(blockedSoFar));
    expect(await todaysHistory()).toBe(blockedSoFar);
  });

  it('keeps the history per day, zero days included', async () => {
    advance(86_400);
    const res = await app.request({ path: '/wp-json/siteward/v1/protect/history?days=3', headers: app.auth(admin) });
    expect(res.json).toEqual({
      days: 3,
      timezone: 'UTC',
      total: blockedSoFar,
      history: [
        { date: '2024-04-30', count: 0 },
        { date: '2024-05-01', count: blockedSoFar },
        { date: '2024-05-02', count: 0 },
      ],
    });
    const standard = await app.request({ path: '/wp-json/siteward/v1/protect/history', headers: app.auth(admin) });
    expect((standard.json as { history: unknown[] }).history).toHaveLength(30);
  });

  it.each(['0', '366', 'many', '-1'])('refuses days=%s with 400 rest_invalid_param', async (days) => {
    const res = await app.request({ path: `/wp-json/siteward/v1/protect/history?days=${days}`, headers: app.auth(admin) });
    expect([res.status, (res.json as { code: string }).code]).toEqual([400, 'rest_invalid_param']);
  });

  it('stops guarding and answers not_active while the module is off', async () => {
    const off = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/protect/active',
      headers: app.auth(admin),
      body: { active: false },
    });
    expect(off.status).toBe(200);
    const notActive = { code: 'not_active', message: 'The requested Jetpack module is not active.', data: { status: 404 } };
    for (const target of [app, second]) {
      const res = await target.request({ path: '/wp-json/jetpack/v4/module/protect/count/get', headers: target.auth(admin) });
      expect([res.status, res.json]).toEqual([404, notActive]);
    }
    const history = await app.request({ path: '/wp-json/siteward/v1/protect/history', headers: app.auth(admin) });
    expect([history.status, history.json]).toEqual([404, notActive]);
    // The attacker is still in its 24-hour block, but nothing guards any more: the password is checked.
    expect((await attempt(ATTACKER, 'json', PASSWORD, second)).status).toBe(200);
    expect(await failTimes('192.0.2.99', [...FIVE, ...FIVE])).not.toContain(429);
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/protect/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    // Failures while inactive were not counted: five more are needed.
    expect(await failTimes('192.0.2.99', ['json', 'json', 'json', 'json'])).not.toContain(429);
    expect(await failTimes('192.0.2.99', ['json', 'basic'])).toEqual([401, 429]);
  });
});
