/**
 * The login form's challenge and two-factor enrolment in Chromium (Debian's, through
 * playwright-core) against a real Siteward: the ALTCHA widget, served by Siteward under the
 * page's strict CSP, solves the challenge and the login goes through; an editor whose role must
 * use two-factor is sent to enrolment, reads the secret from the page, confirms with a code
 * computed here, and later logs in with a recovery code. Screenshots at 1280 and 360 px go to
 * test-artifacts/login-security (gitignored).
 */
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, chromiumAvailable, launchChromium, BROWSER_WAIT_MS } from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type TestApp } from '../../../test/helpers/test-app.js';

const PASSWORD = 'correct horse battery';

describe.skipIf(!chromiumAvailable)('login security in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  const shots = artifactsDir('login-security');

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({ port, startJobs: false, env: { SITEWARD_HOME_URL: base, SITEWARD_TWO_FACTOR_REQUIRED_ROLES: 'editor' } });
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'author', password: PASSWORD });
    await app.app.users.create({ login: 'eve', email: 'eve@example.org', role: 'editor', password: PASSWORD });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A fresh browser at this width; what the page's CSP refused is collected. */
  async function open(width: number): Promise<{ p: Page; refused: string[] }> {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, baseURL: base });
    const p = await ctx.newPage();
    p.setDefaultTimeout(BROWSER_WAIT_MS);
    const refused: string[] = [];
    p.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    p.on('pageerror', (e) => refused.push(String(e)));
    return { p, refused };
  }

  it('solves the challenge with the real widget after 3 failures, then logs in', async () => {
    // Three failures from this address (the browser's too: both come from 127.0.0.1).
    for (let i = 0; i < 3; i++) {
      const res = await app.request({
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: 'log=ann&pwd=wrong',
      });
      expect(res.status).toBe(401);
    }
    for (const width of [1280, 360]) {
      const { p, refused } = await open(width);
      const requests: string[] = [];
      p.on('request', (r) => requests.push(r.url()));
      await p.goto('/login');
      await p.locator('altcha-widget').waitFor();
      // The widget puts its payload in the form once solved (a second or so of work).
      await expect.poll(() => p.locator('input[name="altcha"]').inputValue(), { timeout: 60_000, interval: 200 }).not.toBe('');
      await p.screenshot({ path: path.join(shots, `challenge-${width}.png`), fullPage: true });
      expect(refused).toEqual([]);
      expect(requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
      await p.fill('#user_login', 'ann');
      await p.fill('#user_pass', PASSWORD);
      await Promise.all([p.waitForURL((url) => url.pathname === '/admin/'), p.click('button[type=submit]')]);
      await p.context().close();
    }
  }, 180_000);

  it('sends an editor to enrolment, which a code from the page’s secret confirms; a recovery code logs in later', async () => {
    // This address has failed before: turn the challenge off by forgetting those failures.
    await app.store.tables.run<{ protect_failures: { key: string } }, unknown>((db) => db.deleteFrom('protect_failures').execute());
    const { p, refused } = await open(1280);
    await p.goto('/login?redirect_to=%2Fadmin%2F');
    await p.fill('#user_login', 'eve');
    await p.fill('#user_pass', PASSWORD);
    await Promise.all([p.waitForURL((url) => url.pathname === '/login/two-factor/setup'), p.click('button[type=submit]')]);
    // The admin page stays closed until enrolled.
    expect(new URL((await p.request.get('/admin/', { maxRedirects: 0 })).headers().location ?? '', base).pathname).toBe(
      '/login/two-factor/setup',
    );
    await expect(p.getByText('Your role must use two-factor authentication').isVisible()).resolves.toBe(true);
    await expect(p.getByText('Application passwords are not asked for a second factor').isVisible()).resolves.toBe(true);
    await expect(
      p.locator('#two-factor-qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBeGreaterThan(0);
    const both = async (name: string) => {
      for (const width of [1280, 360]) {
        await p.setViewportSize({ width, height: 900 });
        await p.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
      }
    };
    await both('enrol');
    const secret = (await p.locator('#two-factor-secret').textContent())!.trim();
    await p.fill('#two-factor-code', await generate({ secret }));
    await p.click('button[type=submit]');
    await p.locator('#recovery-codes').waitFor();
    const recovery = await p.locator('#recovery-codes code').allTextContents();
    expect(recovery).toHaveLength(10);
    // The codes come as a file too.
    const file = decodeURIComponent(
      (await p.locator('#recovery-codes-download').getAttribute('href'))!.replace(/^data:text\/plain;charset=utf-8,/, ''),
    );
    expect(file.trim().split('\n').slice(1)).toEqual(recovery);
    await both('recovery-codes');
    await Promise.all([p.waitForURL((url) => url.pathname === '/admin/'), p.getByRole('link', { name: 'Continue' }).click()]);
    expect(refused).toEqual([]);
    await p.context().close();

    // Enrolled: the password alone is no longer enough; a recovery code is the second step.
    const again = (await open(360)).p;
    await again.goto('/login?redirect_to=%2Fadmin%2F');
    await again.fill('#user_login', 'eve');
    await again.fill('#user_pass', PASSWORD);
    await again.click('button[type=submit]');
    await again.locator('#two_factor_code').waitFor();
    await expect(again.locator('#two_factor_code').getAttribute('inputmode')).resolves.toBe('numeric');
    await again.screenshot({ path: path.join(shots, 'code-step-360.png'), fullPage: true });
    // A recovery code is its own step, with a field that takes letters (no number pad).
    await again.getByRole('button', { name: 'Lost your device? Use a recovery code' }).click();
    await again.getByLabel('Recovery code (like 5fnhv-ojhxz)').waitFor();
    await expect(again.locator('#two_factor_code').getAttribute('inputmode')).resolves.toBe('text');
    await again.screenshot({ path: path.join(shots, 'recovery-step-360.png'), fullPage: true });
    await again.fill('#two_factor_code', recovery[0]!);
    await Promise.all([again.waitForURL((url) => url.pathname === '/admin/'), again.click('button[type=submit]')]);
    await again.context().close();
  }, 120_000);

  it('enrols from the admin page’s Two-factor screen, reading the secret from the page', async () => {
    await app.store.tables.run<{ protect_failures: { key: string } }, unknown>((db) => db.deleteFrom('protect_failures').execute());
    const { p, refused } = await open(1280);
    await p.goto('/login?redirect_to=%2Fadmin%2F%23%2Ftwo-factor');
    await p.fill('#user_login', 'ann');
    await p.fill('#user_pass', PASSWORD);
    await Promise.all([p.waitForURL((url) => url.pathname === '/admin/'), p.click('button[type=submit]')]);
    await p.goto('/admin/#/two-factor');
    await p.getByRole('heading', { level: 1, name: 'Two-factor' }).waitFor();
    await p.getByTestId('two-factor-state').waitFor();
    await expect(p.getByTestId('two-factor-screen').textContent()).resolves.toContain(
      'Application passwords are not asked for a second factor',
    );
    await p.getByRole('button', { name: 'Set up two-factor' }).click();
    const secret = (await p.getByTestId('two-factor-secret').textContent())!.trim();
    await expect(
      p.locator('.sw-two-factor-qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBeGreaterThan(0);
    for (const width of [1280, 360]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: path.join(shots, `admin-enrol-${width}.png`), fullPage: true });
    }
    await p.getByLabel('2. Enter the 6-digit code the app shows').fill(await generate({ secret }));
    await p.getByRole('button', { name: 'Turn on two-factor' }).click();
    await p.getByTestId('two-factor-codes').waitFor();
    await expect(p.locator('.sw-two-factor-codes code').count()).resolves.toBe(10);
    const shown = await p.locator('.sw-two-factor-codes code').allTextContents();
    const download = await p.getByRole('link', { name: 'Download' }).getAttribute('href');
    expect(
      decodeURIComponent(download!.replace(/^data:text\/plain;charset=utf-8,/, ''))
        .trim()
        .split('\n')
        .slice(1),
    ).toEqual(shown);
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await p.getByRole('button', { name: 'Copy' }).click();
    await expect(p.getByTestId('two-factor-codes-copied').textContent()).resolves.toBe('The recovery codes are copied.');
    expect((await p.evaluate<string>('navigator.clipboard.readText()')).trim().split('\n').slice(1)).toEqual(shown);
    for (const width of [1280, 360]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: path.join(shots, `admin-codes-${width}.png`), fullPage: true });
    }
    await p.getByRole('button', { name: 'I have saved them' }).click();
    // The screen shows the status it fetched after the code was confirmed (a wait, not a timing).
    await p.getByTestId('two-factor-state').filter({ hasText: 'Two-factor authentication is on' }).waitFor({ timeout: BROWSER_WAIT_MS });
    await p.screenshot({ path: path.join(shots, 'admin-on-360.png'), fullPage: true });
    expect(refused).toEqual([]);
    await p.context().close();
  }, 120_000);
});
