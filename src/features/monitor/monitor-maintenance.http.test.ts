import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../../test/helpers/loopback-server.js';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import { cellsUnder } from '../../../test/helpers/table-cells.js';
import { main } from '../../cli.js';
import { builtInFeatures } from '../index.js';
import { createMonitorFeature } from './index.js';

// A Monday, 12:00 UTC (the site's time zone is UTC).
const START = Date.UTC(2024, 5, 3, 12, 0, 0);
const HOUR = 3_600_000;
let now = START;
const clock = () => now;
const advance = (ms: number) => void (now += ms);

let siteUp = true;
const site = createServer((_req, res) => {
  res.statusCode = siteUp ? 200 : 503;
  res.end('ok');
});

const features = builtInFeatures.map((f) =>
  f.name === 'monitor' ? createMonitorFeature({ probeTimeoutMs: 2000, notifier: { backoffMs: () => 1 } }) : f,
);
const root = mkdtempSync(path.join(tmpdir(), 'siteward-monitor-maintenance-'));
const dataDir = path.join(root, 'data');
const configFile = path.join(root, 'siteward.config.json');
const mails: CapturedMail[] = [];
const mailWaiters: (() => void)[] = [];
/** Resolves once `n` mails arrived (deliveries are queued; no polling, no sleeping). */
const mailsArrived = async (n: number): Promise<void> => {
  while (mails.length < n) await new Promise<void>((resolve) => mailWaiters.push(resolve));
};
let smtp: SmtpCapture;
let hooks: WebhookReceiver;
let app: TestApp;
let admin: LoggedIn;
let second: LoggedIn;

const tick = () => app.app.jobs.tick();
const call = (method: string, route: string, body?: object, user: LoggedIn = admin) =>
  app.request({ method, path: `/wp-json/siteward/v1/monitor${route}`, headers: app.auth(user), ...(body ? { body } : {}) });
const downtimes = async () =>
  ((await call('GET', '/checks/1/history?days=1')).json as { downtimes: { start: string; end: string | null; reason: string }[] })
    .downtimes;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) }, { features });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A job round every `step` (default the 10 s interval) for `ms`. */
async function run(ms: number, step = 10_000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    advance(step);
    await tick();
  }
}

beforeAll(async () => {
  const siteUrl = `${await listenOnLoopback(site)}/`;
  smtp = await startSmtpCapture((mail) => {
    mails.push(mail);
    for (const wake of mailWaiters.splice(0)) wake();
  });
  hooks = await startWebhookReceiver();
  const env = {
    SITEWARD_MONITOR_URL: siteUrl,
    SITEWARD_MONITOR_INTERVAL: '10',
    SITEWARD_SMTP_URL: smtp.url,
    SITEWARD_MONITOR_WEBHOOK: hooks.url,
    SITEWARD_MAIL_FROM: 'monitor@example.org',
  };
  writeFileSync(
    configFile,
    JSON.stringify({ dataDir, homeUrl: 'http://example.org', monitorUrl: siteUrl, smtpUrl: smtp.url, monitorWebhook: hooks.url }),
  );
  app = await createTestApp({ clock, startJobs: false, features, env, dataDir });
  admin = await app.loginAs('administrator', { login: 'first' });
  second = await app.loginAs('administrator', { login: 'second' });
  await app.request({ method: 'PUT', path: '/wp-json/jetpack/v4/module/monitor/active', headers: app.auth(admin), body: { active: true } });
  await app.request({
    method: 'PUT',
    path: '/wp-json/jetpack/v4/module/monitor',
    headers: app.auth(admin),
    body: { monitor_receive_notifications: true },
  });
  await tick();
});
afterAll(async () => {
  await app.close();
  await closeServer(site);
  await smtp.close();
  await hooks.close();
  rmSync(root, { recursive: true, force: true });
});

