/** Test-only: a site connected over real HTTP to a real local account service, driven like a browser. */
import { expect } from 'vitest';
import { TestBrowser, formOf, loginAndConsent } from '../../../accounts/testing/browser.js';
import type { LoggedIn, TestApp, TestResponse } from '../../../../test/helpers/test-app.js';
import { call } from '../../jetpack-v4/testing/http-client.js';

/** The test app's home URL is http://example.org, so the provider sends the browser there. */
export const SITE_CALLBACK = 'http://example.org/connect/callback';

export interface Account {
  login: string;
  password: string;
}

/** Path and query of a URL on the site (the test app answers on a real socket under another origin). */
export function sitePath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A GET on the site's pages with the user's login cookie. */
export function visit(site: TestApp, path: string, as?: LoggedIn): Promise<TestResponse> {
  return site.request({ path, headers: as ? { Cookie: as.cookie } : {} });
}

/** GET /connect-url as `as`, then /connect/start: the provider's authorization URL. */
export async function startLogin(site: TestApp, as: LoggedIn): Promise<string> {
  const connectUrl = await call(site, 'GET', '/connect-url', { as });
  expect(connectUrl.status, connectUrl.text).toBe(200);
  expect(connectUrl.json).toMatch(/^http:\/\/example\.org\/connect\/start\?_wpnonce=[0-9a-f]{10}$/);
  const start = await visit(site, sitePath(String(connectUrl.json)), as);
  expect(start.status, start.text).toBe(302);
  return start.headers.location ?? '';
}

/** A wrong password at the provider's login page: 401, and the browser stays on the login form. */
export async function wrongPassword(browser: TestBrowser, authorizationUrl: string, login: string): Promise<void> {
  const page = await browser.follow(await browser.get(authorizationUrl), authorizationUrl, SITE_CALLBACK);
  const form = formOf(await page.response.text(), '/login');
  const wrong = await browser.post(new URL(form.action, page.url).href, { csrf: form.csrf, login, password: 'not the password' });
  expect(wrong.status).toBe(401);
  expect(await wrong.text()).toContain('Unknown login or incorrect password');
}

/** Start → provider login and consent → the callback URL the provider sent the browser to (not yet visited). */
export async function loginAtProvider(site: TestApp, as: LoggedIn, account: Account, browser = new TestBrowser()): Promise<string> {
  return loginAndConsent(browser, await startLogin(site, as), account, SITE_CALLBACK);
}

/** The whole link: ends with the callback's answer (302 to the admin page when it worked). */
export async function link(site: TestApp, as: LoggedIn, account: Account): Promise<TestResponse> {
  return visit(site, sitePath(await loginAtProvider(site, as, account)), as);
}
