import { describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';

let t: TestApp;
let admin: LoggedIn;

freshAppWithAdmin((app, user) => {
  t = app;
  admin = user;
});

describe('GET /settings and POST /settings/update (alias /setting/update)', () => {
  it('reads and turns holiday snow on and off', async () => {
    expect((await call(t, 'GET', '/settings', { as: admin })).json).toEqual({ jetpack_holiday_snow_enabled: false });
    let res = await call(t, 'PUT', '/setting/update', { as: admin, body: { jetpack_holiday_snow_enabled: true } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'Setting updated.', value: true }]);
    expect((await call(t, 'GET', '/settings', { as: admin })).json).toEqual({ jetpack_holiday_snow_enabled: true });
    res = await call(t, 'POST', '/settings/update', { as: admin, body: { jetpack_holiday_snow_enabled: false } });
    expect(res.status).toBe(200);
  });

  it('answers setting_not_updated and missing_setting', async () => {
    let res = await call(t, 'PUT', '/setting/update', { as: admin, body: { jetpack_holiday_snow_enabled: false } });
    expect(res.status).toBe(200);
    res = await call(t, 'PUT', '/setting/update', { as: admin, body: { jetpack_holiday_snow_enabled: false } });
    expect([res.status, res.json]).toEqual([
      400,
      { code: 'setting_not_updated', message: 'The setting was not updated.', data: { status: 400 } },
    ]);
    res = await call(t, 'PUT', '/setting/update', { as: admin });
    expect([res.status, res.json]).toEqual([404, { code: 'missing_setting', message: 'Missing setting.', data: { status: 404 } }]);
  });

  it('needs view_admin to read and manage_options to update', async () => {
    const editor = await t.loginAs('editor');
    expect((await call(t, 'GET', '/settings')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
    expect((await call(t, 'GET', '/settings', { as: editor })).status).toBe(200);
    expect((await call(t, 'PUT', '/setting/update', { body: { jetpack_holiday_snow_enabled: true } })).json).toEqual(
      permissionBody('invalid_user_permission_manage_settings', 401),
    );
    expect((await call(t, 'PUT', '/settings/update', { as: editor, body: { jetpack_holiday_snow_enabled: true } })).json).toEqual(
      permissionBody('invalid_user_permission_manage_settings', 403),
    );
  });
});

describe('Jump Start', () => {
  it('activate then deactivate undoes it', async () => {
    let res = await call(t, 'POST', '/jumpstart/activate', { as: admin });
    expect([res.status, res.json]).toEqual([
      200,
      {
        code: 'success',
        message: 'Jumpstart done.',
        data: {
          activated_modules: ['carousel', 'contact-form', 'gravatar-hovercards', 'sharedaddy'],
          failed_modules: [],
          jumpstart_activated: true,
          sharing_options: true,
          sharing_services: true,
        },
      },
    ]);
    res = await call(t, 'POST', '/jumpstart/deactivate', { as: admin });
    expect([res.status, res.json]).toEqual([
      200,
      { code: 'success', message: 'Jumpstart deactivated.', data: { deactivated_modules: ['carousel'] } },
    ]);
    res = await call(t, 'POST', '/jumpstart/deactivate', { as: admin });
    expect(res.json).toEqual({ code: 'success', message: 'Nothing to dismiss. This was not a new connection.' });
  });

  it('deactivate on a new site dismisses', async () => {
    const res = await call(t, 'PUT', '/jumpstart/deactivate', { as: admin });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'Jumpstart dismissed.' }]);
  });

  it('a module toggle closes the offer', async () => {
    await call(t, 'PUT', '/module/markdown/active', { as: admin, body: { active: true } });
    expect((await call(t, 'PUT', '/jumpstart/deactivate', { as: admin })).json).toEqual({
      code: 'success',
      message: 'Nothing to dismiss. This was not a new connection.',
    });
  });

  it('is 401/403 invalid_user_permission_manage_modules', async () => {
    const author = await t.loginAs('author');
    for (const path of ['/jumpstart/activate', '/jumpstart/deactivate']) {
      expect((await call(t, 'POST', path)).json).toEqual(permissionBody('invalid_user_permission_manage_modules', 401));
      expect((await call(t, 'POST', path, { as: author })).json).toEqual(permissionBody('invalid_user_permission_manage_modules', 403));
    }
  });
});

