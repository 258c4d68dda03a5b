/**
 * The Monitor screen of the admin page in Chromium (Debian's, through playwright-core) against a
 * real Siteward whose clock the test moves: a monitored site on 127.0.0.1 that the test takes
 * down and back, an https URL with an expired self-signed certificate, SMTP capture and a
 * webhook receiver. Screenshots at 1280 and 360 px go to test-artifacts/monitor (gitignored).
 */
import { createServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminScreenLoggedIn,
  artifactsDir,
  chromiumAvailable,
  launchChromium,
  seriousAxeViolations,
} from '../../../test/helpers/browser.js';
import { closeServer, listenOnLoopback } from '../../../test/helpers/loopback-server.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';

const DAY = 86_400_000;
// An hour ago, so that the page's "last 24 hours" shows what the test made.
let now = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
const clock = () => now;

describe.skipIf(!chromiumAvailable)('the Monitor screen in Chromium', () => {
  let siteUp = true;
  const site = createServer((_req, res) => {
    res.statusCode = siteUp ? 200 : 503;
    res.end('<h1>Welcome</h1>');
  });
  let expired: HttpsServer;
  let expiredUrl: string;
  let siteUrl: string;
  let smtp: SmtpCapture;
  let hooks: WebhookReceiver;
  let app: TestApp;
  let admin: LoggedIn;
  let browser: Browser;
  let base: string;
  const shots = artifactsDir('monitor');

  const api = async <T>(method: string, route: string, body?: object): Promise<T> => {
    const res = await app.request({ method, path: `/wp-json/${route}`, headers: app.auth(admin), ...(body ? { body } : {}) });
    expect(res.status, res.text).toBeLessThan(300);
    return res.json as T;
  };
  async function rounds(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      now += 60_000;
      await app.app.jobs.tick();
    }
  }

  async function openScreen(width: number): Promise<Page> {
    const { p } = await adminScreenLoggedIn(browser, { baseURL: base, width, user: admin, link: 'Monitor' });
    await p.getByTestId('monitor-screen').waitFor();
    await p.getByTestId('monitor-chart').waitFor();
    return p;
  }

  beforeAll(async () => {
    siteUrl = `${await listenOnLoopback(site)}/`;
    const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
      notBeforeDate: new Date(now - 90 * DAY),
      notAfterDate: new Date(now - 2 * DAY),
    });
    expired = createHttpsServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => expired.listen(0, '127.0.0.1', resolve));
    expiredUrl = `https://127.0.0.1:${(expired.address() as AddressInfo).port}/`;
    smtp = await startSmtpCapture();
    hooks = await startWebhookReceiver();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({
      port,
      clock,
      startJobs: false,
      env: {
        SITEWARD_HOME_URL: base,
        SITEWARD_MONITOR_URL: siteUrl,
        SITEWARD_MONITOR_INTERVAL: '60',
        SITEWARD_SMTP_URL: smtp.url,
        SITEWARD_MONITOR_WEBHOOK: hooks.url,
      },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    await api('PUT', 'jetpack/v4/module/monitor/active', { active: true });
    await api('PUT', 'jetpack/v4/module/monitor', { monitor_receive_notifications: true });
    await api('POST', 'siteward/v1/monitor/checks', { url: expiredUrl });
    await rounds(20);
    siteUp = false;
    await rounds(4);
    siteUp = true;
    await rounds(5);
    // The module off for 20 minutes: nobody checked, which is "no data", not downtime.
    await api('PUT', 'jetpack/v4/module/monitor/active', { active: false });
    now += 20 * 60_000;
    await api('PUT', 'jetpack/v4/module/monitor/active', { active: true });
    await rounds(15);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await closeServer(site);
    await new Promise((resolve) => expired.close(resolve));
    await smtp?.close();
    await hooks?.close();
  });

  it('shows each check with its state, uptime, certificate, response times and downtimes', async () => {
    const p = await openScreen(1280);
    const siteCard = p.getByTestId('monitor-check-1');
    await expect(siteCard.getByTestId('monitor-state').textContent()).resolves.toBe('Up');
    const uptime = await siteCard.getByTestId('monitor-uptime').textContent();
    expect(uptime).toMatch(/Uptime 24h9\d\.\d\d %/);
    const certCard = p.getByTestId('monitor-check-2');
    await expect(certCard.getByTestId('monitor-state').textContent()).resolves.toBe('Down');
    await expect(certCard.getByTestId('monitor-certificate').textContent()).resolves.toMatch(/^Certificate expired on /);
    // Times in the server's reason read as the page's dates, never as ISO 8601.
    const downSince = (await certCard.getByTestId('monitor-down-since').textContent()) ?? '';
    expect(downSince).toMatch(/^Down since .+: certificate expired on \S/);
    expect(downSince).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    // The screen takes the page's width at 1280 px (the main column is 1100 px less padding).
    expect((await p.getByTestId('monitor-screen').boundingBox())?.width).toBeGreaterThan(1000);
    await expect(p.getByTestId('monitor-downtimes').textContent()).resolves.toContain('HTTP 503');
    expect(await p.getByTestId('monitor-downtimes').locator('li').count()).toBe(1);
    expect(await p.locator('[data-testid=monitor-chart] path.sw-chart-line').count()).toBe(1);
    // The 20 minutes off are grey on the timeline, and left out of uptime: 4 minutes down of the rest.
    const timeline = p.locator('.sw-monitor-history [data-testid=monitor-timeline]');
    expect(await timeline.locator('rect[data-nodata]').count()).toBeGreaterThanOrEqual(2);
    await expect(timeline.getAttribute('aria-label')).resolves.toContain('grey: no data');
    await p.screenshot({ path: path.join(shots, 'monitor-1280.png'), fullPage: true });
    await p.context().close();
  }, 60_000);

  it('lists every check with its state on the At a Glance card', async () => {
    const p = await openScreen(1280);
    await p.getByRole('link', { name: 'At a Glance' }).click();
    const rows = p.getByTestId('card-monitor').getByTestId('monitor-checks').locator('li');
    await rows.first().waitFor();
    expect(await rows.allTextContents()).toEqual([`Up${siteUrl}`, `Down${expiredUrl}`]);
    // The 30-day bar is grey before monitoring started (an hour and a half ago) and for the 20 minutes off; green is the rest.
    const timeline = p.getByTestId('card-monitor').getByTestId('monitor-timeline');
    const rects = await timeline.locator('rect[data-nodata]').all();
    const grey = await Promise.all(rects.map(async (r) => Number(await r.getAttribute('width'))));
    expect(grey[0]).toBeGreaterThan(290);
    expect(grey).toHaveLength(2);
    await expect(p.getByTestId('monitor-status').textContent()).resolves.toMatch(/^Last downtime: \d+ mins? ago\.$/);
    await p.getByTestId('card-monitor').screenshot({ path: path.join(shots, 'glance-monitor-1280.png') });
    await p.context().close();
  }, 60_000);

  it('adds a maintenance window from the form, and the API has it', async () => {
    const p = await openScreen(1280);
    await p.getByLabel('Repeats').selectOption('cron');
    await p.getByLabel('Cron expression (minute hour day month weekday)').fill('30 2 * * 6');
    await p.getByLabel('Lasts (minutes)').fill('45');
    await p.getByLabel('Note').fill('Saturday updates');
    await p.getByRole('button', { name: 'Add window' }).click();
    await p.getByTestId('monitor-windows').getByText('Cron "30 2 * * 6" for 45 min · Saturday updates').waitFor();
    const { windows } = await api<{ windows: unknown[] }>('GET', 'siteward/v1/monitor/maintenance');
    expect(windows).toEqual([expect.objectContaining({ kind: 'cron', cron: '30 2 * * 6', durationMinutes: 45, note: 'Saturday updates' })]);
    await p.context().close();
  }, 60_000);

  it('sends a test notification from the button and says how each channel went', async () => {
    const p = await openScreen(1280);
    hooks.clear();
    await expect(p.getByTestId('monitor-admins').getByLabel('boss').isChecked()).resolves.toBe(true);
    await p.getByRole('button', { name: 'Send a test notification' }).click();
    await expect(p.getByTestId('monitor-test-result').textContent()).resolves.toBe('E-mail: sent · Webhook: sent');
    expect(await hooks.next()).toMatchObject({ event: 'test' });
    // The e-mail switch is here, beside the recipients; off, the test says real alerts go to the webhook only.
    await expect(p.getByTestId('monitor-webhook').textContent()).resolves.toMatch(/^Webhook: set \(SITEWARD_MONITOR_WEBHOOK\)/);
    const email = p.getByLabel('E-mail alerts about downtime');
    await expect(email.isChecked()).resolves.toBe(true);
    await email.uncheck();
    await p.getByRole('button', { name: 'Save', exact: true }).click();
    await p.getByText('Notification settings saved.').first().waitFor();
    const { options } = await api<{ options: Record<string, { current_value: unknown }> }>('GET', 'jetpack/v4/module/monitor');
    expect(options.monitor_receive_notifications?.current_value).toBe(false);
    await p.getByRole('button', { name: 'Send a test notification' }).click();
    await p.getByText(/Real alerts go to the webhook only: e-mail alerts are off/).waitFor();
    await p.getByTestId('monitor-test-result').screenshot({ path: path.join(shots, 'monitor-test-alerts-off.png') });
    await p.locator('.sw-monitor-settings').screenshot({ path: path.join(shots, 'monitor-notifications-1280.png') });
    await p.context().close();
  }, 60_000);

  it('fits 360 px without sideways scrolling, with no serious accessibility violation, at both widths', async () => {
    for (const width of [1280, 360]) {
      const p = await openScreen(width);
      await p.waitForLoadState('networkidle');
      await p.screenshot({ path: path.join(shots, `monitor-${width}-final.png`), fullPage: true });
      expect(await seriousAxeViolations(p)).toEqual([]);
      expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await p.context().close();
    }
  }, 90_000);
});
