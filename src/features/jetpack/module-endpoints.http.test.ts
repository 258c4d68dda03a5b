import { describe, expect, it } from 'vitest';
import type { LoggedIn, TestApp } from '../../../test/helpers/test-app.js';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';
import { NOT_FOUND, call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { HEADER_FIELDS } from './testing/module-fields.js';

let t: TestApp;
let admin: LoggedIn;

freshAppWithAdmin((app, user) => {
  t = app;
  admin = user;
});

type Records = Record<
  string,
  { activated: boolean; available: boolean; configurable: string | false; options: Record<string, { current_value: unknown }> | null }
>;

describe('GET /module/all', () => {
  it('lists the 37 modules for an administrator', async () => {
    const res = await call(t, 'GET', '/module/all', { as: admin });
    expect(res.status).toBe(200);
    const body = res.json as Records;
    expect(Object.keys(body)).toHaveLength(37);
    expect(body.protect).toMatchObject({ module: 'protect', activated: true, available: true, runtime: 'siteward' });
    expect(body.stats).toMatchObject({ activated: false, available: false });
  });

  it('is open to every role with read (view_admin outside dev mode)', async () => {
    const subscriber = await t.loginAs('subscriber');
    const res = await call(t, 'GET', '/module/all', { as: subscriber });
    expect(res.status).toBe(200);
    expect((res.json as Records).protect!.configurable).toBe(false);
  });

  it('is 401 invalid_user_permission_view_admin when not logged in', async () => {
    const res = await call(t, 'GET', '/module/all');
    expect([res.status, res.json]).toEqual([401, permissionBody('invalid_user_permission_view_admin', 401)]);
  });

  it('POST hits the slug route: 404 not_found for an administrator', async () => {
    const res = await call(t, 'POST', '/module/all', { as: admin, body: { a: 1 } });
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
  });
});

describe('GET /module/:slug', () => {
  it('answers the header fields and options', async () => {
    const res = await call(t, 'GET', '/module/protect', { as: admin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json as object)).toEqual([...HEADER_FIELDS, 'options', 'runtime', 'unavailable_reason', 'option_texts']);
  });

  it.each(['nope', 'Protect'])('is 404 not_found for %s', async (slug) => {
    const res = await call(t, 'GET', `/module/${slug}`, { as: admin });
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
  });

  it('is rest_no_route for digits or underscores in the slug', async () => {
    for (const slug of ['stats2', 'my_module']) {
      const res = await call(t, 'GET', `/module/${slug}`, { as: admin });
      expect([res.status, (res.json as { code: string }).code]).toEqual([404, 'rest_no_route']);
    }
  });

  it('is 401 anonymous', async () => {
    const res = await call(t, 'GET', '/module/protect');
    expect([res.status, res.json]).toEqual([401, permissionBody('invalid_user_permission_view_admin', 401)]);
  });
});

describe('POST /module/:slug/active', () => {
  it('activates with PUT {"active":true} and deactivates with {"active":false}', async () => {
    let res = await call(t, 'PUT', '/module/carousel/active', { as: admin, body: { active: true } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'The requested Jetpack module was activated.' }]);
    res = await call(t, 'PATCH', '/module/carousel/active', { as: admin, body: { active: false } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'The requested Jetpack module was deactivated.' }]);
    res = await call(t, 'POST', '/module/carousel/active', { as: admin, body: { active: 0 } });
    expect([res.status, res.json]).toEqual([
      409,
      { code: 'already_inactive', message: 'The requested Jetpack module was already inactive.', data: { status: 409 } },
    ]);
  });

  it('activates when `active` is absent', async () => {
    const res = await call(t, 'POST', '/module/markdown/active', { as: admin });
    expect(res.status).toBe(200);
    const all = (await call(t, 'GET', '/module/all', { as: admin })).json as Records;
    expect(all.markdown!.activated).toBe(true);
  });

  it('is 400 rest_invalid_param for an `active` that is not a boolean, even when anonymous', async () => {
    for (const as of [admin, undefined]) {
      const res = await call(t, 'PUT', '/module/carousel/active', { as, body: { active: 'yes' } });
      expect([res.status, res.json]).toEqual([
        400,
        {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): active',
          data: { status: 400, params: { active: 'active must be true, false, 0 or 1.' } },
        },
      ]);
    }
  });

  it('is 404 not_found for an unknown module and 424 for one that needs a connection', async () => {
    let res = await call(t, 'PUT', '/module/nope/active', { as: admin, body: { active: true } });
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
    res = await call(t, 'PUT', '/module/likes/active', { as: admin, body: { active: true } });
    expect(res.status).toBe(424);
    expect(res.json).toMatchObject({ code: 'activation_failed', message: expect.stringContaining('not connected'), data: { status: 424 } });
  });

  it.each([
    [null, 401],
    ['editor', 403],
    ['subscriber', 403],
  ] as const)('refuses %s with %i invalid_user_permission_manage_modules', async (role, status) => {
    const as = role ? await t.loginAs(role) : undefined;
    const res = await call(t, 'PUT', '/module/carousel/active', { as, body: { active: true } });
    expect([res.status, res.json]).toEqual([status, permissionBody('invalid_user_permission_manage_modules', status)]);
  });
});

