import { afterEach, describe, expect, it } from 'vitest';
import { isRestError, type RestError } from '../../rest/errors.js';
import type { Principal, RestRequest } from '../../rest/types.js';
import { registerSiteManagementPlugin } from './index.js';
import { createPluginFixture, principal, type PluginFixture } from './testing/plugin-fixture.js';
import { matchRoute, recordingApi, type RecordedRoute } from './testing/recording-api.js';

let fx: PluginFixture;
afterEach(() => fx.close());

async function setup() {
  fx = await createPluginFixture();
  const { api, routes } = recordingApi(fx.events, fx.store.options);
  const plugin = registerSiteManagementPlugin(api, fx.ctx);
  return { api, routes, plugin };
}

const EDIT = ['POST', 'PUT', 'PATCH'];

function methodsOf(route: RecordedRoute): string[][] {
  return route.endpoints.map((e) => (typeof e.methods === 'string' ? [e.methods] : [...(e.methods ?? ['GET'])]));
}

function fakeRequest(user: Principal, params: Record<string, unknown> = {}, json?: unknown): RestRequest {
  return {
    method: 'POST',
    route: '',
    matchedRoute: '',
    params,
    urlParams: {},
    query: {},
    bodyParams: {},
    json,
    body: '',
    headers: {},
    user,
    origin: { secure: false, hostname: '' },
    param: (name) => params[name],
    header: () => undefined,
    deprecatedFunction: () => undefined,
    deprecatedArgument: () => undefined,
  };
}

