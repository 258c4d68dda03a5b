import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { Feature } from '../contract.js';
import { builtInFeatures } from '../index.js';
import { createMonitorFeature } from './index.js';

const START = Date.UTC(2024, 5, 1, 12, 0, 0);
let now = START;
const clock = () => now;
const advance = (seconds: number) => void (now += seconds * 1000);

/** The site being watched: answers per `mode`, or is not listening at all. */
type PeerMode = 'up' | 'error' | 'hang';
let peerMode: PeerMode = 'up';
let peerHits = 0;
let peer: Server;
let peerPort = 0;
const hanging: ServerResponse[] = [];

function startPeer(port = 0): Promise<void> {
  peer = createServer((_req, res) => {
    peerHits += 1;
    if (peerMode === 'hang') return void hanging.push(res);
    res.statusCode = peerMode === 'up' ? 200 : 503;
    res.end('peer');
  });
  return new Promise((resolve) => peer.listen(port, '127.0.0.1', () => resolve()));
}
function stopPeer(): Promise<void> {
  for (const res of hanging.splice(0)) res.destroy();
  peer.closeAllConnections();
  return new Promise((resolve) => peer.close(() => resolve()));
}

/** Deliveries, each resolving a waiter registered by `next…()` (no polling, no sleeping). */
function inbox<T>() {
  const items: T[] = [];
  const waiters: ((item: T) => void)[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      waiters.shift()?.(item);
    },
    next(): Promise<T> {
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
const mails = inbox<{ to: string[]; data: string }>();
const hooks = inbox<Record<string, unknown>>();
let smtp: SmtpCapture;
let hookServer: Server;

const features = (): Feature[] =>
  builtInFeatures.map((f) => (f.name === 'monitor' ? createMonitorFeature({ probeTimeoutMs: 300, notifier: { backoffMs: () => 1 } }) : f));
let env: Record<string, string> = {};
// Owned here, not by an app: the restart test closes the first app and starts another on it.
const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-monitor-'));
let app: TestApp;
let second: TestApp;
let admin: LoggedIn;

const tick = (target: TestApp = app) => target.app.jobs.tick();
const api = (target: TestApp, path: string) => target.request({ path: `/wp-json/${path}`, headers: target.auth(admin) });
const history = async (target: TestApp = app) =>
  (
    (await api(target, 'siteward/v1/monitor/history')).json as {
      intervals: { start: string; end: string | null; duration: number; reason: string }[];
    }
  ).intervals;

beforeAll(async () => {
  await startPeer();
  peerPort = (peer.address() as AddressInfo).port;
  smtp = await startSmtpCapture((mail) => mails.push({ to: mail.to, data: mail.data }));
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hooks.push(JSON.parse(body) as Record<string, unknown>);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', () => resolve()));
  env = {
    SITEWARD_MONITOR_URL: `http://127.0.0.1:${peerPort}/`,
    SITEWARD_MONITOR_INTERVAL: '10',
    SITEWARD_SMTP_URL: smtp.url,
    SITEWARD_MAIL_FROM: 'Siteward <monitor@example.org>',
    SITEWARD_MONITOR_WEBHOOK: `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`,
  };
  app = await createTestApp({ clock, startJobs: false, env, features: features(), dataDir });
  second = await createTestApp({ clock, startJobs: false, env, features: features(), dataDir });
  admin = await app.loginAs('administrator');
});
afterAll(async () => {
  await second.close();
  await app.close();
  await stopPeer();
  hookServer.closeAllConnections();
  await new Promise<void>((resolve) => hookServer.close(() => resolve()));
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the uptime monitor', () => {
  it('answers not_active and checks nothing while the module is off (its default)', async () => {
    const res = await api(app, 'jetpack/v4/module/monitor/downtime/last');
    expect([res.status, res.json]).toEqual([
      404,
      { code: 'not_active', message: 'The requested Jetpack module is not active.', data: { status: 404 } },
    ]);
    await tick();
    expect(peerHits).toBe(0);
  });

  it('checks the URL once it is turned on, and has no downtime to tell yet', async () => {
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/monitor/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/monitor',
      headers: app.auth(admin),
      body: { monitor_receive_notifications: true },
    });
    advance(10);
    await tick();
    expect(peerHits).toBe(1);
    expect((await api(app, 'jetpack/v4/module/monitor/downtime/last')).json).toEqual({ code: 'success', date: null });
  });

  it('does not check from a second process while the first holds the jobs lease', async () => {
    advance(10);
    await tick(second);
    expect(peerHits).toBe(1);
    await tick(app);
    expect(peerHits).toBe(2);
  });

  it('ignores one failed check that the retry does not confirm', async () => {
    peerMode = 'error';
    advance(10);
    await tick();
    peerMode = 'up';
    advance(10);
    await tick();
    expect(peerHits).toBe(4);
    expect(await history()).toEqual([]);
  });

  it('records one confirmed downtime when the peer goes away, and notifies by e-mail and webhook', async () => {
    await stopPeer();
    const downAt = now + 10_000;
    const mail = mails.next();
    const hook = hooks.next();
    advance(10);
    await tick(); // refused: suspect
    advance(10);
    await tick(); // refused again: down since the first failure
    advance(10);
    await tick(); // still down: nothing new
    expect(await history()).toEqual([{ start: new Date(downAt).toISOString(), end: null, duration: 20, reason: 'ECONNREFUSED' }]);
    expect((await api(app, 'jetpack/v4/module/monitor/downtime/last')).json).toEqual({ code: 'success', date: '1 min' });
    const sent = await mail;
    expect(sent.to).toEqual([`${admin.login}@example.org`]);
    expect(sent.data).toContain('is down');
    expect(sent.data).toContain(`http://127.0.0.1:${peerPort}/`);
    expect(await hook).toMatchObject({
      event: 'down',
      url: `http://127.0.0.1:${peerPort}/`,
      reason: 'ECONNREFUSED',
      since: new Date(downAt).toISOString(),
    });
  });

  it('closes the downtime when the peer is back, and says so', async () => {
    await startPeer(peerPort);
    const mail = mails.next();
    const hook = hooks.next();
    advance(10);
    await tick();
    const [interval] = await history();
    expect(interval).toMatchObject({ end: new Date(now).toISOString(), duration: 30 });
    expect(await history()).toHaveLength(1);
    expect((await mail).data).toContain('is back up');
    expect(await hook).toMatchObject({ event: 'up', downtimeSeconds: 30 });
  });

  it('counts a peer that hangs past the timeout as down', async () => {
    peerMode = 'hang';
    advance(10);
    await tick();
    advance(10);
    await tick();
    peerMode = 'up';
    advance(10);
    await tick();
    const [latest] = await history();
    expect(latest).toMatchObject({ reason: 'timeout after 0.3 s', duration: 20 });
    expect(await history()).toHaveLength(2);
  });

  it.each([
    [0, '1 min'],
    [89, '1 min'],
    [90, '2 mins'],
    [3599, '60 mins'],
    [3600, '1 hour'],
    [86_399, '24 hours'],
    [86_400, '1 day'],
    [6.9 * 86_400, '7 days'],
    [29 * 86_400, '4 weeks'],
    [364 * 86_400, '12 months'],
    [547 * 86_400, '1 year'],
    [548 * 86_400, '2 years'],
  ])('tells the last downtime %i s after it ended as %j', async (seconds, expected) => {
    const endedAt = Date.parse((await history())[0]!.end!);
    const saved = now;
    now = endedAt + seconds * 1000;
    try {
      expect((await api(app, 'jetpack/v4/module/monitor/downtime/last')).json).toEqual({ code: 'success', date: expected });
    } finally {
      now = saved;
    }
  });

  it('records the gap of a restart as "no data", once, by the process that takes over: not downtime, not in uptime', async () => {
    await app.close();
    const hitsBefore = peerHits;
    const stoppedAt = now;
    advance(600);
    app = await createTestApp({ clock, startJobs: false, env, features: features(), dataDir });
    await tick(app);
    expect(peerHits).toBe(hitsBefore + 1);
    expect(await history()).toHaveLength(2); // the two real downtimes only
    advance(10);
    await tick(second); // the lease is the new process's: no second gap, no check
    expect(peerHits).toBe(hitsBefore + 1);
    const glance = (await api(app, 'siteward/v1/monitor/history')).json as { noData: unknown[]; monitoredSince: string };
    expect(glance.noData).toEqual([
      { start: new Date(stoppedAt).toISOString(), end: new Date(stoppedAt + 600_000).toISOString(), duration: 600 },
    ]);
    expect(glance.monitoredSince).toBe(new Date(START + 10_000).toISOString());
    // The last downtime is still the site's own (it ended before the stop), not the stop.
    expect((await api(app, 'jetpack/v4/module/monitor/downtime/last')).json).toEqual({ code: 'success', date: '10 mins' });
    // Uptime leaves the 600 s out: 50 s of real downtime over the watched time since the first check.
    const overview = (await api(app, 'siteward/v1/monitor')).json as { checks: { uptime: Record<string, number> }[] };
    const watched = (now - (START + 10_000) - 600_000) / 1000;
    expect(overview.checks[0]!.uptime['24h']).toBeCloseTo(((watched - 50) / watched) * 100, 2);
    const checkHistory = (await api(app, 'siteward/v1/monitor/checks/1/history?days=1')).json as {
      downtimes: unknown[];
      noData: unknown[];
    };
    expect([checkHistory.downtimes.length, checkHistory.noData.length]).toEqual([2, 1]);
  });

  it('stops checking in every worker when the module is turned off, and answers not_active', async () => {
    const off = await second.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/monitor/active',
      headers: second.auth(admin),
      body: { active: false },
    });
    expect(off.status).toBe(200);
    const hits = peerHits;
    advance(10);
    await tick(app);
    expect(peerHits).toBe(hits);
    for (const path of ['jetpack/v4/module/monitor/downtime/last', 'siteward/v1/monitor/history']) {
      const res = await api(app, path);
      expect([res.status, res.json]).toEqual([404, expect.objectContaining({ code: 'not_active' })]);
    }
    // A week later, turned on again: the pause is not downtime.
    advance(7 * 86_400);
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/monitor/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    await tick(app);
    expect(peerHits).toBe(hits + 1);
    const intervals = await history();
    expect(intervals).toHaveLength(2);
    expect(intervals.filter((i) => i.duration >= 3600)).toEqual([]);
    // The week off is "no data" (nothing checked), left out of uptime like a stop.
    const glance = (await api(app, 'siteward/v1/monitor/history?days=30')).json as { noData: { duration: number }[] };
    expect(glance.noData.map((g) => g.duration)).toEqual([600, 7 * 86_400 + 20]);
  });
});
