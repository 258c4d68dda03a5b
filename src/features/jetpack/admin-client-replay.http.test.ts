/**
 * Replays the historical admin client's calls (docs/spec/jetpack-v4-reference.md §10) for the plugin's endpoints, with
 * its exact wire habits: PUT, the header spelled `Content-type`, JSON text bodies, bodiless
 * calls, `setting/update`, cookie + `X-WP-Nonce`.
 */
import { describe, expect, it } from 'vitest';
import type { LoggedIn, TestApp, TestResponse } from '../../../test/helpers/test-app.js';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';

let t: TestApp;
let admin: LoggedIn;

freshAppWithAdmin((app, user) => {
  t = app;
  admin = user;
});

/** What the client's fetch sends: `${WP_API_root}jetpack/v4/<path>`, same-origin cookie, nonce. */
function client(method: string, path: string, opts: { contentType?: boolean; body?: string } = {}): Promise<TestResponse> {
  return t.request({
    method,
    path: `/wp-json/jetpack/v4/${path}`,
    headers: { ...t.auth(admin), ...(opts.contentType && { 'Content-type': 'application/json' }) },
    ...(opts.body !== undefined && { body: opts.body }),
  });
}

/** The client's checkStatus: 2xx passes; otherwise the body must be JSON with a message. */
function checkStatus(res: TestResponse): unknown {
  if (res.status >= 200 && res.status < 300) return res.json;
  const json = JSON.parse(res.text) as { message?: unknown };
  expect(typeof json.message).toBe('string');
  throw Object.assign(new Error(String(json.message)), { response: json });
}

type Modules = Record<string, { activated: boolean; options: Record<string, { current_value: unknown }> | null }>;

describe('the historical admin client', () => {
  it('loads modules and settings, toggles, configures, dismisses and resets', async () => {
    // fetchModules, fetchModule, fetchSettings
    const modules = checkStatus(await client('GET', 'module/all')) as Modules;
    expect(Object.keys(modules)).toHaveLength(37);
    expect(checkStatus(await client('GET', 'module/carousel'))).toMatchObject({ name: 'Carousel' });
    expect(checkStatus(await client('GET', 'settings'))).toEqual({ jetpack_holiday_snow_enabled: false });

    // activateModule / deactivateModule (the latter never reads the answer)
    expect(checkStatus(await client('PUT', 'module/carousel/active', { contentType: true, body: '{"active":true}' }))).toMatchObject({
      code: 'success',
    });
    const off = await client('PUT', 'module/carousel/active', { contentType: true, body: '{"active":false}' });
    expect(off.status).toBe(200);

    // updateModuleOptions: every key sent must exist in `options` (the reducer writes current_value)
    const stats = { admin_bar: false, roles: ['administrator', 'editor'] };
    expect(checkStatus(await client('PUT', 'module/stats', { contentType: true, body: JSON.stringify(stats) }))).toMatchObject({
      code: 'success',
    });
    const after = checkStatus(await client('GET', 'module/all')) as Modules;
    for (const [key, value] of Object.entries(stats)) expect(after.stats!.options![key]!.current_value).toEqual(value);

    // post-by-email "regenerate": Siteward receives no mail, so the client gets a clear 400 to show, not an address that goes nowhere
    const pbe = await client('PUT', 'module/post-by-email', { contentType: true, body: '{"post_by_email_address":"regenerate"}' });
    expect([pbe.status, (pbe.json as { code: string }).code]).toEqual([400, 'feature_not_available']);

    // updateSetting uses the historical singular path
    expect(
      checkStatus(await client('PUT', 'setting/update', { contentType: true, body: '{"jetpack_holiday_snow_enabled":true}' })),
    ).toEqual({
      code: 'success',
      message: 'Setting updated.',
      value: true,
    });

    // dismissJetpackNotice: PUT, Content-type, no body; the client merges the map
    expect(checkStatus(await client('PUT', 'notice/welcome/dismiss', { contentType: true }))).toEqual({ welcome: true });

    // resetOptions: POST, Content-type, no body
    expect(checkStatus(await client('POST', 'reset/options', { contentType: true }))).toEqual({
      code: 'success',
      message: 'Jetpack options reset.',
    });
    expect(checkStatus(await client('GET', 'settings'))).toEqual({ jetpack_holiday_snow_enabled: false });
  });

  it('runs Jump Start with bodiless POSTs', async () => {
    expect(checkStatus(await client('POST', 'jumpstart/activate'))).toMatchObject({ code: 'success', message: 'Jumpstart done.' });
    expect(checkStatus(await client('POST', 'jumpstart/deactivate'))).toMatchObject({ code: 'success', message: 'Jumpstart deactivated.' });
  });

  it('gets JSON errors with a message it can throw', async () => {
    const res = await client('PUT', 'module/likes/active', { contentType: true, body: '{"active":true}' });
    expect(() => checkStatus(res)).toThrow(/could not be activated/);
    expect(() => checkStatus(res)).toThrow(expect.objectContaining({ response: expect.objectContaining({ code: 'activation_failed' }) }));
  });

  it('works through plain permalinks (`?rest_route=`)', async () => {
    const res = await t.request({ method: 'GET', path: '/?rest_route=/jetpack/v4/module/all', headers: t.auth(admin) });
    expect(Object.keys(checkStatus(res) as object)).toHaveLength(37);
  });

  it('works with the `_method` override the client’s hosts may need', async () => {
    const res = await t.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/markdown/active?_method=PUT',
      headers: { ...t.auth(admin), 'Content-type': 'application/json' },
      body: '{"active":true}',
    });
    expect(checkStatus(res)).toMatchObject({ code: 'success' });
  });
});
