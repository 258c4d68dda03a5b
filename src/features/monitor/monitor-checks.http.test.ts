import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../../test/helpers/loopback-server.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import { builtInFeatures } from '../index.js';
import { createMonitorFeature } from './index.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
// Near the real time: certificates are made with real dates, and the monitor judges them by this clock.
const START = Math.floor(Date.now() / MINUTE) * MINUTE;
let now = START;
const clock = () => now;
const advance = (ms: number) => void (now += ms);

/** The site: answers with its home page, without the keyword, with 404, or slowly. */
let siteMode: 'ok' | 'no-keyword' | 'not-found' | 'slow' = 'ok';
const site = createHttpServer((_req, res) => {
  const send = () => {
    res.statusCode = siteMode === 'not-found' ? 404 : 200;
    res.end(siteMode === 'no-keyword' ? '<h1>Database error</h1>' : '<h1>Welcome to Example</h1>');
  };
  if (siteMode === 'slow') setTimeout(send, 50);
  else send();
});
/** The site's API: another check of the same site, with its own history. */
let apiUp = true;
const apiServer = createHttpServer((_req, res) => {
  res.statusCode = apiUp ? 200 : 503;
  res.end('{}');
});

async function httpsPeer(notBefore: Date, notAfter: Date): Promise<{ server: Server; url: string; cert: string }> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const server = createHttpsServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('<h1>Welcome to Example</h1>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`, cert: pems.cert };
}

let siteUrl: string;
let apiUrl: string;
let expired: { server: Server; url: string };
let expiring: { server: Server; url: string; cert: string };
let hooks: WebhookReceiver;
let app: TestApp;
let admin: LoggedIn;

const tick = () => app.app.jobs.tick();
const call = (method: string, path: string, body?: object) =>
  app.request({ method, path: `/wp-json/siteward/v1/monitor${path}`, headers: app.auth(admin), ...(body ? { body } : {}) });
interface CheckJson {
  id: number;
  url: string;
  state: string;
  lastError: string | null;
  uptime: Record<string, number | null>;
  certificate: { validTo: string; daysLeft: number; error: string | null } | null;
}
const checks = async (): Promise<CheckJson[]> => ((await call('GET', '')).json as { checks: CheckJson[] }).checks;
const check = async (id: number): Promise<CheckJson> => (await checks()).find((c) => c.id === id)!;
/** One interval, twice: a failure and its confirming retry 10 s later. */
async function twoRounds(): Promise<void> {
  advance(10_000);
  await tick();
  advance(10_000);
  await tick();
}

beforeAll(async () => {
  siteUrl = `${await listenOnLoopback(site)}/`;
  apiUrl = `${await listenOnLoopback(apiServer)}/v1/health`;
  expired = await httpsPeer(new Date(START - 400 * DAY), new Date(START - DAY));
  expiring = await httpsPeer(new Date(START - DAY), new Date(START + 30 * DAY));
  hooks = await startWebhookReceiver();
  const features = builtInFeatures.map((f) =>
    f.name === 'monitor' ? createMonitorFeature({ probeTimeoutMs: 2000, ca: [expiring.cert], notifier: { backoffMs: () => 1 } }) : f,
  );
  app = await createTestApp({
    clock,
    startJobs: false,
    features,
    env: { SITEWARD_MONITOR_URL: siteUrl, SITEWARD_MONITOR_INTERVAL: '10', SITEWARD_MONITOR_WEBHOOK: hooks.url },
  });
  admin = await app.loginAs('administrator');
  await app.request({ method: 'PUT', path: '/wp-json/jetpack/v4/module/monitor/active', headers: app.auth(admin), body: { active: true } });
  await app.request({
    method: 'PUT',
    path: '/wp-json/jetpack/v4/module/monitor',
    headers: app.auth(admin),
    body: { monitor_receive_notifications: true },
  });
});
afterAll(async () => {
  await app.close();
  for (const server of [site, apiServer, expired.server, expiring.server]) await closeServer(server);
  await hooks.close();
});

