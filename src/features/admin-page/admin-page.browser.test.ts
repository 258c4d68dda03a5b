/**
 * The admin page in a real browser (Debian Chromium through playwright-core) against a real
 * Siteward on a real socket, connected to a local account service, an Akismet-like and a
 * registry-like peer on 127.0.0.1, with a backup directory. Each test asserts what the
 * page shows and what the API then says. axe-core must find no serious or critical violation on
 * any screen. Screenshots (1280 and 360 px, light and dark) go to test-artifacts/admin
 * (gitignored). The tests run in order: they share one site whose state they move forward.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import {
  artifactsDir,
  chromiumAvailable,
  CHROMIUM_PATH,
  launchChromium,
  logInThroughForm,
  onCi,
  seriousAxeViolations,
  watchedPage,
} from '../../../test/helpers/browser.js';
import { FakeAkismet } from '../../../test/helpers/fake-akismet.js';
import { makePluginSite } from '../../../test/helpers/plugin-site.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { main as cli } from '../../cli.js';
import { ANN, startProvider } from '../connection/testing/connection-kit.js';
import { FakeRegistry } from '../../../test/helpers/fake-registry.js';

describe.runIf(onCi && !chromiumAvailable)('browser tests on CI', () => {
  it('have Chromium', () => {
    expect.fail(`CI=true but no Chromium at ${CHROMIUM_PATH}: .ci/run installs it with apt before npm test`);
  });
});

describe.skipIf(!chromiumAvailable)('the admin page in Chromium', () => {
  let provider: AccountsService;
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const shots = artifactsDir('admin');
  /** A port nobody listens on: the monitored "peer" that is down. */
  let deadPeer: string;
  // The peers of the backups, spam and updates cards. Akismet and the registry start down, so
  // the first answers are failures, which neither client caches; their test brings them up.
  let akismet: FakeAkismet;
  let akismetUrl: string;
  const registry = new FakeRegistry();
  /** The site project (data directory, two public plugin packages) and its backup directory. */
  let site: string;
  let backupDir: string;
  let configFile: string;

  beforeAll(async () => {
    provider = await startProvider();
    const port = await freePort();
    deadPeer = `http://127.0.0.1:${await freePort()}/`;
    base = `http://127.0.0.1:${port}`;
    akismet = new FakeAkismet('akismetkey12', base);
    akismet.mode = 'down';
    akismetUrl = await akismet.start();
    registry.mode = 'down';
    registry.packages.set('sw-gallery', '1.3.0');
    registry.packages.set('@acme/sw-forms', '2.0.0');
    site = makePluginSite({ 'sw-gallery': '1.2.0', '@acme/sw-forms': '2.0.0' });
    backupDir = path.join(site, 'backups');
    configFile = path.join(site, 'siteward.config.json');
    writeFileSync(configFile, JSON.stringify({ dataDir: site, backupDir, homeUrl: base }));
    app = await createTestApp({
      port,
      dataDir: site,
      env: {
        SITEWARD_BACKUP_DIR: backupDir,
        // Backups only when the test takes one (`siteward backup now`).
        SITEWARD_BACKUP_SCHEDULE: 'off',
        SITEWARD_AKISMET_URL: akismetUrl,
        SITEWARD_AKISMET_KEY: akismet.key,
        SITEWARD_NPM_REGISTRY: await registry.start(),
        SITEWARD_PLUGINS: 'sw-gallery,@acme/sw-forms',
        SITEWARD_HOME_URL: base,
        SITEWARD_ACCOUNTS_ISSUER: provider.issuer,
        SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken,
        SITEWARD_PROTECT_MAX_FAILURES: '3',
        SITEWARD_MONITOR_URL: deadPeer,
        SITEWARD_MONITOR_INTERVAL: '10',
        // The blocked logins of the protect test come from another (forwarded) address than the browser's.
        SITEWARD_TRUST_PROXY: '1',
      },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    browser = await launchChromium();
    ({ ctx: context, p: page } = await watched());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await provider?.close();
    await akismet?.stop();
    await registry.stop();
    if (site) rmSync(site, { recursive: true, force: true });
  });

  /**
   * A new context and its page, whose console errors, uncaught errors and CSP violations land in
   * `problems`. (404s of endpoints another branch adds are the cards' business, they say so: the
   * kit leaves out failed resource loads.)
   */
  const watched = (opts: { width?: number; dark?: boolean; height?: number } = {}) =>
    watchedPage(browser, { ...opts, baseURL: base, width: opts.width ?? 1280, problems, consoleErrors: true, cspViolations: true });

  async function logIn(p: Page, to = '/admin/', who: LoggedIn = admin): Promise<void> {
    await p.goto(to);
    expect(new URL(p.url()).pathname).toBe('/login');
    await logInThroughForm(p, who);
  }

  async function api<T>(method: string, route: string, body?: object): Promise<T> {
    const res = await app.request({ method, path: `/wp-json/${route}`, headers: app.auth(admin), body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.json as T;
  }
  const modules = () =>
    api<
      Record<
        string,
        {
          activated: boolean;
          available: boolean;
          options: Record<string, { current_value: unknown }> | null;
          option_texts: Record<string, { label: string; help: string; rule: string }> | null;
        }
      >
    >('GET', 'jetpack/v4/module/all');

  /** A notice of the page (not its copy in the screen-reader live region). */
  function notice(p: Page, text: string | RegExp) {
    return p.locator('.sw-notices .components-notice', { hasText: text });
  }

  async function go(p: Page, hash: string, heading: string): Promise<void> {
    await p.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, hash);
    await p.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  it('logs in through the form and shows At a Glance from Initial_State, with no CSP violation', async () => {
    await logIn(page);
    await page.getByRole('heading', { level: 1, name: 'At a Glance' }).waitFor();
    expect(await page.title()).toBe('At a Glance ‹ Siteward');
    await expect(page.getByTestId('connection-state').textContent()).resolves.toContain('not connected');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('serves the page with a strict CSP and hashed, immutable assets', async () => {
    const res = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    const script = /<script type="module" src="(\/admin\/assets\/main-[\w-]+\.js)"/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    const asset = await app.request({ path: script! });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('shows modules that need a connection greyed, with the reason, never hidden', async () => {
    await go(page, '#/modules', 'Modules');
    const unavailable = Object.entries(await modules())
      .filter(([, m]) => !m.available)
      .map(([slug]) => slug);
    expect(unavailable).toContain('stats');
    const stats = page.getByTestId('module-stats');
    await expect(stats.textContent()).resolves.toContain('Needs a connection');
    expect(await stats.locator('input[type=checkbox]').isDisabled()).toBe(true);
    expect(await page.locator('.sw-module').count()).toBe(37);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('connects to the local account service and comes back with the notice', async () => {
    await go(page, '#/dashboard', 'At a Glance');
    await Promise.all([
      page.waitForURL((u) => u.origin !== base),
      page.getByRole('button', { name: 'Connect to the account service' }).click(),
    ]);
    await page.fill('input[name=login]', ANN.login);
    await page.fill('input[name=password]', ANN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    // The provider asks for consent the first time.
    const allow = page.getByRole('button', { name: 'Allow' });
    await Promise.race([allow.waitFor().then(() => allow.click()), page.waitForURL((u) => u.origin === base)]);
    await page.waitForLoadState('networkidle');
    await page.waitForURL((u) => u.origin === base && u.pathname === '/admin/');
    await expect(page.locator('.sw-connection-notice').textContent()).resolves.toContain('master user');
    // The code is dropped from the address.
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByTestId('connection-state').textContent()).resolves.toContain('The site is connected');
    expect(await api<{ isActive: boolean }>('GET', 'jetpack/v4/connection-status')).toMatchObject({ isActive: true });
  });

  it('toggles a module on and off, and the API agrees', async () => {
    await go(page, '#/modules', 'Modules');
    await page.getByLabel('Search modules').fill('markdown');
    await expect.poll(() => page.locator('.sw-module').count()).toBe(1);
    const toggle = page.getByTestId('module-markdown').locator('input[type=checkbox]');
    const before = (await modules()).markdown!.activated;
    await toggle.click();
    await expect.poll(async () => (await modules()).markdown!.activated).toBe(!before);
    expect(await toggle.isChecked()).toBe(!before);
    await toggle.click();
    await expect.poll(async () => (await modules()).markdown!.activated).toBe(before);
    await page.getByLabel('Search modules').fill('');
  });

  it('rolls an optimistic toggle back with the API message when the API refuses', async () => {
    await page.route('**/jetpack/v4/module/latex/active**', (route) =>
      route.fulfill({
        status: 424,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'activation_failed',
          message: 'The requested Jetpack module could not be activated.',
          data: { status: 424 },
        }),
      }),
    );
    const toggle = page.getByTestId('module-latex').locator('input[type=checkbox]');
    const was = await toggle.isChecked();
    await toggle.click();
    await notice(page, /could not be turned (on|off): The requested Jetpack module could not be activated\./).waitFor();
    expect(await toggle.isChecked()).toBe(was);
    expect((await modules()).latex!.activated).toBe(was);
    await page.unroute('**/jetpack/v4/module/latex/active**');
  });

  it('shows an option validation error inline, then saves a valid value the API keeps', async () => {
    await api('PUT', 'jetpack/v4/module/custom-content-types/active', { active: true });
    await page.reload();
    await go(page, '#/modules/custom-content-types', 'Custom Content Types');
    const field = page.getByTestId('field-jetpack_portfolio_posts_per_page').locator('input');
    await field.fill('-3');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('field-jetpack_portfolio_posts_per_page').getByRole('alert').waitFor();
    await expect(page.getByTestId('field-jetpack_portfolio_posts_per_page').getByRole('alert').textContent()).resolves.toBe(
      (await modules())['custom-content-types']!.option_texts!.jetpack_portfolio_posts_per_page!.rule,
    );
    expect((await modules())['custom-content-types']!.options!.jetpack_portfolio_posts_per_page!.current_value).toBe(10);
    await field.fill('7');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notice(page, 'Custom Content Types settings saved.').waitFor();
    expect((await modules())['custom-content-types']!.options!.jetpack_portfolio_posts_per_page!.current_value).toBe(7);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('edits list options with token fields and shows the API refusal of a bad item under its field', async () => {
    await api('PUT', 'jetpack/v4/module/sharedaddy/active', { active: true });
    await page.reload();
    await go(page, '#/modules/sharedaddy', 'Sharing');
    const option = async (key: string) => (await modules()).sharedaddy!.options![key]!.current_value;
    const tokens = (testId: string, label?: string) =>
      (label ? page.getByTestId(testId).locator('.components-form-token-field').filter({ hasText: label }) : page.getByTestId(testId))
        .locator('.components-form-token-field__token-text [aria-hidden="true"]')
        .allTextContents();
    const show = page.getByTestId('field-show');
    const shownOn = (await option('show')) as string[];
    expect(await tokens('field-show')).toEqual(shownOn);
    // A place the API does not know: refused, its message under the field, nothing stored.
    await show.locator('input').fill('nowhere');
    await show.locator('input').press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(show.getByRole('alert').textContent()).resolves.toBe((await modules()).sharedaddy!.option_texts!.show!.rule);
    expect(await option('show')).toEqual(shownOn);
    await show.locator('.components-form-token-field__token', { hasText: 'nowhere' }).getByRole('button').click();
    await show.locator('input').fill('page');
    await show.locator('input').press('Enter');
    // The services: one token field per list.
    const services = page.getByTestId('field-sharing_services');
    const before = (await option('sharing_services')) as { visible: string[]; hidden: string[] };
    expect(await tokens('field-sharing_services', 'Visible')).toEqual(before.visible);
    await services.getByLabel('Hidden').fill('email');
    await services.getByLabel('Hidden').press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notice(page, 'Sharing settings saved.').waitFor();
    expect(await option('show')).toEqual([...shownOn, 'page']);
    expect(await option('sharing_services')).toEqual({ visible: before.visible, hidden: [...before.hidden, 'email'] });
    // A new custom service is three text boxes, not JSON.
    const custom = page.getByTestId('field-custom');
    expect(await custom.getByRole('textbox').count()).toBe(3);
    await custom.getByLabel('URL').waitFor();
    expect(await page.getByRole('textbox', { name: /JSON/ }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("edits Protect's allow list one entry a line, and the API reads it back as entries", async () => {
    await go(page, '#/modules/protect', 'Protect');
    const field = page.getByTestId('field-jetpack_protect_global_whitelist');
    const allowList = async () => (await modules()).protect!.options!.jetpack_protect_global_whitelist!.current_value;
    expect(await allowList()).toEqual({ local: [] });
    // Not the address the protect test blocks (203.0.113.9).
    await field.locator('textarea').fill('198.51.100.7\nnot an address');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(field.getByRole('alert').textContent()).resolves.toBe(
      `${(await modules()).protect!.option_texts!.jetpack_protect_global_whitelist!.rule} “notanaddress” is not one.`,
    );
    expect(await allowList()).toEqual({ local: [] });
    await field.locator('textarea').fill('198.51.100.7\n198.51.100.10 - 198.51.100.20');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await notice(page, 'Protect settings saved.').waitFor();
    expect(await allowList()).toEqual({ local: ['198.51.100.7', '198.51.100.10 - 198.51.100.20'] });
    await page.reload();
    await expect(field.locator('textarea').inputValue()).resolves.toBe('198.51.100.7\n198.51.100.10 - 198.51.100.20');
  });

  it('dismisses a notice, and the server remembers', async () => {
    await go(page, '#/dashboard', 'At a Glance');
    const welcome = page.locator('.sw-notice-welcome');
    await welcome.waitFor();
    await welcome.getByRole('button', { name: /close|dismiss/i }).click();
    await welcome.waitFor({ state: 'detached' });
    const html = (await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } })).text;
    const state = JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(html)![1]!) as { dismissedNotices: Record<string, boolean> };
    expect(state.dismissedNotices).toMatchObject({ welcome: true });
  });

  it('runs Jump Start after listing what it turns on, then undoes it', async () => {
    // A fresh connection offers Jump Start; reset/options brings the offer back if something closed it.
    await api('POST', 'jetpack/v4/reset/options');
    await page.reload();
    const banner = page.getByTestId('jumpstart');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('Carousel');
    // Siteward has no posts or pages: no post or page editors are promised; front-end settings say they are.
    const offer = (await banner.textContent()) ?? '';
    expect(offer).not.toMatch(/post and page editors/);
    expect(offer).toMatch(/Contact Form (\(already on\) )?\(a setting for the site’s front end\) — Turns on contact forms/);
    await banner.screenshot({ path: path.join(shots, 'jumpstart-1280.png') });
    expect((await modules()).carousel!.activated).toBe(false);
    await banner.getByRole('button', { name: /Turn on (these|the remaining)/ }).click();
    await notice(page, /Jump Start turned on/).waitFor();
    expect((await modules()).carousel!.activated).toBe(true);
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await notice(page, /Undone/).waitFor();
    expect((await modules()).carousel!.activated).toBe(false);
  });

  it('refreshes an expired nonce transparently', async () => {
    let refreshed = 0;
    page.on('request', (r) => {
      if (r.url().includes('action=rest-nonce')) refreshed++;
    });
    // The page carries a stale nonce: every call is refused once with rest_cookie_invalid_nonce.
    await page.route('**/admin/', async (route) => {
      const res = await route.fetch();
      route.fulfill({ response: res, body: (await res.text()).replace(/"WP_API_nonce":"[0-9a-f]+"/, '"WP_API_nonce":"0000000000"') });
    });
    await page.goto('/admin/#/modules');
    await page.reload();
    await page.getByTestId('module-markdown').waitFor();
    await page.unroute('**/admin/');
    expect(
      await page.evaluate(() => (globalThis as unknown as { Initial_State: { WP_API_nonce: string } }).Initial_State.WP_API_nonce),
    ).toBe('0000000000');
    const toggle = page.getByTestId('module-markdown').locator('input[type=checkbox]');
    const before = (await modules()).markdown!.activated;
    await toggle.click();
    await expect.poll(async () => (await modules()).markdown!.activated).toBe(!before);
    expect(refreshed).toBeGreaterThan(0);
    expect(await page.locator('.components-notice.is-error').count()).toBe(0);
  });

  it('shows protect blocks made in the test, with the chart', async () => {
    for (let i = 0; i < 5; i++)
      await app.request({
        method: 'POST',
        path: '/login',
        body: { username: 'boss', password: 'wrong password' },
        headers: { 'X-Forwarded-For': '203.0.113.9' },
      });
    const history = await api<{ total: number; history: { count: number }[] }>('GET', 'siteward/v1/protect/history?days=30');
    expect(history.total).toBeGreaterThan(0);
    await page.goto('/admin/#/dashboard');
    await page.getByTestId('protect-total').waitFor();
    expect(await page.getByTestId('protect-total').textContent()).toBe(history.total.toLocaleString('en-US'));
    const bars = await page
      .locator('[data-testid=protect-chart] rect.sw-chart-bar')
      .evaluateAll((rects) =>
        rects.map((r) => Number((r as unknown as { getAttribute(name: string): string | null }).getAttribute('data-count'))),
      );
    expect(bars).toEqual(history.history.map((d) => d.count));
    expect(bars.some((n) => n > 0)).toBe(true);
  });

  it('turns Monitor on from its card and shows the down peer on the timeline', async () => {
    await page.getByTestId('card-monitor').getByRole('button', { name: 'Turn on Monitor' }).click();
    await expect.poll(async () => (await modules()).monitor!.activated).toBe(true);
    await expect
      .poll(async () => (await api<{ intervals: unknown[] }>('GET', 'siteward/v1/monitor/history?days=30')).intervals.length, {
        timeout: 40_000,
        interval: 1000,
      })
      .toBeGreaterThan(0);
    await page.reload();
    await page.getByTestId('monitor-timeline').waitFor();
    await expect(page.getByTestId('monitor-status').textContent()).resolves.toContain('down');
    expect(await page.locator('[data-testid=monitor-timeline] rect.sw-chart-down').count()).toBeGreaterThan(0);
  }, 60_000);

  it('resets options after a confirmation', async () => {
    await api('PUT', 'jetpack/v4/module/markdown/active', { active: true });
    await go(page, '#/settings', 'Settings');
    await page.getByRole('button', { name: 'Reset all options' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect((await modules()).markdown!.activated).toBe(true);
    await dialog.getByRole('button', { name: 'Reset all options' }).click();
    // The page says what happened in its own words, not the wire's "Jetpack options reset.".
    await notice(page, /All options are reset/).waitFor();
    expect((await modules()).markdown!.activated).toBe(false);
  });

  /** The API's own answer to the admin, whatever its status: what the card must agree with. */
  async function answer<T>(route: string): Promise<{ status: number; json: T }> {
    const res = await app.request({ path: `/wp-json/${route}`, headers: app.auth(admin) });
    return { status: res.status, json: res.json as T };
  }
  type Backups = {
    code: string;
    message: string;
    data: { backups: { last_backup: number | null; status: string; size: number | null; id: string | null; count: number } };
  };
  type Refusal = { code: string; message: string; data: { status: number } };

  it('shows backups, spam statistics and plugin updates as the real endpoints answer them, failing peers included', async () => {
    // Akismet and the registry are down, and no backup has been taken yet.
    const spamDown = await answer<Refusal>('jetpack/v4/akismet/stats/get');
    expect(spamDown.status).toBe(502);
    expect(spamDown.json.message).toBe(`The Akismet service at ${new URL(akismetUrl).host} could not be reached. Try again later.`);
    const updatesDown = await answer<Refusal>('jetpack/v4/updates/plugins');
    expect([updatesDown.status, updatesDown.json.code]).toEqual([404, 'not_found']);
    const noBackup = await answer<Backups>('jetpack/v4/module/vaultpress/data');
    expect(noBackup.json.data.backups).toMatchObject({ status: 'none', last_backup: null, count: 0 });
    await page.goto('/admin/#/dashboard');
    await page.reload();
    await expect(page.getByTestId('card-spam').getByRole('alert').textContent()).resolves.toContain(spamDown.json.message);
    await page.getByTestId('card-updates').getByText(updatesDown.json.message).waitFor();
    await expect(page.getByTestId('backups-message').textContent()).resolves.toBe(noBackup.json.message);
    expect(await page.getByTestId('backups-facts').textContent()).toBe('Backups kept: 0');
    // Backups turned off: the API's 404 not_active, said plainly by the card.
    await api('PUT', 'jetpack/v4/module/vaultpress/active', { active: false });
    expect((await answer<Refusal>('jetpack/v4/module/vaultpress/data')).json).toMatchObject({ code: 'not_active', data: { status: 404 } });
    await page.reload();
    await page.getByTestId('card-backups').getByText('Backups are not active on this site.').waitFor();
    await api('PUT', 'jetpack/v4/module/vaultpress/active', { active: true });

    // A backup through the command line, and both peers back.
    const out: string[] = [];
    expect(await cli(['backup', 'now', '--config', configFile], { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
    akismet.mode = 'normal';
    registry.mode = 'normal';
    await page.getByTestId('card-spam').getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('spam-total').waitFor();
    await page.reload();

    const spam = await answer<{ all: { spam: number; accuracy: number; false_positives: number } }>('jetpack/v4/akismet/stats/get');
    expect(spam.status).toBe(200);
    expect(spam.json.all).toMatchObject({ spam: 1234, accuracy: 99.92, false_positives: 1 });
    await expect(page.getByTestId('spam-total').textContent()).resolves.toBe(spam.json.all.spam.toLocaleString('en-US'));
    await expect(page.getByTestId('card-spam').textContent()).resolves.toContain(`Accuracy: ${spam.json.all.accuracy}%`);

    const updates = await answer<{ code: string; message: string; count: number }>('jetpack/v4/updates/plugins');
    expect(updates).toEqual({ status: 200, json: { code: 'updates-available', message: '1 plugin need updating.', count: 1 } });
    await expect(page.getByTestId('updates-count').textContent()).resolves.toBe(String(updates.json.count));
    // The wire keeps the reference's "1 plugin need updating."; the page writes its own plural.
    await page.getByTestId('card-updates').getByText('1 plugin needs updating.').waitFor();

    const backups = await answer<Backups>('jetpack/v4/module/vaultpress/data');
    expect(backups.json.data.backups).toMatchObject({ status: 'ok', count: 1, id: out[0] });
    // Seconds ago reads "1 min" (WordPress's human_time_diff), in the card as in the API.
    expect(backups.json.message).toBe('Your site was successfully backed-up 1 min ago.');
    await expect(page.getByTestId('backups-message').textContent()).resolves.toBe(backups.json.message);
    const when = await page.evaluate(
      (s) => new Date(s * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      backups.json.data.backups.last_backup!,
    );
    await expect(page.getByTestId('backups-facts').textContent()).resolves.toBe(
      `Last backup: ${when} (${Math.round(backups.json.data.backups.size! / 1024)}\u00a0KB)Backups kept: 1`,
    );
  });

  it('tells a network failure and a proxy error page apart from an API refusal', async () => {
    // Neither can come from Siteward itself: they happen between the browser and the server.
    await page.route('**/jetpack/v4/akismet/stats/get**', (r) => r.abort('connectionrefused'));
    await page.route('**/jetpack/v4/module/vaultpress/data**', (r) =>
      r.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' }),
    );
    await page.reload();
    await expect(page.getByTestId('card-spam').getByRole('alert').textContent()).resolves.toContain('could not be reached');
    await expect(page.getByTestId('card-backups').getByRole('alert').textContent()).resolves.toContain('not the expected data');
    await page.unrouteAll();
    await page.reload();
    await page.getByTestId('spam-total').waitFor();
  });

  it('takes every screen at 1280 and 360 px, light and dark, with no serious accessibility violation and nothing wider than the window', async () => {
    const screens: [string, string, string][] = [
      ['dashboard', '#/dashboard', 'At a Glance'],
      ['modules', '#/modules', 'Modules'],
      ['module-sharing', '#/modules/sharedaddy', 'Sharing'],
      ['module-protect', '#/modules/protect', 'Protect'],
      ['settings', '#/settings', 'Settings'],
    ];
    // The cards with data: monitor on again (reset turned it off), its down interval still in the history.
    await api('PUT', 'jetpack/v4/module/monitor/active', { active: true });
    const violations: string[] = [];
    const overflows: string[] = [];
    for (const width of [1280, 360]) {
      for (const dark of [false, true]) {
        const { ctx, p } = await watched({ width, dark });
        await logIn(p);
        for (const [name, hash, heading] of screens) {
          await go(p, hash, heading);
          await p.waitForLoadState('networkidle');
          await p.screenshot({ path: path.join(shots, `${name}-${width}-${dark ? 'dark' : 'light'}.png`), fullPage: true });
          violations.push(...(await seriousAxeViolations(p)).map((v) => `${name} ${width} ${dark ? 'dark' : 'light'}: ${v}`));
          // Works at 360 px: no sideways scrolling (a table or form wider than a small phone).
          const scrollWidth = await p.evaluate<number>('document.documentElement.scrollWidth');
          if (scrollWidth > width) overflows.push(`${name} ${width}: ${scrollWidth} px wide`);
          // Every tab of the top navigation whole and on screen (at 360 px "At a Glance" was once cut to an "e").
          for (const tab of await p.locator('.sw-nav-link').all()) {
            const box = (await tab.boundingBox())!;
            const text = await tab.textContent();
            if (box.x < 0 || box.x + box.width > width)
              overflows.push(`${name} ${width}: the "${text}" tab is cut at ${Math.round(box.x)}..${Math.round(box.x + box.width)} px`);
            if (box.height > 60) overflows.push(`${name} ${width}: the "${text}" tab wraps`);
          }
        }
        await ctx.close();
      }
    }
    expect(violations).toEqual([]);
    expect(overflows).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);

  // `npm run screenshots` copies these into docs/screenshots for the README: 1280 px, light, the
  // site as the tests above left it (connected, blocked logins, a backup, spam stats, an update).
  it('takes the README screenshots of At a Glance, Modules and a module panel', async () => {
    const dir = artifactsDir('admin/readme');
    const { ctx, p } = await watched({ width: 1280, height: 820 });
    await logIn(p);
    const shots: [string, string, string, boolean][] = [
      ['at-a-glance', '#/dashboard', 'At a Glance', true],
      // The list is long: its first screen is enough.
      ['modules', '#/modules', 'Modules', false],
      ['module-settings', '#/modules/sharedaddy', 'Sharing', false],
    ];
    // The dashboard shows the data, not the cards' loading or failure states.
    await p.getByTestId('spam-total').waitFor();
    for (const [name, hash, heading, fullPage] of shots) {
      await go(p, hash, heading);
      await p.waitForLoadState('networkidle');
      await p.locator('[role=status] .components-spinner').waitFor({ state: 'detached' });
      await p.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
    }
    await ctx.close();
    expect(problems).toEqual([]);
  });

  it('sends an expired login to the login page and back to the same screen', async () => {
    await page.goto('/admin/#/modules');
    await page.getByTestId('module-markdown').waitFor();
    await context.clearCookies();
    await page.getByTestId('module-markdown').locator('input[type=checkbox]').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect_to')).toBe('/admin/#/modules');
    await logInThroughForm(page, admin);
    await page.getByRole('heading', { level: 1, name: 'Modules' }).waitFor();
  });

  it('tells an editor that anyone links their own account and lets them start, and the master user why unlinking is not offered', async () => {
    const editor = await app.loginAs('editor', { login: 'ed' });
    const { ctx, p } = await watched({ width: 360 });
    try {
      await logIn(p, '/admin/', editor);
      const card = p.getByTestId('card-connection');
      await expect(card.getByTestId('connection-why').textContent()).resolves.toContain('Any user of the site can link their own account');
      await card.screenshot({ path: path.join(shots, 'connection-editor-360.png') });
      // The API lets an editor link (jetpack_connect_user): the button leads to the account service.
      await Promise.all([p.waitForURL((u) => u.origin !== base), card.getByRole('button', { name: 'Link your account' }).click()]);
    } finally {
      await ctx.close();
    }
    await go(page, '#/dashboard', 'At a Glance');
    const card = page.getByTestId('card-connection');
    await expect(card.getByTestId('connection-why').textContent()).resolves.toContain('To unlink it, disconnect the site.');
    expect(await card.getByRole('button', { name: 'Unlink your account' }).count()).toBe(0);
    await card.screenshot({ path: path.join(shots, 'connection-master-1280.png') });
  });

  it('disconnects the site after a confirmation in the page’s dialog, and the API agrees', async () => {
    await go(page, '#/dashboard', 'At a Glance');
    const native: string[] = [];
    page.on('dialog', (d) => {
      native.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Disconnect the site' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await api<{ isActive: boolean }>('GET', 'jetpack/v4/connection-status')).toMatchObject({ isActive: true });
    await dialog.screenshot({ path: path.join(shots, 'connection-disconnect-dialog.png') });
    await dialog.getByRole('button', { name: 'Disconnect the site' }).click();
    await notice(page, 'The site is disconnected.').waitFor();
    expect(native).toEqual([]);
    await expect(page.getByTestId('connection-state').textContent()).resolves.toContain('not connected');
    expect(await api<{ isActive: boolean }>('GET', 'jetpack/v4/connection-status')).toMatchObject({ isActive: false });
    expect(problems).toEqual([]);
  });
});
