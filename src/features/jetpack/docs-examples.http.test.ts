import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { SitewardApi } from '../../plugins/api.js';

// The module example of docs/plugins.md, as a plugin author would write it.
function statusBanner(api: SitewardApi): void {
  api.registerModule({
    slug: 'status-banner',
    name: 'Status Banner',
    description: 'Show a maintenance banner on the site.',
    introduced: '1.0',
    requires_connection: false,
    auto_activate: 'No',
    module_tags: ['Appearance'],
    feature: ['Appearance'],
    options: {
      status_banner_text: { description: 'Banner text', type: 'string', default: '' },
      status_banner_on: { description: 'Show the banner', type: 'boolean', default: false },
    },
  });
}

let app: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  app = await createTestApp({ plugins: [statusBanner] });
  admin = await app.loginAs('administrator');
});
afterAll(() => app.close());

describe('the documented module example', () => {
  it('is listed, can be activated and configured like a built-in module', async () => {
    const all = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: app.auth(admin) });
    expect((all.json as Record<string, { activated: boolean }>)['status-banner']).toMatchObject({ activated: false });
    const on = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/status-banner/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    expect(on.status).toBe(200);
    const set = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/status-banner',
      headers: app.auth(admin),
      body: { status_banner_text: 'Back soon', status_banner_on: true },
    });
    expect(set.status).toBe(200);
    const bad = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/status-banner',
      headers: app.auth(admin),
      body: { status_banner_on: 'maybe' },
    });
    expect(bad.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { status_banner_on: 'status_banner_on must be true, false, 0 or 1.' } },
    });
    const one = await app.request({ path: '/wp-json/jetpack/v4/module/status-banner', headers: app.auth(admin) });
    expect((one.json as { options: Record<string, { current_value: unknown }> }).options.status_banner_text!.current_value).toBe(
      'Back soon',
    );
  });
});