describe('POST /module/activate and /modules/activate', () => {
  it.each(['/module/activate', '/modules/activate'])('%s activates every listed module', async (path) => {
    const res = await call(t, 'PUT', path, { as: admin, body: { modules: ['carousel', 'markdown'] } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'All modules activated.' }]);
  });

  it('without `modules` is 400 "modules must be an array"', async () => {
    const res = await call(t, 'POST', '/module/activate', { as: admin });
    expect([res.status, res.json]).toEqual([
      400,
      {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): modules',
        data: { status: 400, params: { modules: 'modules must be an array' } },
      },
    ]);
  });

  it('with an unknown module is 400 "modules must be a list of valid modules"', async () => {
    for (const modules of [['carousel', 'nope'], [5]]) {
      const res = await call(t, 'POST', '/module/activate', { as: admin, body: { modules } });
      expect([res.status, (res.json as { data: unknown }).data]).toEqual([
        400,
        { status: 400, params: { modules: 'modules must be a list of valid modules' } },
      ]);
    }
  });

  it('with an unavailable module activates the others and answers 424 saying why (docs/spec/compat.md §9)', async () => {
    const res = await call(t, 'POST', '/modules/activate', { as: admin, body: { modules: ['tiled-gallery', 'likes'] } });
    expect([res.status, res.json]).toEqual([
      424,
      {
        code: 'activation_failed',
        message:
          'The module likes failed to be activated. It needs a connection to the central account service, and the site is not connected. ',
        data: { status: 424 },
      },
    ]);
    const all = await call(t, 'GET', '/module/all', { as: admin });
    expect((all.json as Record<string, { activated: boolean }>)['tiled-gallery']!.activated).toBe(true);
  });

  it('reads the JSON body only: a list in the query string is 404 not_found', async () => {
    const res = await call(t, 'POST', '/module/activate?modules[]=carousel', { as: admin });
    expect([res.status, res.json]).toEqual([404, NOT_FOUND]);
  });

  it('is 401/403 invalid_user_permission_manage_modules', async () => {
    const editor = await t.loginAs('editor');
    expect((await call(t, 'POST', '/module/activate', { body: { modules: ['carousel'] } })).json).toEqual(
      permissionBody('invalid_user_permission_manage_modules', 401),
    );
    expect((await call(t, 'POST', '/modules/activate', { as: editor, body: { modules: ['carousel'] } })).json).toEqual(
      permissionBody('invalid_user_permission_manage_modules', 403),
    );
  });
});

describe('POST /module/:slug (options)', () => {
  it('updates several options and shows them in the module', async () => {
    const res = await call(t, 'PUT', '/module/stats', { as: admin, body: { admin_bar: false, roles: ['administrator', 'editor'] } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'The requested Jetpack module was updated.' }]);
    const stats = (await call(t, 'GET', '/module/stats', { as: admin })).json as Records[string];
    expect(stats.options!.admin_bar!.current_value).toBe(false);
    expect(stats.options!.roles!.current_value).toEqual(['administrator', 'editor']);
  });

  it('answers the checks in order: not_found, inactive, missing_options', async () => {
    expect((await call(t, 'PUT', '/module/nope', { as: admin, body: { a: 1 } })).json).toEqual(NOT_FOUND);
    expect((await call(t, 'PUT', '/module/carousel', { as: admin, body: { carousel_display_exif: true } })).json).toEqual({
      code: 'inactive',
      message: 'The requested Jetpack module is inactive.',
      data: { status: 409 },
    });
    const missing = await call(t, 'PUT', '/module/stats', { as: admin });
    expect([missing.status, missing.json]).toEqual([404, { code: 'missing_options', message: 'Missing options.', data: { status: 404 } }]);
  });

  it('is 400 rest_invalid_param with every bad value and saves nothing', async () => {
    const res = await call(t, 'PUT', '/module/stats', { as: admin, body: { admin_bar: false, version: 0 } });
    expect([res.status, res.json]).toEqual([
      400,
      {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): version',
        data: { status: 400, params: { version: 'version must be a positive integer.' } },
      },
    ]);
    expect(await t.store.options.get('stats_options')).toBeUndefined();
  });

  it('is 400 some_updated for unknown keys while valid ones are saved', async () => {
    const res = await call(t, 'PUT', '/module/stats', { as: admin, body: { admin_bar: false, colour: 'red' } });
    expect([res.status, res.json]).toEqual([
      400,
      { code: 'some_updated', message: 'Invalid option for this module: colour.', data: { status: 400 } },
    ]);
    expect(await t.store.options.get('stats_options')).toEqual({ admin_bar: false });
  });

  it('answers a generated protect key', async () => {
    const res = await call(t, 'PUT', '/module/protect', { as: admin, body: { jetpack_protect_key: 'create' } });
    expect(res.json).toMatchObject({ code: 'success', jetpack_protect_key: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it('is 401/403 invalid_user_permission_configure_modules', async () => {
    const editor = await t.loginAs('editor');
    expect((await call(t, 'PUT', '/module/stats', { body: { admin_bar: false } })).json).toEqual(
      permissionBody('invalid_user_permission_configure_modules', 401),
    );
    expect((await call(t, 'PUT', '/module/stats', { as: editor, body: { admin_bar: false } })).json).toEqual(
      permissionBody('invalid_user_permission_configure_modules', 403),
    );
  });
});