describe('registerSiteManagementPlugin', () => {
  it('registers the routes in the order that makes the overlapping patterns work', async () => {
    const { routes } = await setup();
    expect(routes.map((r) => [r.namespace, r.route, methodsOf(r)])).toEqual([
      ['jetpack/v4', '/module/all', [['GET']]],
      ['jetpack/v4', '/module/activate', [EDIT]],
      ['jetpack/v4', '/modules/activate', [EDIT]],
      ['jetpack/v4', '/module/all/active', [EDIT]],
      ['jetpack/v4', '/module/(?P<slug>[a-z\\-]+)/active', [EDIT]],
      ['jetpack/v4', '/module/(?P<slug>[a-z\\-]+)', [['GET'], EDIT]],
      ['jetpack/v4', '/settings', [['GET']]],
      ['jetpack/v4', '/settings/update', [EDIT]],
      ['jetpack/v4', '/setting/update', [EDIT]],
      ['jetpack/v4', '/jumpstart/activate', [EDIT]],
      ['jetpack/v4', '/jumpstart/deactivate', [EDIT]],
      ['jetpack/v4', '/reset/(?P<options_or_modules>[a-z\\-]+)', [EDIT]],
      ['jetpack/v4', '/notice/(?P<notice>[a-z\\-_]+)/dismiss', [EDIT]],
      // The 4.3+ spellings come after the 2016 ones they overlap.
      ['jetpack/v4', '/settings', [EDIT]],
      ['jetpack/v4', '/settings/(?P<module>[a-z\\-]+)', [EDIT]],
      ['jetpack/v4', '/jumpstart', [['GET'], EDIT]],
      ['jetpack/v4', '/options/(?P<options>[a-z\\-]+)', [[...EDIT, 'DELETE']]],
      ['jetpack/v4', '/notice/(?P<notice>[a-z\\-_]+)', [[...EDIT, 'DELETE']]],
      ['jetpack/v4', '/module/(?P<slug>[a-z\\-]+)/data', [['GET']]],
    ]);
  });

  it.each([
    ['GET', '/jetpack/v4/module/all', '/module/all', {}],
    ['POST', '/jetpack/v4/module/all', '/module/(?P<slug>[a-z\\-]+)', { slug: 'all' }],
    ['PUT', '/jetpack/v4/module/activate', '/module/activate', {}],
    ['GET', '/jetpack/v4/module/activate', '/module/(?P<slug>[a-z\\-]+)', { slug: 'activate' }],
    ['PUT', '/jetpack/v4/module/protect/active', '/module/(?P<slug>[a-z\\-]+)/active', { slug: 'protect' }],
    ['PATCH', '/jetpack/v4/module/Protect', '/module/(?P<slug>[a-z\\-]+)', { slug: 'Protect' }],
    ['PUT', '/jetpack/v4/notice/WELCOME/dismiss', '/notice/(?P<notice>[a-z\\-_]+)/dismiss', { notice: 'WELCOME' }],
    ['POST', '/jetpack/v4/module/all/active', '/module/all/active', {}],
    ['POST', '/jetpack/v4/settings/update', '/settings/update', {}],
    ['POST', '/jetpack/v4/settings/protect', '/settings/(?P<module>[a-z\\-]+)', { module: 'protect' }],
    ['GET', '/jetpack/v4/module/protect/data', '/module/(?P<slug>[a-z\\-]+)/data', { slug: 'protect' }],
    ['DELETE', '/jetpack/v4/notice/welcome', '/notice/(?P<notice>[a-z\\-_]+)', { notice: 'welcome' }],
  ])('%s %s goes to %s', async (method, path, route, params) => {
    const { routes } = await setup();
    const hit = matchRoute(routes, method, path);
    expect(hit?.route.route).toBe(route);
    expect(hit?.params).toEqual(params);
  });

  it.each([
    ['GET', '/jetpack/v4/module/stats2'],
    ['GET', '/jetpack/v4/module/my_module'],
    ['POST', '/jetpack/v4/reset/'],
  ])('%s %s matches no route', async (method, path) => {
    const { routes } = await setup();
    expect(matchRoute(routes, method, path)).toBeNull();
  });

  it('declares the reference arguments', async () => {
    const { routes } = await setup();
    const args = (route: string, i = 0) => routes.find((r) => r.route === route)!.endpoints[i]!.args;
    expect(args('/module/(?P<slug>[a-z\\-]+)/active')).toMatchObject({ active: { type: 'boolean', required: true, default: true } });
    expect(args('/module/activate')).toMatchObject({ modules: { type: 'array', required: true, default: '' } });
    expect(args('/module/(?P<slug>[a-z\\-]+)', 1)).toEqual({ context: { default: 'edit' } });
  });

  it('validates `active` and `modules` with the reference messages', async () => {
    const { routes } = await setup();
    const admin = principal('administrator');
    const active = routes.find((r) => r.route.endsWith('<slug>[a-z\\-]+)/active'))!.endpoints[0]!.args!.active!.validateCallback!;
    for (const ok of [true, false, 0, 1, '0', '1', 'true', 'FALSE']) expect(await active(ok, fakeRequest(admin), 'active')).toBe(true);
    for (const bad of ['yes', 2, null, [], {}]) {
      const result = (await active(bad, fakeRequest(admin), 'active')) as RestError;
      expect([result.code, result.message]).toEqual(['rest_invalid_param', 'active must be true, false, 0 or 1.']);
    }
    const modules = routes.find((r) => r.route === '/module/activate')!.endpoints[0]!.args!.modules!.validateCallback!;
    expect(await modules(['carousel', 'protect'], fakeRequest(admin), 'modules')).toBe(true);
    expect(((await modules('', fakeRequest(admin), 'modules')) as RestError).message).toBe('modules must be an array');
    expect(((await modules(['carousel', 'nope'], fakeRequest(admin), 'modules')) as RestError).message).toBe(
      'modules must be a list of valid modules',
    );
    // Not available while the site is not connected.
    // Unavailable but known: the handler answers 424 with the reason instead.
    expect(await modules(['likes'], fakeRequest(admin), 'modules')).toBe(true);
  });

  /** Reference §2 with docs/spec/compat.md §9: which role passes which endpoint (dev mode off). */
  const PERMISSIONS: Array<[string, number, string, string[]]> = [
    ['/module/all', 0, 'invalid_user_permission_view_admin', ['administrator', 'editor', 'author', 'contributor', 'subscriber']],
    [
      '/module/(?P<slug>[a-z\\-]+)',
      0,
      'invalid_user_permission_view_admin',
      ['administrator', 'editor', 'author', 'contributor', 'subscriber'],
    ],
    ['/module/(?P<slug>[a-z\\-]+)', 1, 'invalid_user_permission_configure_modules', ['administrator']],
    ['/module/(?P<slug>[a-z\\-]+)/active', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    ['/module/activate', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    ['/modules/activate', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    ['/settings', 0, 'invalid_user_permission_view_admin', ['administrator', 'editor', 'author', 'contributor', 'subscriber']],
    ['/settings/update', 0, 'invalid_user_permission_manage_settings', ['administrator']],
    ['/setting/update', 0, 'invalid_user_permission_manage_settings', ['administrator']],
    ['/jumpstart/activate', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    ['/jumpstart/deactivate', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    ['/reset/(?P<options_or_modules>[a-z\\-]+)', 0, 'invalid_user_permission_manage_modules', ['administrator']],
    [
      '/notice/(?P<notice>[a-z\\-_]+)/dismiss',
      0,
      'invalid_user_permission_view_admin',
      ['administrator', 'editor', 'author', 'contributor', 'subscriber'],
    ],
  ];

  it.each(PERMISSIONS)(
    '%s (endpoint %i) fails with %s: 401 anonymous, 403 for roles without the capability',
    async (route, index, code, allowed) => {
      const { routes } = await setup();
      const check = routes.find((r) => r.route === route)!.endpoints[index]!.permissionCallback!;
      for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber', null]) {
        const result = await check(fakeRequest(principal(role, role ? 5 : 0)));
        if (role && allowed.includes(role)) {
          expect(result, `${role}`).toBe(true);
          continue;
        }
        expect(isRestError(result), `${role}`).toBe(true);
        expect((result as RestError).toJSON()).toEqual({
          code,
          message:
            'You do not have the correct user permissions to perform this action. Please contact your site admin if you think this is a mistake.',
          data: { status: role ? 403 : 401 },
        });
      }
    },
  );

  it('asks for manage_options to view the admin endpoints in dev mode', async () => {
    const { routes } = await setup();
    fx.site.devMode.url = true;
    const check = routes.find((r) => r.route === '/module/all')!.endpoints[0]!.permissionCallback!;
    expect(await check(fakeRequest(principal('administrator')))).toBe(true);
    expect(((await check(fakeRequest(principal('editor')))) as RestError).data).toEqual({ status: 403 });
  });

  it('lets a third-party plugin hear module.activated through api.on', async () => {
    const { api, routes } = await setup();
    const heard: string[] = [];
    api.on('module.activated', ({ slug }) => void heard.push(slug));
    const toggle = routes.find((r) => r.route.endsWith('<slug>[a-z\\-]+)/active'))!.endpoints[0]!.callback!;
    const request = { ...fakeRequest(principal('administrator'), { active: true }), urlParams: { slug: 'markdown' } };
    expect(await toggle(request)).toEqual({ code: 'success', message: 'The requested Jetpack module was activated.' });
    expect(heard).toEqual(['markdown']);
  });

  it('adds modules registered through the handle to the catalog and the module list', async () => {
    const { routes, plugin } = await setup();
    plugin.registerModule({ slug: 'my-feature', name: 'My Feature', description: 'Mine.', introduced: '1.0', requires_connection: false });
    const list = routes.find((r) => r.route === '/module/all')!.endpoints[0]!.callback!;
    const body = (await list(fakeRequest(principal('administrator')))) as Record<string, { activated: boolean; available: boolean }>;
    expect(body['my-feature']).toMatchObject({ activated: false, available: true });
    expect(() => plugin.registerModule({ slug: 'my-feature', name: 'Again', description: 'x', introduced: '1' })).toThrow(
      /already registered/,
    );
  });
});
