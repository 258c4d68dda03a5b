/**
 * The admin page in a real browser (Debian Chromium through playwright-core) against a real
 * Siteward on a real socket. Each test asserts what the page shows and what the API then says.
 * Screenshots (1280 and 375 px, light and dark) go to test-artifacts/admin (gitignored).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, chromiumAvailable, CHROMIUM_PATH, launchChromium, onCi } from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

describe.runIf(onCi && !chromiumAvailable)('browser tests on CI', () => {
  it('have Chromium', () => {
    expect.fail(`CI=true but no Chromium at ${CHROMIUM_PATH}: .ci/run installs it with apt before npm test`);
  });
});

describe.skipIf(!chromiumAvailable)('the admin page in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  const shots = artifactsDir('admin');

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({ port, env: { SITEWARD_HOME_URL: base, SITEWARD_OFFLINE: '1' } });
    admin = await app.loginAs('administrator', { login: 'boss' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A logged-in page (through the login form), collecting console errors and CSP violations. */
  async function loggedIn(opts: { width?: number; dark?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, colorScheme: opts.dark ? 'dark' : 'light', baseURL: base });
    const page = await context.newPage();
    const problems: string[] = [];
    // Resources the server answers 404 for (endpoints another branch adds) are the cards' business, not a page error.
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP ${e.effectiveDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber} sample=${e.sample}`);
      });
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto('/admin/');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('#user_login', admin.login);
    await page.fill('#user_pass', admin.password);
    await Promise.all([page.waitForURL(`${base}/admin/`), page.click('button[type=submit]')]);
    await page.getByRole('heading', { level: 1, name: 'At a Glance' }).waitFor();
    return { context, page, problems };
  }

  async function axe(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    const result = await page.evaluate(async () => {
      const w = window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } };
      return w.axe.run(document, { resultTypes: ['violations'] });
    });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('logs in, renders At a Glance from Initial_State with no CSP violation', async () => {
    const { context, page, problems } = await loggedIn();
    await expect(page.title()).resolves.toBe('At a Glance ‹ Siteward');
    await page.screenshot({ path: path.join(shots, 'smoke.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