describe('monitor checks', () => {
  it('checks the site URL by default and finds it up', async () => {
    await tick();
    expect(await checks()).toMatchObject([{ id: 1, url: siteUrl, state: 'up', lastError: null, certificate: null }]);
  });

  it('counts a 404 as down by default (2xx and 3xx expected), and as up once 404 is the expected status', async () => {
    siteMode = 'not-found';
    await twoRounds();
    expect(await check(1)).toMatchObject({ state: 'down', lastError: 'HTTP 404' });
    expect((await call('POST', '/checks/1', { expectedStatus: '200-299,404' })).status).toBe(200);
    advance(10_000);
    await tick();
    expect(await check(1)).toMatchObject({ state: 'up' });
    siteMode = 'ok';
  });

  it('counts the site down when the keyword is missing from the page, and notifies with the reason', async () => {
    expect((await call('POST', '/checks/1', { expectedStatus: '', keyword: 'Welcome' })).json).toMatchObject({
      id: 1,
      keyword: 'Welcome',
      keywordAbsent: false,
    });
    advance(10_000);
    await tick();
    siteMode = 'no-keyword';
    hooks.clear();
    await twoRounds();
    expect(await check(1)).toMatchObject({ state: 'down', lastError: 'keyword "Welcome" missing' });
    expect(await hooks.next()).toMatchObject({
      event: 'down',
      url: siteUrl,
      reason: 'keyword "Welcome" missing',
      lastError: 'keyword "Welcome" missing',
      durationSeconds: 10,
    });
    siteMode = 'ok';
    advance(10_000);
    await tick();
    expect(await hooks.next()).toMatchObject({ event: 'up', durationSeconds: 20 });
  });

  it('can require that a text does NOT appear (e.g. an error page)', async () => {
    await call('POST', '/checks/1', { keyword: 'Database error', keywordAbsent: true });
    siteMode = 'no-keyword';
    await twoRounds();
    expect(await check(1)).toMatchObject({ state: 'down', lastError: 'keyword "Database error" found' });
    siteMode = 'ok';
    advance(10_000);
    await tick();
    expect(await check(1)).toMatchObject({ state: 'up' });
    await call('POST', '/checks/1', { keyword: null, keywordAbsent: false });
  });

  it('marks answers slower than the threshold as slow in the history, still up', async () => {
    await call('POST', '/checks/1', { slowMs: 1 });
    siteMode = 'slow';
    advance(10_000);
    await tick();
    siteMode = 'ok';
    const history = (await call('GET', '/checks/1/history?days=1')).json as { points: { slow: number; down: number; ms: number | null }[] };
    expect(history.points.reduce((n, p) => n + p.slow, 0)).toBe(1);
    expect(await check(1)).toMatchObject({ state: 'up' });
    await call('POST', '/checks/1', { slowMs: null });
  });

  it('refuses a check that is not a URL, a bad status list, and the removal of the site check', async () => {
    expect((await call('POST', '/checks', { url: 'ftp://x' })).json).toMatchObject({
      code: 'monitor_invalid',
      data: { status: 400, detail: 'url must be an absolute http(s) URL' },
    });
    expect((await call('POST', '/checks/1', { expectedStatus: 'abc' })).status).toBe(400);
    expect((await call('DELETE', '/checks/1')).json).toMatchObject({ code: 'monitor_site_check_kept', data: { status: 409 } });
    expect((await call('DELETE', '/checks/99')).status).toBe(404);
  });

  it('keeps a separate history for another URL of the site', async () => {
    const added = (await call('POST', '/checks', { url: apiUrl })).json as { id: number };
    advance(10_000);
    await tick();
    apiUp = false;
    await twoRounds();
    apiUp = true;
    advance(10_000);
    await tick();
    const api = (await call('GET', `/checks/${added.id}/history?days=1`)).json as { downtimes: { duration: number; reason: string }[] };
    expect(api.downtimes).toEqual([expect.objectContaining({ duration: 20, reason: 'HTTP 503' })]);
    const own = (await call('GET', '/checks/1/history?days=1')).json as { downtimes: { reason: string }[] };
    expect(own.downtimes.map((d) => d.reason)).not.toContain('HTTP 503');
    expect((await check(added.id)).uptime['24h']).toBeLessThan(100);
    expect((await call('DELETE', `/checks/${added.id}`)).json).toEqual({ deleted: true });
    expect((await call('GET', `/checks/${added.id}/history`)).status).toBe(404);
  });

  it('counts an https URL with an expired certificate as down, saying so', async () => {
    const added = (await call('POST', '/checks', { url: expired.url })).json as { id: number };
    hooks.clear();
    await twoRounds();
    const seen = await check(added.id);
    expect(seen.state).toBe('down');
    expect(seen.lastError).toMatch(/^certificate expired on /);
    expect(seen.certificate).toMatchObject({ validTo: new Date(Math.floor((START - DAY) / 1000) * 1000).toISOString() });
    expect(await hooks.next()).toMatchObject({
      event: 'down',
      url: expired.url,
      reason: expect.stringMatching(/^certificate expired on /) as unknown,
    });
    // At a Glance's route lists every check with its state, the site first.
    const glance = await app.request({ path: '/wp-json/siteward/v1/monitor/history?days=30', headers: app.auth(admin) });
    expect((glance.json as { checks: unknown[] }).checks).toEqual([
      { id: 1, site: true, url: siteUrl, state: 'up', downSince: null, maintenance: false },
      {
        id: added.id,
        site: false,
        url: expired.url,
        state: 'down',
        downSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        maintenance: false,
      },
    ]);
    await call('DELETE', `/checks/${added.id}`);
  });

  it('warns 14, 7 and 1 days before a certificate expires, once each, and counts it down once expired', async () => {
    const added = (await call('POST', '/checks', { url: expiring.url })).json as { id: number };
    const validTo = (
      await (async () => {
        advance(10_000);
        await tick();
        return (await check(added.id)).certificate!;
      })()
    ).validTo;
    expect(await check(added.id)).toMatchObject({ state: 'up', certificate: { error: null } });
    hooks.clear();
    const expiry = Date.parse(validTo);
    for (const [daysBefore, daysLeft] of [
      [13.5, 14],
      [10, null],
      [6.5, 7],
      [0.5, 1],
    ] as const) {
      now = expiry - daysBefore * DAY;
      await tick();
      if (daysLeft === null) continue;
      expect(await hooks.next()).toMatchObject({ event: 'certificate', url: expiring.url, certificate: { validTo, daysLeft } });
    }
    expect(hooks.bodies.filter((b) => b.event === 'certificate')).toHaveLength(3);
    now = expiry + MINUTE;
    await twoRounds();
    expect(await check(added.id)).toMatchObject({ state: 'down', lastError: `certificate expired on ${validTo}` });
  });
});