describe('maintenance windows', () => {
  it('are added, listed and removed from the CLI, and refused with a clear message when wrong', async () => {
    const added = await cli('monitor', 'maintenance', 'add', 'cron', '--cron', '0 3 * * 0', '--duration', '30', '--note', 'backups');
    expect(added).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^added maintenance window \d+\tcron\t"0 3 \* \* 0" for 30 min\tbackups$/) as unknown,
    });
    const bad = await cli('monitor', 'maintenance', 'add', 'cron', '--cron', '61 * * * *', '--duration', '30');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^error: The monitor setting is not valid\. \(cron: /);
    expect((await cli('monitor', 'maintenance', 'add', 'sometimes')).code).toBe(1);
    expect((await cli('monitor', 'maintenance')).code).toBe(2);
    const listed = await cli('monitor', 'maintenance', 'list');
    expect(listed.out).toContain('"0 3 * * 0" for 30 min');
    const rest = (await call('GET', '/maintenance')).json as { windows: { id: number; kind: string; cron: string }[] };
    expect(rest.windows).toEqual([expect.objectContaining({ kind: 'cron', cron: '0 3 * * 0', durationMinutes: 30, note: 'backups' })]);
    const id = rest.windows[0]!.id;
    expect(await cli('monitor', 'maintenance', 'remove', String(id))).toMatchObject({ code: 0 });
    expect((await cli('monitor', 'maintenance', 'remove', String(id))).code).toBe(1);
    expect(((await call('GET', '/maintenance')).json as { windows: unknown[] }).windows).toEqual([]);
  });

  it('count no downtime and tell nobody while one is in force, and the uptime leaves them out', async () => {
    const starts = new Date(now + 60_000).toISOString();
    const ends = new Date(now + HOUR).toISOString();
    const window = await call('POST', '/maintenance', { kind: 'once', starts, ends, note: 'deploy' });
    expect(window.json).toMatchObject({ kind: 'once', starts, ends, note: 'deploy' });
    mails.length = 0;
    hooks.clear();
    await run(60_000);
    siteUp = false;
    await run(HOUR - 120_000, 60_000);
    // In the window, a down site is shown "Down (maintenance)", not "Up": on the Monitor screen and At a Glance.
    const during = (await call('GET', '')).json as { checks: { state: string; maintenance: boolean; downSince: string | null }[] };
    expect(during.checks[0]).toMatchObject({ state: 'down', maintenance: true, downSince: null });
    const glance = await app.request({ path: '/wp-json/siteward/v1/monitor/history', headers: app.auth(admin) });
    expect((glance.json as { checks: unknown[] }).checks[0]).toMatchObject({ state: 'down', maintenance: true });
    await run(60_000, 60_000);
    expect(((await call('GET', '')).json as { maintenance: { current: unknown } }).maintenance.current).toBeNull();
    expect(await downtimes()).toEqual([]);
    expect(mails).toEqual([]);
    expect(hooks.bodies).toEqual([]);
    const overview = (await call('GET', '')).json as { checks: { uptime: Record<string, number> }[] };
    expect(overview.checks[0]!.uptime['24h']).toBe(100);
    // Still down once the window is over: now it counts, from the first failure after it.
    await run(20_000);
    expect(await downtimes()).toEqual([expect.objectContaining({ end: null, reason: 'HTTP 503' })]);
    expect(await hooks.next()).toMatchObject({ event: 'down' });
    siteUp = true;
    await run(10_000);
    expect(await hooks.next()).toMatchObject({ event: 'up' });
  });

  it('repeat weekly in the site’s time zone, and end a downtime that was open when they begin', async () => {
    // Next Monday 11:30–12:30 UTC.
    const monday = START + 7 * 24 * HOUR;
    expect((await call('POST', '/maintenance', { kind: 'weekly', days: [1], time: '11:30', durationMinutes: 60 })).status).toBe(200);
    expect((await call('POST', '/maintenance', { kind: 'weekly', days: [9], time: '11:30', durationMinutes: 60 })).json).toMatchObject({
      code: 'monitor_invalid',
    });
    now = monday - HOUR;
    await tick();
    siteUp = false;
    await run(20_000);
    expect(await downtimes()).toContainEqual(expect.objectContaining({ end: null }));
    // Notifications are sent without being awaited: take this one before going on, or it lands
    // in the next test's receiver.
    expect(await hooks.next()).toMatchObject({ event: 'down' });
    hooks.clear();
    now = monday - 30 * 60_000 - 10_000;
    await run(20_000);
    const open = (await downtimes()).filter((d) => d.end === null);
    expect(open).toEqual([]);
    const current = ((await call('GET', '')).json as { maintenance: { current: { until: string } | null } }).maintenance.current;
    expect(current?.until).toBe(new Date(monday + 30 * 60_000).toISOString());
    siteUp = true;
    await run(10_000);
    expect(hooks.bodies).toEqual([]);
  });
});

describe('monitor status', () => {
  it('prints a header row, then one row per check with each cell under its title', async () => {
    const status = await cli('monitor', 'status');
    expect(status.code).toBe(0);
    const [module, header, row, ...rest] = status.out.split('\n');
    expect(module).toBe('monitor module: active');
    expect(header).toMatch(/^ID +URL +STATE +24H +7D +30D +365D +CERTIFICATE$/);
    expect(cellsUnder(header!, row!, ['ID', 'STATE', 'CERTIFICATE'])).toEqual(['1', expect.stringMatching(/^(up|down|unknown)/), '-']);
    expect(rest.filter((l) => !l.startsWith('maintenance until'))).toEqual([]);
  });
});

