/**
 * A Jetpack-4.4-shaped admin client against a real Siteward over HTTP (docs/spec/jetpack-v4-reference.md
 * §12, docs/spec/current-clients.md A): it starts from the admin page's `Initial_State` (REST root,
 * nonce), as the client does, then uses only the 4.3+ names with POST bodies — connection, settings
 * read and write with a module toggle, module data, jumpstart, options reset, notice dismissal —
 * on a site linked to the real local account service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';
import { ANN, startProvider } from '../connection/testing/connection-kit.js';
import { link } from '../connection/testing/connection-http-kit.js';

let provider: AccountsService;
let site: TestApp;
let admin: LoggedIn;
let nonce: string;

beforeAll(async () => {
  provider = await startProvider();
  site = await createTestApp({
    env: {
      SITEWARD_SETTINGS_SHAPE: 'current',
      SITEWARD_ACCOUNTS_ISSUER: provider.issuer,
      SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken,
    },
  });
  admin = await site.loginAs('administrator');
  expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
  // The client's apiRoot and nonce come from the page it runs in.
  const page = await site.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
  const state = JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(page.text)![1]!) as { WP_API_root: string; WP_API_nonce: string };
  expect(state.WP_API_root).toBe('http://example.org/wp-json/');
  nonce = state.WP_API_nonce;
});
afterAll(async () => {
  await site?.close();
  await provider?.close();
});

/** The 4.4 client's fetch: `${apiRoot}jetpack/v4/<path>`, cookie + `X-WP-Nonce`, JSON bodies on POST. */
function client(method: 'GET' | 'POST', path: string, body?: object): Promise<TestResponse> {
  return site.request({
    method,
    path: `/wp-json/jetpack/v4/${path}`,
    headers: { Cookie: admin.cookie, 'X-WP-Nonce': nonce, ...(body && { 'Content-Type': 'application/json' }) },
    ...(body && { body }),
  });
}

/** The client's checkStatus: 2xx passes, anything else is thrown with its JSON message. */
function ok<T = unknown>(res: TestResponse): T {
  if (res.status < 200 || res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.json as T;
}

type Settings = Record<string, unknown>;

describe('a Jetpack 4.4 admin client', () => {
  it('reads the connection and the linked user', async () => {
    expect(ok(await client('GET', 'connection'))).toMatchObject({ isActive: true, isStaging: false, devMode: { isActive: false } });
    expect(ok(await client('GET', 'connection/data'))).toMatchObject({
      currentUser: { isConnected: true, isMaster: true, username: admin.login },
    });
    expect(ok(await client('GET', 'connection/test'))).toEqual({ code: 'success', message: 'All connection tests passed.' });
  });

  it('reads settings, toggles modules and saves options in one write, and reads the result back', async () => {
    const before = ok<Settings>(await client('GET', 'settings'));
    expect(before).toMatchObject({ protect: true, monitor: false, sso: false, jetpack_holiday_snow_enabled: false });
    // The WordPress.com stats widget's call, then the settings screen's: a toggle of a module that needs the connection plus options.
    expect(ok(await client('POST', 'settings', { protect: true }))).toEqual({
      code: 'success',
      message: 'The requested Jetpack data updates were successful.',
    });
    ok(
      await client('POST', 'settings', { monitor: true, sso: true, monitor_receive_notifications: true, jetpack_sso_match_by_email: true }),
    );
    const after = ok<Settings>(await client('GET', 'settings'));
    expect(after).toMatchObject({ monitor: true, sso: true, monitor_receive_notifications: true, jetpack_sso_match_by_email: true });
    const modules = ok<Record<string, { activated: boolean }>>(await client('GET', 'module/all'));
    expect([modules.monitor!.activated, modules.sso!.activated]).toEqual([true, true]);
    // One module's settings: POST settings/{slug}.
    ok(await client('POST', 'settings/monitor', { monitor_receive_notifications: false }));
    expect(ok<Settings>(await client('GET', 'settings')).monitor_receive_notifications).toBe(false);
  });

  it('reads module data under the 4.3+ names', async () => {
    expect(ok(await client('GET', 'module/protect/data'))).toBe(0);
    expect(ok(await client('GET', 'module/monitor/data'))).toEqual({ code: 'success', date: null });
    expect(ok(await client('GET', 'module/akismet/data'))).toBe('not_installed');
  });

  it('runs Jump Start, dismisses a notice, and resets the options', async () => {
    const done = ok<{ data: { activated_modules: string[] } }>(await client('POST', 'jumpstart', { active: true }));
    // Connected: the modules that need the connection are part of it too.
    expect(done.data.activated_modules).toEqual(expect.arrayContaining(['sso', 'subscriptions', 'related-posts']));
    expect(ok(await client('POST', 'notice/welcome', { dismissed: true }))).toEqual({ welcome: true });
    expect(ok(await client('POST', 'options/options', { reset: true }))).toEqual({ code: 'success', message: 'Jetpack options reset.' });
    const reset = ok<Settings>(await client('GET', 'settings'));
    expect(reset).toMatchObject({ monitor: false, sso: false, monitor_receive_notifications: false });
    const page = await site.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(page.text).toContain('"dismissedNotices":[]');
    // The connection itself is never reset.
    expect(ok(await client('GET', 'connection'))).toMatchObject({ isActive: true });
  });
});
