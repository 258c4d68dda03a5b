/**
 * The Activity screen and At a Glance's recent-activity card in Chromium against a real Siteward:
 * real audit events (module switches made over REST, a user created), a signed checkpoint between
 * them, filters, the before/after view, axe (no serious or critical violation) at 1280 px light and
 * 360 px dark, and nothing wider than a 360 px phone. Screenshots go to test-artifacts/admin-activity.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPageLoggedIn,
  artifactsDir,
  chromiumAvailable,
  goToScreen,
  launchChromium,
  seriousAxeViolations,
} from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { loadSecrets } from '../../auth/secrets.js';
import { auditKeys, writeCheckpoint } from '../audit/index.js';

describe.skipIf(!chromiumAvailable)('the Activity screen in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-activity-'));
  const shots = artifactsDir('admin-activity');
  const problems: string[] = [];

  const rest = (method: 'POST' | 'PUT', route: string, body: object) =>
    app.request({ method, path: `/wp-json${route}`, headers: app.auth(admin), body });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({ port, dataDir, startJobs: false, env: { SITEWARD_HOME_URL: base } });
    admin = await app.loginAs('administrator', { login: 'boss' });
    await rest('PUT', '/jetpack/v4/module/protect/active', { active: false });
    await rest('PUT', '/jetpack/v4/module/protect/active', { active: true });
    // Signed here: the events after it are newer than the mark.
    await writeCheckpoint(app.store.auditLog, auditKeys((await loadSecrets({ dataDir, env: {} })).auditSigningSeed), Date.now());
    const created = await rest('POST', '/wp/v2/users', {
      username: 'editor1',
      email: 'editor1@example.org',
      password: 'a long enough password 1',
      roles: ['editor'],
    });
    expect(created.status).toBe(201);
    await rest('PUT', '/jetpack/v4/module/protect/active', { active: false });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sentences = (p: Page) => p.locator('[data-testid="activity-event"] .sw-activity-sentence').allTextContents();

  it('shows each event as a sentence, the signed mark, the before/after of one, and filters by action', async () => {
    const { ctx, p } = await adminPageLoggedIn(browser, { baseURL: base, width: 1280, user: admin, problems, consoleErrors: true });
    try {
      await goToScreen(p, '#/activity', 'Activity');
      await p.locator('[data-testid="activity-event"]').first().waitFor();
      const all = await sentences(p);
      // Newest first: this page's own login, then what the set-up did.
      expect(all.slice(0, 5)).toEqual([
        'boss logged in',
        'boss switched off Protect',
        'boss created the user editor1',
        'boss switched on Protect',
        'boss switched off Protect',
      ]);
      expect(await p.locator('[data-testid="activity-checkpoint"]').textContent()).toMatch(/Signed up to event #\d+ .*the signature holds/);
      // The mark sits between the three newer events (the login, the user, the switch) and those the checkpoint covers.
      const items = p.locator('[data-testid="activity-list"] > li');
      const order = await Promise.all([0, 1, 2, 3].map((i) => items.nth(i).getAttribute('data-testid')));
      expect(order).toEqual(['activity-event', 'activity-event', 'activity-event', 'activity-signed-mark']);

      // The newest module change (the login before it changed no field).
      await p.getByRole('button', { name: 'Details of event' }).nth(1).click();
      const changes = p.locator('[data-testid="activity-details"] .sw-activity-changes');
      await changes.waitFor();
      expect(await changes.locator('tbody tr').first().locator('th, td').allTextContents()).toEqual([
        'active_modules',
        expect.stringMatching(/^removed: protect \(\d+ → \d+ items\)$/),
      ]);
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: path.join(shots, 'activity-1280-light.png'), fullPage: true });

      await p.getByLabel('Action').selectOption('user.');
      await p.getByRole('button', { name: 'Filter', exact: true }).click();
      await p.getByText('1 event', { exact: true }).waitFor();
      expect(await sentences(p)).toEqual(['boss created the user editor1']);
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('fits a 360 px phone in dark mode, with At a Glance’s recent activity leading to one event', async () => {
    const { ctx, p } = await adminPageLoggedIn(browser, {
      baseURL: base,
      width: 360,
      user: admin,
      problems,
      consoleErrors: true,
      dark: true,
    });
    try {
      const card = p.locator('#card-activity');
      await card.locator('[data-testid="recent-activity"] li').first().waitFor();
      expect(await card.locator('[data-testid="recent-activity"] li').count()).toBe(5);
      await card.screenshot({ path: path.join(shots, 'glance-activity-360-dark.png') });

      await goToScreen(p, '#/activity', 'Activity');
      await p.locator('[data-testid="activity-event"]').first().waitFor();
      await p.getByRole('button', { name: 'Details of event' }).first().click();
      await p.locator('[data-testid="activity-details"]').waitFor();
      const width = await p.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(360);
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: path.join(shots, 'activity-360-dark.png'), fullPage: true });

      await goToScreen(p, '#/dashboard', 'At a Glance');
      await card.getByRole('link', { name: 'boss switched off Protect' }).first().click();
      await p.locator('[data-testid="activity-details"]').waitFor();
      expect(await p.locator('[data-testid="activity-details"]').textContent()).toContain('boss, with login session');
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: path.join(shots, 'activity-event-360-dark.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