describe('notifications', () => {
  it('go to the chosen administrators and the extra addresses, with a reminder while still down when asked', async () => {
    const secondId = second.userId;
    const set = await call('POST', '/notifications', { administrators: [secondId], emails: ['ops@example.net'], repeatMinutes: 1 });
    expect(set.json).toEqual({ administrators: [secondId], emails: ['ops@example.net'], repeatMinutes: 1, email: true, webhook: true });
    expect((await call('POST', '/notifications', { emails: ['not an address'] })).json).toMatchObject({
      code: 'monitor_invalid',
      data: { status: 400 },
    });
    for (const w of ((await call('GET', '/maintenance')).json as { windows: { id: number }[] }).windows)
      await call('DELETE', `/maintenance/${w.id}`);
    now += 2 * HOUR;
    await tick();
    mails.length = 0;
    hooks.clear();
    siteUp = false;
    await run(20_000);
    await run(60_000);
    siteUp = true;
    await run(10_000);
    await mailsArrived(3);
    expect([(await hooks.next()).event, (await hooks.next()).event, (await hooks.next()).event]).toEqual(['down', 'still-down', 'up']);
    expect(mails.map((m) => m.to)).toEqual([
      [`${second.login}@example.org`, 'ops@example.net'],
      [`${second.login}@example.org`, 'ops@example.net'],
      [`${second.login}@example.org`, 'ops@example.net'],
    ]);
    expect(mails.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1])).toEqual([
      'My Site is down',
      'My Site is still down',
      'My Site is back up',
    ]);
    for (const mail of mails) {
      expect(mail.data).toContain('Down since: ');
      expect(mail.data).toContain('Duration: ');
      expect(mail.data).toContain('Last error: HTTP 503');
    }
  });

  it('send a test notification on every channel when asked, from REST and the CLI', async () => {
    mails.length = 0;
    hooks.clear();
    const res = await call('POST', '/notifications/test');
    expect(res.json).toEqual({
      results: [
        { channel: 'email', ok: true },
        { channel: 'webhook', ok: true },
      ],
      alerts: { email: true, webhook: true },
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data).toContain('test notification');
    expect(await hooks.next()).toMatchObject({ event: 'test' });
    expect(await cli('monitor', 'test-notification')).toMatchObject({ code: 0, out: 'email: sent\nwebhook: sent' });
  });

  it('call a configured webhook on a real outage with e-mail alerts off, and the test says that e-mail alerts are off', async () => {
    const off = await call('POST', '/notifications', { email: false });
    expect(off.json).toMatchObject({ email: false, webhook: true });
    // The switch is the module's own option: Modules → Monitor shows the same.
    const module = await app.request({ path: '/wp-json/jetpack/v4/module/monitor', headers: app.auth(admin) });
    expect(
      (module.json as { options: Record<string, { current_value: unknown }> }).options.monitor_receive_notifications?.current_value,
    ).toBe(false);
    expect((await call('POST', '/notifications', { email: 'yes' })).json).toMatchObject({ code: 'monitor_invalid' });
    mails.length = 0;
    hooks.clear();
    siteUp = false;
    await run(20_000);
    siteUp = true;
    await run(10_000);
    expect([(await hooks.next()).event, (await hooks.next()).event]).toEqual(['down', 'up']);
    const test = await call('POST', '/notifications/test');
    expect(test.json).toMatchObject({
      alerts: { email: false, webhook: true },
      note: expect.stringContaining('Real alerts go to the webhook only: e-mail alerts are off') as unknown,
    });
    // Only the test's e-mail came: the outage sent none.
    await mailsArrived(1);
    expect(mails.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1])).toEqual([expect.stringContaining('test') as unknown]);
    const cliTest = await cli('monitor', 'test-notification');
    expect(cliTest).toMatchObject({ code: 0, out: 'email: sent\nwebhook: sent' });
    expect(cliTest.err).toMatch(/^note: This was a test\. Real alerts go to the webhook only: e-mail alerts are off/);
  });

  it('are for administrators only', async () => {
    const editor = await app.loginAs('editor');
    expect((await call('GET', '', undefined, editor)).status).toBe(403);
    expect((await call('POST', '/notifications/test', undefined, editor)).status).toBe(403);
  });
});
