import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

// jetpack_admin_page is `read` on a connected-capable site and `manage_options` in dev mode
// (docs/spec/jetpack-v4-reference.md §2): dev mode lets a logged-in subscriber be refused.
let app: TestApp;
let admin: LoggedIn;
let subscriber: LoggedIn;
beforeAll(async () => {
  app = await createTestApp({ env: { SITEWARD_OFFLINE: '1' } });
  admin = await app.loginAs('administrator');
  subscriber = await app.loginAs('subscriber');
});
afterAll(() => app.close());

const MESSAGE =
  'You do not have the correct user permissions to perform this action. Please contact your site admin if you think this is a mistake.';
const ENDPOINTS = [
  ['protect', 'jetpack/v4/module/protect/count/get'],
  ['protect', 'siteward/v1/protect/history?days=7'],
  ['monitor', 'jetpack/v4/module/monitor/downtime/last'],
  ['monitor', 'siteward/v1/monitor/history'],
  ['verification-tools', 'jetpack/v4/module/verification-tools/services'],
] as const;

describe.each(ENDPOINTS)('GET %s → %s', (module, path) => {
  it('is 401 invalid_user_permission_view_admin without a login', async () => {
    const res = await app.request({ path: `/wp-json/${path}` });
    expect([res.status, res.json]).toEqual([401, { code: 'invalid_user_permission_view_admin', message: MESSAGE, data: { status: 401 } }]);
  });

  it('is 403 for a user without the capability', async () => {
    const res = await app.request({ path: `/wp-json/${path}`, headers: app.auth(subscriber) });
    expect([res.status, (res.json as { code: string }).code]).toEqual([403, 'invalid_user_permission_view_admin']);
  });

  it('answers the administrator, and not_active while the module is off', async () => {
    const on = await app.request({
      method: 'PUT',
      path: `/wp-json/jetpack/v4/module/${module}/active`,
      headers: app.auth(admin),
      body: { active: true },
    });
    expect(on.status).toBe(200);
    const active = await app.request({ path: `/wp-json/${path}`, headers: app.auth(admin) });
    expect(active.status === 200 || (active.json as { code: string }).code === 'empty').toBe(true);
    await app.request({
      method: 'PUT',
      path: `/wp-json/jetpack/v4/module/${module}/active`,
      headers: app.auth(admin),
      body: { active: false },
    });
    const off = await app.request({ path: `/wp-json/${path}`, headers: app.auth(admin) });
    expect([off.status, off.json]).toEqual([
      404,
      { code: 'not_active', message: 'The requested Jetpack module is not active.', data: { status: 404 } },
    ]);
  });
});
