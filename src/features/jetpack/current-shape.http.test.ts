/**
 * The 4.3+ spellings (docs/spec/jetpack-v4-reference.md §12, docs/spec/current-clients.md A.1,
 * A.4–A.6) over real HTTP: the same answers as the 2016 routes, and the 4.4+ settings object.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';
import { call, NOT_FOUND, permissionBody } from '../jetpack-v4/testing/http-client.js';

let t: TestApp;
let admin: LoggedIn;

freshAppWithAdmin((app, user) => {
  t = app;
  admin = user;
});

async function activeSlugs(): Promise<string[]> {
  const all = (await call(t, 'GET', '/module/all', { as: admin })).json as Record<string, { activated: boolean }>;
  return Object.entries(all)
    .filter(([, mod]) => mod.activated)
    .map(([slug]) => slug)
    .sort();
}

const SUCCESS = { code: 'success', message: 'The requested Jetpack data updates were successful.' };

describe('POST settings (4.4+: module options and activation in one object)', () => {
  it('toggles a module and sets options of several modules in one call', async () => {
    expect(await activeSlugs()).not.toContain('markdown');
    const res = await call(t, 'POST', '/settings', {
      as: admin,
      body: { markdown: true, carousel_background_color: 'white', jetpack_holiday_snow_enabled: true },
    });
    expect([res.status, res.json]).toEqual([200, SUCCESS]);
    expect(await activeSlugs()).toContain('markdown');
    // Options of an inactive module are saved through `settings` (Jetpack does the same).
    const carousel = (await call(t, 'GET', '/module/carousel', { as: admin })).json as {
      options: Record<string, { current_value: unknown }>;
    };
    expect(carousel.options.carousel_background_color!.current_value).toBe('white');
    expect((await call(t, 'GET', '/settings', { as: admin })).json).toEqual({ jetpack_holiday_snow_enabled: true });
  });

  it('turns a module off with false, 0 or "0", and answers success for one already off', async () => {
    for (const off of [false, 0, '0']) {
      const res = await call(t, 'PUT', '/settings', { as: admin, body: { protect: off } });
      expect([res.status, res.json]).toEqual([200, SUCCESS]);
      expect(await activeSlugs()).not.toContain('protect');
    }
  });

  it('changes nothing when one value is invalid, and lists every invalid key', async () => {
    const before = await activeSlugs();
    const res = await call(t, 'POST', '/settings', {
      as: admin,
      body: { markdown: true, protect: 'yes', carousel_background_color: 'red' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        status: 400,
        params: {
          protect: 'protect must be true, false, 0 or 1.',
          carousel_background_color: 'carousel_background_color must be one of black, white',
        },
      },
    });
    expect(await activeSlugs()).toEqual(before);
  });

  it('refuses an unknown key before writing anything (Siteward: all or nothing)', async () => {
    const res = await call(t, 'POST', '/settings', { as: admin, body: { markdown: true, nonexistent_key: 1 } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { nonexistent_key: 'nonexistent_key is not a setting of this site.' } },
    });
    expect(await activeSlugs()).not.toContain('markdown');
  });

  it('refuses the whole call when an activation cannot succeed (no connection), naming the module', async () => {
    const res = await call(t, 'POST', '/settings', { as: admin, body: { markdown: true, sso: true, carousel_background_color: 'white' } });
    expect(res.status).toBe(424);
    expect(res.json).toMatchObject({ code: 'activation_failed', data: { status: 424, setting: 'sso' } });
    expect((res.json as { message: string }).message).toMatch(
      /^sso: The requested Jetpack module could not be activated\. It needs a connection/,
    );
    expect(await activeSlugs()).not.toContain('markdown');
    const carousel = (await call(t, 'GET', '/module/carousel', { as: admin })).json as {
      options: Record<string, { current_value: unknown }>;
    };
    expect(carousel.options.carousel_background_color!.current_value).toBe('black');
  });

  it('undoes the whole call when a write fails after the checks (a custom service that does not exist)', async () => {
    const res = await call(t, 'POST', '/settings', {
      as: admin,
      body: { markdown: true, carousel_background_color: 'white', sharing_delete_service: 'custom-123' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'setting_not_saved',
      message: 'Nothing was saved: sharing_delete_service could not be updated (The sharing service does not exist).',
    });
    expect(await activeSlugs()).not.toContain('markdown');
    const carousel = (await call(t, 'GET', '/module/carousel', { as: admin })).json as {
      options: Record<string, { current_value: unknown }>;
    };
    expect(carousel.options.carousel_background_color!.current_value).toBe('black');
  });

  it("has the 2016 routes' side effects: plugins hear module.activated, module.option_updated and setting.updated", async () => {
    const heard: string[] = [];
    const withListener = await createTestApp({
      plugins: [
        (api) => {
          api.on('module.activated', ({ slug }) => void heard.push(`activated ${slug}`));
          api.on('module.deactivated', ({ slug }) => void heard.push(`deactivated ${slug}`));
          api.on('module.option_updated', ({ slug, option }) => void heard.push(`${slug}.${option}`));
          api.on('setting.updated', ({ name, value }) => void heard.push(`${name}=${String(value)}`));
        },
      ],
    });
    try {
      const boss = await withListener.loginAs('administrator');
      const res = await call(withListener, 'POST', '/settings', {
        as: boss,
        body: { markdown: true, protect: false, carousel_display_exif: true, jetpack_holiday_snow_enabled: true },
      });
      expect(res.status).toBe(200);
      expect(heard).toEqual([
        'activated markdown',
        'deactivated protect',
        'carousel.carousel_display_exif',
        'jetpack_holiday_snow_enabled=true',
      ]);
      // Jump Start's offer closes on an administrator's toggle, as with module/{slug}/active.
      expect((await call(withListener, 'GET', '/jumpstart', { as: boss })).json).toEqual({ status: 'jetpack_action_taken' });
    } finally {
      await withListener.close();
    }
  });

  it('answers missing_options for an empty body and needs configure_modules', async () => {
    expect((await call(t, 'POST', '/settings', { as: admin, body: {} })).json).toEqual({
      code: 'missing_options',
      message: 'Missing options.',
      data: { status: 404 },
    });
    const editor = await t.loginAs('editor');
    expect((await call(t, 'POST', '/settings', { as: editor, body: { markdown: true } })).json).toEqual(
      permissionBody('invalid_user_permission_configure_modules', 403),
    );
    expect((await call(t, 'POST', '/settings', { body: { markdown: true } })).json).toEqual(
      permissionBody('invalid_user_permission_configure_modules', 401),
    );
  });

  it("checks the values of known keys before the permission, as WordPress checks Jetpack's declared arguments; unknown keys after it", async () => {
    const invalid = {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): carousel_background_color, protect',
      data: {
        status: 400,
        params: {
          carousel_background_color: expect.stringContaining('carousel_background_color must be one of'),
          protect: 'protect must be true, false, 0 or 1.',
        },
      },
    };
    const anonymous = await call(t, 'POST', '/settings', { body: { protect: 'yes', carousel_background_color: 'red' } });
    expect([anonymous.status, anonymous.json]).toEqual([400, invalid]);
    const editor = await t.loginAs('editor');
    expect((await call(t, 'POST', '/settings', { as: editor, body: { protect: 'yes', carousel_background_color: 'red' } })).json).toEqual(
      invalid,
    );
    // An unknown key is not an argument in Jetpack: nobody learns more than the permission error.
    expect((await call(t, 'POST', '/settings', { body: { no_such_key: 1 } })).json).toEqual(
      permissionBody('invalid_user_permission_configure_modules', 401),
    );
    expect((await call(t, 'POST', '/settings', { as: admin, body: { no_such_key: 1 } })).json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { no_such_key: expect.any(String) } },
    });
  });

  it("POST settings/{module} writes only that module's options, of an active module", async () => {
    let res = await call(t, 'POST', '/settings/carousel', { as: admin, body: { carousel_background_color: 'white' } });
    expect([res.status, res.json]).toEqual([
      409,
      { code: 'inactive', message: 'The requested Jetpack module is inactive.', data: { status: 409 } },
    ]);
    expect((await call(t, 'POST', '/settings/nothing-here', { as: admin, body: { a: 1 } })).json).toEqual(NOT_FOUND);
    await call(t, 'POST', '/settings', { as: admin, body: { carousel: true } });
    res = await call(t, 'POST', '/settings/carousel', { as: admin, body: { carousel_background_color: 'white', markdown: true } });
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { markdown: 'markdown is not a setting of the carousel module.' } },
    });
    res = await call(t, 'POST', '/settings/carousel', { as: admin, body: { carousel_background_color: 'white' } });
    expect([res.status, res.json]).toEqual([200, SUCCESS]);
    // No GET: a module's settings are read with GET module/{slug}.
    expect((await call(t, 'GET', '/settings/carousel', { as: admin })).json).toMatchObject({ code: 'rest_no_route' });
    // The 2016 route keeps its meaning.
    res = await call(t, 'POST', '/settings/update', { as: admin, body: { jetpack_holiday_snow_enabled: true } });
    expect(res.json).toEqual({ code: 'success', message: 'Setting updated.', value: true });
  });
});

describe('GET settings: the spec answer by default, the 4.4+ object with SITEWARD_SETTINGS_SHAPE=current', () => {
  let current: TestApp | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  it('keeps the spec answer exactly by default', async () => {
    expect((await call(t, 'GET', '/settings', { as: admin })).json).toEqual({ jetpack_holiday_snow_enabled: false });
  });

  it('answers every updatable key, and a write shows in the next read', async () => {
    current = await createTestApp({ env: { SITEWARD_SETTINGS_SHAPE: 'current' } });
    const boss = await current.loginAs('administrator');
    let body = (await call(current, 'GET', '/settings', { as: boss })).json as Record<string, unknown>;
    expect(body).toMatchObject({
      carousel_background_color: 'black',
      carousel: false,
      protect: true,
      markdown: false,
      jetpack_holiday_snow_enabled: false,
    });
    expect(Object.keys(body)).toHaveLength(63 + 37 + 1);
    // Jetpack's order: each module's options, then its slug.
    const keys = Object.keys(body);
    expect(keys.indexOf('carousel_background_color')).toBeLessThan(keys.indexOf('carousel'));
    expect((await call(current, 'POST', '/settings', { as: boss, body: { protect: false, carousel_display_exif: true } })).status).toBe(
      200,
    );
    body = (await call(current, 'GET', '/settings', { as: boss })).json as Record<string, unknown>;
    expect(body).toMatchObject({ protect: false, carousel_display_exif: true });
    expect((await call(current, 'GET', '/settings')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
  });

  it('shows a write made by another process on the same store in the next read, though an unchanged object is built once', async () => {
    current = await createTestApp({ env: { SITEWARD_SETTINGS_SHAPE: 'current' } });
    const other = await createTestApp({ env: { SITEWARD_SETTINGS_SHAPE: 'current' }, dataDir: current.app.config.dataDir });
    try {
      const boss = await current.loginAs('administrator');
      const first = (await call(current, 'GET', '/settings', { as: boss })).json as Record<string, unknown>;
      expect((await call(current, 'GET', '/settings', { as: boss })).json).toEqual(first);
      expect(first).toMatchObject({ markdown: false, carousel_background_color: 'black' });
      const elsewhere = await other.loginAs('administrator');
      const res = await call(other, 'POST', '/settings', { as: elsewhere, body: { markdown: true, carousel_background_color: 'white' } });
      expect(res.status).toBe(200);
      expect((await call(current, 'GET', '/settings', { as: boss })).json).toMatchObject({
        markdown: true,
        carousel_background_color: 'white',
      });
    } finally {
      await other.close();
    }
  });
});

describe('the other 4.3+ names answer as their 2016 twins', () => {
  it('module/all/active activates the listed modules (active:false is ignored, as Jetpack)', async () => {
    const res = await call(t, 'POST', '/module/all/active', { as: admin, body: { modules: ['markdown', 'carousel'], active: false } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'All modules activated.' }]);
    expect(await activeSlugs()).toEqual(expect.arrayContaining(['markdown', 'carousel']));
    expect((await call(t, 'POST', '/module/all/active', { as: admin, body: { modules: ['nope'] } })).json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { modules: 'modules must be a list of valid modules' } },
    });
  });

  it('jumpstart {active} is jumpstart/activate and jumpstart/deactivate; GET jumpstart reads the state', async () => {
    expect((await call(t, 'GET', '/jumpstart', { as: admin })).json).toEqual({ status: false });
    let res = await call(t, 'POST', '/jumpstart', { as: admin, body: { active: true } });
    expect([res.status, res.json]).toMatchObject([
      200,
      { code: 'success', message: 'Jumpstart done.', data: { jumpstart_activated: true } },
    ]);
    expect((await call(t, 'GET', '/jumpstart', { as: admin })).json).toEqual({ status: 'jumpstart_activated' });
    res = await call(t, 'POST', '/jumpstart', { as: admin, body: { active: false } });
    expect(res.json).toMatchObject({ code: 'success', message: 'Jumpstart deactivated.' });
    expect((await call(t, 'POST', '/jumpstart', { as: admin, body: {} })).json).toMatchObject({ code: 'rest_missing_callback_param' });
    expect((await call(t, 'POST', '/jumpstart', { as: admin, body: { active: 'maybe' } })).json).toMatchObject({
      code: 'rest_invalid_param',
    });
  });

  it('options/{x} needs reset exactly true; the 4.3.0 DELETE needs nothing', async () => {
    await call(t, 'POST', '/settings', { as: admin, body: { markdown: true } });
    const invalid = { code: 'invalid_param', message: 'Invalid Parameter', data: { status: 404 } };
    expect((await call(t, 'POST', '/options/modules', { as: admin, body: { reset: 'true' } })).json).toEqual(invalid);
    expect(await activeSlugs()).toContain('markdown');
    let res = await call(t, 'POST', '/options/modules', { as: admin, body: { reset: true } });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'Modules reset to default.' }]);
    expect(await activeSlugs()).not.toContain('markdown');
    res = await call(t, 'DELETE', '/options/options', { as: admin });
    expect(res.json).toEqual({ code: 'success', message: 'Jetpack options reset.' });
    expect((await call(t, 'POST', '/options/other', { as: admin, body: { reset: true } })).json).toEqual(invalid);
  });

  it('notice/{n} needs dismissed exactly true and answers the dismissed map', async () => {
    let res = await call(t, 'POST', '/notice/welcome', { as: admin, body: { dismissed: false } });
    expect([res.status, res.json]).toEqual([
      404,
      { code: 'invalid_param', message: 'Invalid parameter "dismissed".', data: { status: 404 } },
    ]);
    res = await call(t, 'POST', '/notice/welcome', { as: admin, body: { dismissed: true } });
    expect([res.status, res.json]).toEqual([200, { welcome: true }]);
    res = await call(t, 'DELETE', '/notice/feedback_dash_request', { as: admin });
    expect(res.json).toEqual({ welcome: true, feedback_dash_request: true });
    expect((await call(t, 'POST', '/notice/other', { as: admin, body: { dismissed: true } })).json).toEqual({
      code: 'invalid_param',
      message: 'Invalid parameter "notice".',
      data: { status: 404 },
    });
  });
});

describe('GET module/{slug}/data', () => {
  it('answers protect as a bare integer and verification-tools, vaultpress as their 2016 routes', async () => {
    let res = await call(t, 'GET', '/module/protect/data', { as: admin });
    expect([res.status, res.text]).toEqual([200, '0']);
    // Same path in both shapes: the plugin's data route answers it through the backups feature's provider.
    expect((await call(t, 'GET', '/module/vaultpress/data', { as: admin })).json).toMatchObject({ code: 'not_registered' });
    res = await call(t, 'GET', '/module/verification-tools/data', { as: admin });
    expect([res.status, res.json]).toEqual([404, (await call(t, 'GET', '/module/verification-tools/services', { as: admin })).json]);
    expect(res.json).toMatchObject({ code: 'empty' });
  });

  it('answers monitor like downtime/last, and not_active for an inactive module', async () => {
    let res = await call(t, 'GET', '/module/monitor/data', { as: admin });
    expect([res.status, res.json]).toEqual([
      404,
      { code: 'not_active', message: 'The requested Jetpack module is not active.', data: { status: 404 } },
    ]);
    await call(t, 'POST', '/settings', { as: admin, body: { monitor: true } });
    res = await call(t, 'GET', '/module/monitor/data', { as: admin });
    expect([res.status, res.json]).toEqual([200, (await call(t, 'GET', '/module/monitor/downtime/last', { as: admin })).json]);
    expect(res.json).toEqual({ code: 'success', date: null });
  });

  it('answers akismet with the same bare code string, stats with an honest error, others with null', async () => {
    let res = await call(t, 'GET', '/module/akismet/data', { as: admin });
    expect([res.status, res.json]).toEqual([200, 'not_installed']);
    res = await call(t, 'GET', '/module/stats/data', { as: admin });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'stats_not_available', message: expect.stringContaining('no visit statistics') });
    res = await call(t, 'GET', '/module/markdown/data', { as: admin });
    expect([res.status, res.text]).toEqual([200, 'null']);
  });

  it('needs view_admin', async () => {
    expect((await call(t, 'GET', '/module/protect/data')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
  });
});

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('a settings call on %s is one transaction', (backend) => {
  let app: TestApp;
  let boss: LoggedIn;
  let schema: PgSchema | null = null;
  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    app = await createTestApp({ env: { SITEWARD_SETTINGS_SHAPE: 'current', ...(schema && { SITEWARD_DATABASE_URL: schema.url }) } });
    boss = await app.loginAs('administrator');
  });
  afterAll(async () => {
    await app?.close();
    await schema?.drop();
  });

  it('keeps nothing of a call whose last write fails, and everything of one that succeeds', async () => {
    const before = (await call(app, 'GET', '/settings', { as: boss })).json;
    const failed = await call(app, 'POST', '/settings', {
      as: boss,
      body: { markdown: true, protect: false, carousel_background_color: 'white', sharing_delete_service: 'custom-1' },
    });
    expect(failed.json).toMatchObject({ code: 'setting_not_saved' });
    expect((await call(app, 'GET', '/settings', { as: boss })).json).toEqual(before);
    const done = await call(app, 'POST', '/settings', {
      as: boss,
      body: { markdown: true, protect: false, carousel_background_color: 'white' },
    });
    expect(done.status).toBe(200);
    expect((await call(app, 'GET', '/settings', { as: boss })).json).toMatchObject({
      markdown: true,
      protect: false,
      carousel_background_color: 'white',
    });
  });
});
