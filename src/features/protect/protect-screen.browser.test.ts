/**
 * The Protect screen of the admin page in Chromium (Debian's, through playwright-core) against
 * a real Siteward: addresses blocked over HTTP are listed with the usernames tried, one is lifted
 * with its button and may log in again at once. Screenshots at 1280 and 360 px go to
 * test-artifacts/protect (gitignored).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminScreenLoggedIn,
  artifactsDir,
  chromiumAvailable,
  launchChromium,
  seriousAxeViolations,
} from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let now = Date.now();
const PASSWORD = 'correct horse battery';

describe.skipIf(!chromiumAvailable)('the Protect screen in Chromium', () => {
  let app: TestApp;
  let admin: LoggedIn;
  let browser: Browser;
  let base: string;
  const shots = artifactsDir('protect');

  const loginFrom = (address: string, login: string, password: string) =>
    app.request({
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, 'X-Forwarded-For': address },
      body: `log=${encodeURIComponent(login)}&pwd=${encodeURIComponent(password)}`,
    });

  async function block(address: string, logins: readonly string[]): Promise<void> {
    for (let i = 0; i < 5; i += 1) await loginFrom(address, logins[i % logins.length]!, 'wrong-password');
    expect((await loginFrom(address, 'victim', PASSWORD)).status).toBe(429);
  }

  async function openScreen(width: number): Promise<Page> {
    const { p } = await adminScreenLoggedIn(browser, { baseURL: base, width, user: admin, link: 'Protect' });
    await p.getByTestId('protect-summary').waitFor();
    return p;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Blocked by form failures: without the login form's challenge, which has its own browser test.
    app = await createTestApp({
      port,
      clock: () => now,
      startJobs: false,
      env: { SITEWARD_HOME_URL: base, SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0' },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    await app.app.users.create({ login: 'victim', email: 'victim@example.org', role: 'editor', password: PASSWORD });
    await block('203.0.113.5', ['admin', 'victim', 'root']);
    now += 60_000;
    await block('2001:db8:1:2::7', ['victim']);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the blocked addresses with what was tried, and lifts one with its button', async () => {
    const p = await openScreen(1280);
    await expect(p.getByTestId('protect-summary').textContent()).resolves.toBe('2 addresses are blocked.');
    const rows = p.getByTestId('protect-block');
    await expect(rows.nth(0).textContent()).resolves.toContain('2001:db8:1:2::/64');
    const v4 = rows.nth(1);
    await expect(v4.textContent()).resolves.toContain('203.0.113.5');
    await expect(v4.textContent()).resolves.toContain('admin, root, victim');
    await expect(v4.textContent()).resolves.toMatch(/5, then 1 attempt refused/);
    await p.getByTestId('protect-attempts').getByText('refused: blocked').first().waitFor();
    await p.screenshot({ path: path.join(shots, 'protect-1280-two-blocks.png'), fullPage: true });

    await v4.getByRole('button', { name: 'Unblock 203.0.113.5' }).click();
    await p.locator('.components-notice__content', { hasText: '203.0.113.5 is unblocked: it may log in again.' }).waitFor();
    await p
      .getByTestId('protect-summary')
      .filter({ hasText: /^1 address is blocked\.$/ })
      .waitFor();
    expect((await loginFrom('203.0.113.5', 'victim', PASSWORD)).status).toBe(302);
    const listed = await app.request({ path: '/wp-json/siteward/v1/protect/blocks', headers: app.auth(admin) });
    expect((listed.json as { address: string; lifted_by: string | null }[]).find((b) => b.address === '203.0.113.5')?.lifted_by).toBe(
      'rest:boss',
    );

    await p.getByLabel('Show recent blocks too').check();
    await p
      .getByTestId('protect-summary')
      .filter({ hasText: /^2 blocks, current or recent\.$/ })
      .waitFor();
    await p.getByText(/Lifted .* by boss \(admin page\)/).waitFor();
    await p.context().close();
  }, 60_000);

  it('explains the allow list’s forms on the Protect module’s settings', async () => {
    const p = await openScreen(1280);
    await p.goto('/admin/#/modules/protect');
    await p.getByText(/a CIDR block \(192\.168\.0\.0\/24, 2001:db8:1::\/48\)/).waitFor();
    await p.context().close();
  }, 30_000);

  it('reads well at 360 px and passes axe', async () => {
    for (const width of [360, 1280]) {
      const p = await openScreen(width);
      await p.getByTestId('protect-block').first().waitFor();
      await p.screenshot({ path: path.join(shots, `protect-${width}.png`), fullPage: true });
      expect(await seriousAxeViolations(p)).toEqual([]);
      expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await p.context().close();
    }
  }, 90_000);

  it('keeps At a Glance’s blocked total in step with module/protect/count/get after a block made while the page was open', async () => {
    const p = await openScreen(1280);
    await p.goto('/admin/#/');
    const total = p.getByTestId('protect-total');
    await total.waitFor();
    const before = Number((await total.textContent())?.replace(/\D/g, ''));
    // Another refused attempt from the address still blocked, while the page stays open.
    expect((await loginFrom('2001:db8:1:2::7', 'victim', PASSWORD)).status).toBe(429);
    const counted = await app.request({ path: '/wp-json/jetpack/v4/module/protect/count/get', headers: app.auth(admin) });
    expect(Number(counted.json)).toBe(before + 1);
    // The administrator comes back to the tab: the card asks again and agrees with the count.
    await p.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await total.filter({ hasText: new RegExp(`^${before + 1}$`) }).waitFor();
    await p.context().close();
  }, 30_000);
});