describe('POST /reset/:kind', () => {
  it('options resets module options, notices and Jump Start, leaving other options', async () => {
    await t.store.options.set('jetpack_protect_blocked_attempts', '12');
    await call(t, 'PUT', '/module/stats', { as: admin, body: { admin_bar: false } });
    await call(t, 'PUT', '/notice/welcome/dismiss', { as: admin });
    await call(t, 'PUT', '/module/protect/active', { as: admin, body: { active: false } });
    const res = await call(t, 'POST', '/reset/options', { as: admin, headers: { 'Content-type': 'application/json' } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'Jetpack options reset.' }]);
    expect(await t.store.options.get('stats_options')).toBeUndefined();
    expect(await t.store.options.get('jetpack_dismissed_notices')).toBeUndefined();
    expect(await t.store.options.get('jumpstart')).toBe('new_connection');
    expect(await t.store.options.get('jetpack_protect_blocked_attempts')).toBe('12');
    expect(((await call(t, 'GET', '/module/all', { as: admin })).json as Record<string, { activated: boolean }>).protect!.activated).toBe(
      true,
    );
  });

  it('modules restores the default active set', async () => {
    await call(t, 'PUT', '/module/markdown/active', { as: admin, body: { active: true } });
    const res = await call(t, 'PUT', '/reset/modules', { as: admin });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'Modules reset to default.' }]);
    expect(((await call(t, 'GET', '/module/all', { as: admin })).json as Record<string, { activated: boolean }>).markdown!.activated).toBe(
      false,
    );
  });

  it('another kind is 404 invalid_param; an empty one has no route', async () => {
    let res = await call(t, 'POST', '/reset/everything', { as: admin });
    expect([res.status, res.json]).toEqual([404, { code: 'invalid_param', message: 'Invalid Parameter', data: { status: 404 } }]);
    res = await call(t, 'POST', '/reset/', { as: admin });
    expect([res.status, (res.json as { code: string }).code]).toEqual([404, 'rest_no_route']);
  });

  it('is 401/403 invalid_user_permission_manage_modules', async () => {
    const editor = await t.loginAs('editor');
    expect((await call(t, 'POST', '/reset/options')).json).toEqual(permissionBody('invalid_user_permission_manage_modules', 401));
    expect((await call(t, 'POST', '/reset/options', { as: editor })).json).toEqual(
      permissionBody('invalid_user_permission_manage_modules', 403),
    );
  });
});

describe('POST /notice/:notice/dismiss', () => {
  it('answers the whole dismissed map', async () => {
    expect((await call(t, 'PUT', '/notice/feedback_dash_request/dismiss', { as: admin })).json).toEqual({ feedback_dash_request: true });
    const res = await call(t, 'PUT', '/notice/welcome/dismiss', { as: admin });
    expect([res.status, res.json]).toEqual([200, { feedback_dash_request: true, welcome: true }]);
  });

  it.each(['WELCOME', 'other'])('%s is 404 invalid_param', async (notice) => {
    const res = await call(t, 'PUT', `/notice/${notice}/dismiss`, { as: admin });
    expect([res.status, res.json]).toEqual([404, { code: 'invalid_param', message: 'Invalid parameter "notice".', data: { status: 404 } }]);
  });

  it('is open to any logged-in role and 401 anonymous', async () => {
    const subscriber = await t.loginAs('subscriber');
    expect((await call(t, 'PUT', '/notice/welcome/dismiss', { as: subscriber })).status).toBe(200);
    expect((await call(t, 'PUT', '/notice/welcome/dismiss')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
  });
});

describe('dev mode (SITEWARD_OFFLINE)', () => {
  it('asks for manage_options to view the admin endpoints and refuses connection modules', async () => {
    const offline = await createTestApp({ env: { SITEWARD_OFFLINE: '1' } });
    try {
      const [boss, editor] = [await offline.loginAs('administrator'), await offline.loginAs('editor')];
      expect((await call(offline, 'GET', '/module/all', { as: editor })).json).toEqual(
        permissionBody('invalid_user_permission_view_admin', 403),
      );
      const res = await call(offline, 'PUT', '/module/stats/active', { as: boss, body: { active: true } });
      expect([res.status, (res.json as { message: string }).message]).toEqual([424, expect.stringContaining('development (offline) mode')]);
    } finally {
      await offline.close();
    }
  });
});
