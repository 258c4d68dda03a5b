/**
 * States that tell the truth (issue 25 item 4), in Chromium against a real Siteward on a real
 * socket that has none of what its services need: no backup target, a home URL on this machine
 * only (no SITEWARD_MONITOR_URL), no anti-spam key, no connection. The API says so in
 * `available` and `unavailable_reason`; Modules and At a Glance say the same, with what to set,
 * and offer no switch that cannot work. Screenshots at 1280 and 360 px go to
 * test-artifacts/admin-unavailable (gitignored).
 */

import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifactsDir,
  chromiumAvailable,
  launchChromium,
  adminPageLoggedIn,
  goToScreen,
  seriousAxeViolations,
} from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { ModuleRecord } from '../../wire/jetpack-v4.js';

describe.skipIf(!chromiumAvailable)('modules whose service is not set up, in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  const shots = artifactsDir('admin-unavailable');
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({ port, startJobs: false, env: { SITEWARD_HOME_URL: base } });
    admin = await app.loginAs('administrator', { login: 'boss' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const pageAt = (width: number) => adminPageLoggedIn(browser, { baseURL: base, width, user: admin, problems, consoleErrors: true });
  const go = goToScreen;

  async function records(): Promise<Record<string, ModuleRecord>> {
    const res = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: app.auth(admin) });
    return res.json as Record<string, ModuleRecord>;
  }

  it('shows Data Backups, Monitor and Single Sign On unavailable with the API’s reason and what to set, switches disabled', async () => {
    const all = await records();
    expect(all.vaultpress).toMatchObject({ available: false, activated: false, unavailable_reason: { code: 'not_configured' } });
    expect(all.monitor).toMatchObject({ available: false, activated: false, unavailable_reason: { code: 'not_configured' } });
    expect(all.sso).toMatchObject({ available: false, activated: false, unavailable_reason: { code: 'not_connected' } });

    const { ctx, p } = await pageAt(1280);
    await go(p, '#/modules', 'Modules');
    for (const slug of ['vaultpress', 'monitor']) {
      const row = p.getByTestId(`module-${slug}`);
      await expect(row.getByTestId(`unavailable-${slug}`).textContent()).resolves.toContain(all[slug]!.unavailable_reason!.message);
      for (const name of all[slug]!.unavailable_reason!.settings)
        expect(await row.getByTestId(`unavailable-${slug}`).textContent()).toContain(name);
      expect(await p.getByTestId(`toggle-${slug}`).isDisabled()).toBe(true);
      expect(await p.getByTestId(`toggle-${slug}`).isChecked()).toBe(false);
    }
    await expect(p.getByTestId('unavailable-sso').textContent()).resolves.toContain('Needs a connection to the account service');
    expect(await p.getByTestId('toggle-sso').isDisabled()).toBe(true);
    await p.screenshot({ path: path.join(shots, 'modules-1280.png'), fullPage: true });
    await p.getByTestId('module-vaultpress').screenshot({ path: path.join(shots, 'module-row-vaultpress-1280.png') });

    // The module's own panel says the same and does not ask to turn it on.
    await go(p, '#/modules/monitor', 'Monitor');
    await p.getByTestId('unavailable-monitor').waitFor();
    expect(await p.getByText('Turn Monitor on to change its settings.').count()).toBe(0);
    // So does the Monitor screen, naming the setting to set; no "Turn it on" that leads to a panel that cannot.
    await go(p, '#/monitor', 'Monitor');
    const reason = p.getByTestId('unavailable-monitor');
    await expect(reason.textContent()).resolves.toContain(all.monitor!.unavailable_reason!.message);
    expect(all.monitor!.unavailable_reason!.message).toContain(`SITEWARD_MONITOR_URL=${base}/`);
    expect(await p.getByTestId('monitor-off').count()).toBe(0);
    expect(await p.getByRole('link', { name: 'Turn it on' }).count()).toBe(0);
    await p.screenshot({ path: path.join(shots, 'monitor-screen-1280.png'), fullPage: true });
    expect(await seriousAxeViolations(p)).toEqual([]);
    await ctx.close();
  });

  it('says on At a Glance why Monitor is off and which anti-spam setting is missing', async () => {
    const spam = await app.request({ path: '/wp-json/jetpack/v4/akismet/stats/get', headers: app.auth(admin) });
    expect(spam.json).toBe('not_installed');
    const backups = await app.request({ path: '/wp-json/jetpack/v4/module/vaultpress/data', headers: app.auth(admin) });
    expect(backups.json).toMatchObject({ code: 'not_registered' });

    const { ctx, p } = await pageAt(1280);
    await go(p, '#/dashboard', 'At a Glance');
    await p.getByTestId('card-monitor').getByTestId('unavailable-monitor').waitFor();
    expect(
      await p
        .getByTestId('card-monitor')
        .getByRole('button', { name: /Turn on/ })
        .count(),
    ).toBe(0);
    await p
      .getByTestId('card-spam')
      .getByText(/no anti-spam key is set on this server\. Set SITEWARD_AKISMET_KEY/)
      .waitFor();
    await p
      .getByTestId('card-backups')
      .getByText((backups.json as { message: string }).message)
      .waitFor();
    // No account service configured: the Connection card says so up front, naming the setting, with no Connect button.
    await expect(p.getByTestId('connection-state').textContent()).resolves.toContain(
      'no account service is configured. Set SITEWARD_ACCOUNTS_ISSUER',
    );
    expect(await p.getByRole('button', { name: 'Connect to the account service' }).count()).toBe(0);
    await p.waitForLoadState('networkidle');
    await p.screenshot({ path: path.join(shots, 'dashboard-1280.png'), fullPage: true });
    expect(await seriousAxeViolations(p)).toEqual([]);
    await ctx.close();
  });

  it('fits 360 px on Modules and At a Glance', async () => {
    const { ctx, p } = await pageAt(360);
    const overflows: string[] = [];
    for (const [name, hash, heading] of [
      ['modules', '#/modules', 'Modules'],
      ['dashboard', '#/dashboard', 'At a Glance'],
    ] as const) {
      await go(p, hash, heading);
      await p.waitForLoadState('networkidle');
      await p.screenshot({ path: path.join(shots, `${name}-360.png`), fullPage: true });
      if (name === 'modules') await p.getByTestId('module-monitor').screenshot({ path: path.join(shots, 'module-row-monitor-360.png') });
      const width = await p.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 360) overflows.push(`${name}: ${width} px`);
    }
    expect(overflows).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
