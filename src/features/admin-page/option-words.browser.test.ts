/**
 * Option fields in plain words (issue 25 item 2), in Chromium against a real Siteward: labels and
 * help come from the option catalogue (`option_texts` of the module record), and a value the API
 * refuses with `rest_invalid_param` shows that option's rule under the field, never the wire's
 * `<key> must be …` message, which the API keeps. Screenshots at 1280 and 360 px go to
 * test-artifacts/admin-option-words (gitignored).
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, chromiumAvailable, launchChromium, adminPageLoggedIn, goToScreen } from '../../../test/helpers/browser.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { ModuleRecord } from '../../wire/jetpack-v4.js';

describe.skipIf(!chromiumAvailable)('option fields in plain words, in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  const shots = artifactsDir('admin-option-words');
  const problems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({ port, startJobs: false, env: { SITEWARD_HOME_URL: base } });
    admin = await app.loginAs('administrator', { login: 'boss' });
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/sharedaddy/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const pageAt = (width: number) => adminPageLoggedIn(browser, { baseURL: base, width, user: admin, problems });
  const go = goToScreen;

  async function record(slug: string): Promise<ModuleRecord> {
    const res = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: app.auth(admin) });
    return (res.json as Record<string, ModuleRecord>)[slug]!;
  }

  it('labels and explains Sharing’s options from the catalogue, and shows the rule, not the wire message, for a refused value', async () => {
    const sharing = await record('sharedaddy');
    const tag = sharing.option_texts!['jetpack-twitter-cards-site-tag']!;
    // The API keeps its message, which names the key.
    const refused = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/sharedaddy',
      headers: app.auth(admin),
      body: { 'jetpack-twitter-cards-site-tag': 'not a name!' },
    });
    expect(refused.status).toBe(400);
    const wire = refused.json as { code: string; data: { params: Record<string, string> } };
    expect(wire.code).toBe('rest_invalid_param');
    expect(wire.data.params['jetpack-twitter-cards-site-tag']).toBe('jetpack-twitter-cards-site-tag must be a Twitter username.');

    const { ctx, p } = await pageAt(1280);
    await go(p, '#/modules/sharedaddy', 'Sharing');
    const panel = p.locator('.sw-panel');
    await panel.getByText(sharing.option_texts!.sharing_delete_service!.label).first().waitFor();
    expect(await panel.getByText('Delete custom sharing service.').count()).toBe(0);
    const field = p.getByTestId('field-jetpack-twitter-cards-site-tag');
    await field.getByText(tag.help).waitFor();
    await field.getByLabel(tag.label).fill('not a name!');
    await p.getByRole('button', { name: 'Save settings' }).click();
    await field.getByRole('alert').getByText(tag.rule).waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text).not.toContain('must be a Twitter username');
    expect(text).not.toContain('jetpack-twitter-cards-site-tag');
    await field.screenshot({ path: path.join(shots, 'twitter-field-refused-1280.png') });
    await p.screenshot({ path: path.join(shots, 'sharing-1280.png'), fullPage: true });
    await ctx.close();
  });

  it('explains Protect’s key and allow list, and gives the allow list’s rule for a bad entry, at 360 px', async () => {
    const protect = await record('protect');
    const texts = protect.option_texts!;
    const { ctx, p } = await pageAt(360);
    await go(p, '#/modules/protect', 'Protect');
    const key = p.getByTestId('field-jetpack_protect_key');
    await key.getByLabel(texts.jetpack_protect_key!.label).waitFor();
    await key.getByText(texts.jetpack_protect_key!.help).waitFor();
    const allow = p.getByTestId('field-jetpack_protect_global_whitelist');
    await allow.getByLabel(texts.jetpack_protect_global_whitelist!.label).fill('203.0.113.7\n999.1.1.1\n10.0.0.0/8');
    await p.getByRole('button', { name: 'Save settings' }).click();
    await allow.getByRole('alert').getByText(texts.jetpack_protect_global_whitelist!.rule).waitFor();
    // The page names the wrong entry (the server's message, Jetpack's, names none).
    await expect(allow.getByRole('alert').textContent()).resolves.toContain('“999.1.1.1” is not one.');
    expect(await p.locator('.sw-panel').textContent()).not.toContain('jetpack_protect_global_whitelist');
    await p.screenshot({ path: path.join(shots, 'protect-refused-360.png'), fullPage: true });
    const width = await p.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(360);
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
