/**
 * The server's own pages in Chromium (Debian's, through playwright-core) against a real Siteward
 * and a real local account service: the home page, the 404 page, /setup, /login (and its error
 * and 429 states), the password-reset pages, the unlock page, a connection result page and the
 * account service's login and consent pages. Each is taken at 1280 and 360 px, light and dark
 * (test-artifacts/site-pages, gitignored), and fails on sideways scrolling, on a serious or
 * critical axe violation, or on anything the pages' CSP refused.
 */

import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { ensureSetupToken } from '../../auth/setup-token.js';
import { artifactsDir, chromiumAvailable, launchChromium, BROWSER_WAIT_MS, seriousAxeViolations } from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { ANN, startProvider } from '../connection/testing/connection-kit.js';

// Evaluated as text (page.evaluate), which the pages' CSP does not govern, unlike an injected script tag.
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const VIEWS = [
  { width: 1280, dark: false },
  { width: 1280, dark: true },
  { width: 360, dark: false },
  { width: 360, dark: true },
] as const;

describe.skipIf(!chromiumAvailable)("the server's own pages in Chromium", () => {
  let provider: AccountsService;
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin: LoggedIn;
  const shots = artifactsDir('site-pages');
  const problems: string[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    provider = await startProvider();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({
      port,
      startJobs: false,
      env: {
        SITEWARD_HOME_URL: base,
        SITEWARD_SITE_NAME: 'Acme Widgets',
        SITEWARD_SITE_DESCRIPTION: 'Fine widgets since 1999',
        SITEWARD_PROTECT_CHALLENGE_AFTER: '0',
        SITEWARD_ACCOUNTS_ISSUER: provider.issuer,
        SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken,
        SITEWARD_ACCOUNTS_NAME: 'Example ID',
      },
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base });
    page = await context.newPage();
    page.setDefaultTimeout(BROWSER_WAIT_MS);
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP ' + e.effectiveDirective + ' blocked ' + e.blockedURI));",
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
  });

  /** The page as it is now, in each width and colour scheme: a screenshot, then the checks. */
  async function capture(name: string): Promise<void> {
    for (const { width, dark } of VIEWS) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
      const label = `${name}-${width}-${dark ? 'dark' : 'light'}`;
      await page.screenshot({ path: path.join(shots, `${label}.png`), fullPage: true });
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
          .documentElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      if (scrollWidth > clientWidth) failures.push(`${label}: ${scrollWidth} px wide in ${clientWidth}`);
      failures.push(...(await seriousAxeViolations(page)).map((v) => `${label}: ${v}`));
    }
    // The stylesheet came: the card is styled (a browser-default page has no border on main).
    const border = await page
      .locator('main.sw-card')
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle: (e: unknown) => { borderTopWidth: string } }).getComputedStyle(el).borderTopWidth,
      );
    if (border !== '1px') failures.push(`${name}: the shared stylesheet did not apply`);
  }

  async function visit(name: string, url: string, status: number): Promise<void> {
    const res = await page.goto(url);
    expect(res?.status(), `${name} ${url}`).toBe(status);
    await capture(name);
  }

  it('takes every page at 1280 and 360 px, light and dark, with nothing wider than the window and no serious accessibility violation', async () => {
    const token = (await ensureSetupToken(app.store))!;
    await visit('setup', `/setup?token=${token}`, 200);
    await visit('home', '/', 200);
    await visit('not-found', '/no/such/page', 404);
    await visit('login', '/login', 200);
    await visit('lost-password', '/login/lost-password', 200);
    await visit('reset-password-invalid', '/login/reset-password?login=nobody&key=not-a-key', 400);
    await visit('unlock', '/login/unlock', 200);

    admin = await app.loginAs('administrator', { login: 'boss' });
    await page.goto('/login');
    await page.fill('#user_login', 'boss');
    await page.fill('#user_pass', 'not the password');
    await page.click('button[type=submit]');
    await page.locator('p.error').waitFor();
    await capture('login-error');

    // A connection result page: a connect link whose nonce is not this session's.
    await context.addCookies([{ name: admin.cookie.split('=')[0]!, value: admin.cookie.slice(admin.cookie.indexOf('=') + 1), url: base }]);
    await visit('connect-expired', '/connect/start?_wpnonce=nope', 403);

    // The account service's login and consent pages, on the way to linking the account.
    const connectUrl = await app.request({ path: '/wp-json/jetpack/v4/connect-url', headers: app.auth(admin) });
    const start = new URL(String(connectUrl.json));
    await page.goto(start.pathname + start.search);
    await page.waitForURL((u) => u.origin === provider.issuer);
    await page.locator('input[name=login]').waitFor();
    await capture('accounts-login');
    await page.fill('input[name=login]', ANN.login);
    await page.fill('input[name=password]', 'wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('p.error').waitFor();
    await capture('accounts-login-error');
    await page.fill('input[name=password]', ANN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await capture('accounts-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.origin === base && u.pathname === '/admin/');
    // Leave the admin app before logging out: a card still loading would meet the cleared
    // cookie with a 401 and send the page to /login?redirect_to=… in the middle of the next goto.
    await page.goto('about:blank');
    await context.clearCookies();

    // Blocked: five failures from this address, then the form answers with the 429 page.
    for (let i = 0; i < 5; i += 1) {
      await app.request({ method: 'POST', path: '/login', headers: { ...FORM, origin: base }, body: 'log=boss&pwd=wrong' });
    }
    await page.goto('/login');
    await page.fill('#user_login', 'boss');
    await page.fill('#user_pass', admin.password);
    const [blocked] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'),
      page.click('button[type=submit]'),
    ]);
    expect(blocked.status()).toBe(429);
    await capture('login-blocked');

    expect(failures).toEqual([]);
    expect(problems).toEqual([]);
  }, 240_000);
});
