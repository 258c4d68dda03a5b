/**
 * Single sign-on in a real browser (Debian Chromium through playwright-core): from /login,
 * through the local account service's own login (and consent) pages, back to the admin page;
 * the module's panel; the refusal page of an account nobody here is linked to. Screenshots at
 * 1280 and 360 px go to test-artifacts/sso (gitignored).
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { TestBrowser, loginAndConsent } from '../../accounts/testing/browser.js';
import { artifactsDir, chromiumAvailable, launchChromium, watchedPage } from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { ANN, startProvider } from '../connection/testing/connection-kit.js';

const DAVE = { login: 'dave', email: 'dave@example.org', name: 'Dave', password: 'dave password' };

describe.skipIf(!chromiumAvailable)('single sign-on in Chromium', () => {
  let provider: AccountsService;
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  const problems: string[] = [];
  const shots = artifactsDir('sso');

  beforeAll(async () => {
    provider = await startProvider();
    await provider.addUser(DAVE);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({
      port,
      env: {
        SITEWARD_HOME_URL: base,
        SITEWARD_ACCOUNTS_ISSUER: provider.issuer,
        SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken,
        SITEWARD_ACCOUNTS_NAME: 'Example ID',
      },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    // Connect over HTTP (the admin page's own connect button has its browser test): boss ↔ ann, master user.
    const connectUrl = await app.request({ path: '/wp-json/jetpack/v4/connect-url', headers: app.auth(admin) });
    const start = await app.request({
      path: new URL(String(connectUrl.json)).pathname + new URL(String(connectUrl.json)).search,
      headers: { Cookie: admin.cookie },
    });
    const callback = await loginAndConsent(new TestBrowser(), start.headers.location ?? '', ANN, `${base}/connect/callback`);
    const linked = await app.request({ path: new URL(callback).pathname + new URL(callback).search, headers: { Cookie: admin.cookie } });
    expect(linked.headers.location).toBe('/admin/?connection=connected');
    const on = await app.request({ method: 'POST', path: '/wp-json/jetpack/v4/settings', headers: app.auth(admin), body: { sso: true } });
    expect(on.status, on.text).toBe(200);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
  });

  async function contextAt(width: number): Promise<{ context: BrowserContext; page: Page }> {
    const { ctx, p } = await watchedPage(browser, { baseURL: base, width, problems, consoleErrors: true, cspViolations: true });
    return { context: ctx, page: p };
  }

  /** At the provider: its login page, then its consent page when it has no grant for the site yet. */
  async function logInAtProvider(page: Page, account: { login: string; password: string }): Promise<void> {
    await page.waitForURL((u) => u.origin === provider.issuer);
    await page.fill('input[name=login]', account.login);
    await page.fill('input[name=password]', account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    const allow = page.getByRole('button', { name: 'Allow' });
    await Promise.race([allow.waitFor().then(() => allow.click()), page.waitForURL((u) => u.origin === base)]);
    await page.waitForURL((u) => u.origin === base);
  }

  for (const width of [1280, 360]) {
    it(`logs the linked administrator in from /login through the provider to the admin page (${width} px)`, async () => {
      const { context, page } = await contextAt(width);
      try {
        await page.goto('/admin/');
        expect(new URL(page.url()).pathname).toBe('/login');
        const sso = page.getByRole('link', { name: 'Log in with Example ID' });
        await sso.waitFor();
        await page.screenshot({ path: path.join(shots, `login-${width}.png`), fullPage: true });
        await sso.click();
        await page.waitForURL((u) => u.origin === provider.issuer);
        await page.screenshot({ path: path.join(shots, `provider-login-${width}.png`), fullPage: true });
        await logInAtProvider(page, ANN);
        await page.getByRole('heading', { level: 1, name: 'At a Glance' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/admin/');
        const cookies = await context.cookies(base);
        expect(cookies.find((c) => c.name === 'siteward_logged_in')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
        await page.screenshot({ path: path.join(shots, `admin-after-sso-${width}.png`), fullPage: true });

        // The module's panel says which provider, which users, and the address to register.
        await page.evaluate(() => {
          (globalThis as unknown as { location: { hash: string } }).location.hash = '#/modules/sso';
        });
        const panel = page.getByTestId('sso-status');
        await panel.waitFor();
        const text = (await panel.textContent()) ?? '';
        expect(text).toContain('Account service: Example ID');
        expect(text).toContain('“Log in with Example ID”');
        expect(text).toContain('1 user of this site is linked');
        expect(text).toContain(`${base}/login/sso/callback`);
        await page.screenshot({ path: path.join(shots, `sso-panel-${width}.png`), fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('shows an account nobody here is linked to a page saying so, and logs nobody in (360 px)', async () => {
    const { context, page } = await contextAt(360);
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Log in with Example ID' }).click();
      await logInAtProvider(page, DAVE);
      await page.getByRole('heading', { level: 1, name: 'No account here is linked to yours' }).waitFor();
      expect(await page.locator('#detail').textContent()).toContain('Example ID account: dave <dave@example.org>');
      expect((await context.cookies(base)).some((c) => c.name === 'siteward_logged_in')).toBe(false);
      await page.screenshot({ path: path.join(shots, 'refused-360.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
