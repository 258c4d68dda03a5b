import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInitialState } from './initial-state.js';
import { listModules } from './operations/module-records.js';
import { activateJumpstart } from './operations/jumpstart.js';
import { dismissNotice } from './operations/notices.js';
import { createPluginFixture, principal, type PluginFixture } from './testing/plugin-fixture.js';

let fx: PluginFixture;
afterEach(() => fx.close());

const admin = principal('administrator', 1);

const KEYS = [
  'WP_API_root',
  'WP_API_nonce',
  'pluginBaseUrl',
  'connectionStatus',
  'dismissedNotices',
  'isDevVersion',
  'currentVersion',
  'happinessGravIds',
  'getModules',
  'showJumpstart',
  'rawUrl',
  'adminUrl',
  'stats',
  'settingNames',
  'userData',
  'locale',
  'localeSlug',
  'jetpackStateNotices',
  'tracksUserData',
];

describe('Initial_State', () => {
  it('has every key of docs/spec/jetpack-v4-reference.md §11 in order, with top-level scalars printed as WordPress prints them', async () => {
    fx = await createPluginFixture();
    const state = await buildInitialState(fx.ctx, { user: admin, nonce: 'abc123' });
    expect(Object.keys(state)).toEqual(KEYS);
    expect(state).toMatchObject({
      WP_API_root: 'http://example.org/wp-json/',
      WP_API_nonce: 'abc123',
      pluginBaseUrl: 'http://example.org/admin',
      connectionStatus: {
        isActive: false,
        isStaging: false,
        devMode: { isActive: false, constant: false, url: false, filter: false },
        isPublic: true,
      },
      dismissedNotices: [],
      isDevVersion: '',
      currentVersion: '0.1.0',
      happinessGravIds: [],
      showJumpstart: '1',
      rawUrl: 'example.org',
      adminUrl: 'http://example.org/admin/',
      settingNames: { jetpack_holiday_snow_enabled: 'jetpack_holiday_snow_enabled' },
      locale: '{}',
      localeSlug: 'en',
      jetpackStateNotices: { messageCode: null, errorCode: null, errorDescription: null },
      tracksUserData: '',
    });
    expect(state.stats).toEqual({
      data: { general: false, day: false, week: false, month: false },
      roles: {
        administrator: { name: 'Administrator', canView: true },
        editor: { name: 'Editor', canView: false },
        author: { name: 'Author', canView: false },
        contributor: { name: 'Contributor', canView: false },
        subscriber: { name: 'Subscriber', canView: false },
      },
    });
  });

  it('carries the module/all body as getModules', async () => {
    fx = await createPluginFixture();
    const state = await buildInitialState(fx.ctx, { user: admin, nonce: 'n' });
    expect(state.getModules).toEqual(JSON.parse(JSON.stringify(await listModules(fx.ctx, fx.catalog, admin))));
  });

  it('describes the user as /user-connection-data does for a site that is not connected', async () => {
    fx = await createPluginFixture();
    const state = await buildInitialState(fx.ctx, { user: principal('editor', 3), nonce: 'n' });
    expect(state.userData).toEqual({
      othersLinked: false,
      currentUser: {
        isConnected: false,
        isMaster: false,
        username: 'editor',
        wpcomUser: { avatar: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=64&d=mm&r=g$/) },
        gravatar: expect.stringMatching(
          /^<img alt='' src='https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=40&d=mm&r=g' class='avatar avatar-40 photo' height='40' width='40' \/>$/,
        ),
        permissions: {
          admin_page: true,
          connect: false,
          disconnect: false,
          manage_modules: false,
          network_admin: false,
          network_sites_page: false,
          edit_posts: true,
          manage_options: false,
          view_stats: false,
        },
      },
    });
  });

  it('hashes the Gravatar address as WordPress does: md5 of PHP strtolower(trim()), ASCII-only lower-casing', async () => {
    fx = await createPluginFixture();
    const user = { ...principal('editor', 3), email: ' ÄNNE@Example.ORG\n' };
    const state = await buildInitialState(fx.ctx, { user, nonce: 'n' });
    const hash = createHash('md5').update('Änne@example.org', 'utf8').digest('hex');
    expect(state.userData).toMatchObject({
      currentUser: { wpcomUser: { avatar: `https://secure.gravatar.com/avatar/${hash}?s=64&d=mm&r=g` } },
    });
  });

  it('follows the stored state: dismissed notices, Jump Start, dev mode, a dev version', async () => {
    fx = await createPluginFixture({ devMode: { url: true } });
    await dismissNotice(fx.ctx, 'welcome');
    await activateJumpstart(fx.ctx, fx.catalog);
    const ctx = { ...fx.ctx, site: { ...fx.ctx.site, version: '0.2.0-alpha', homeUrl: () => 'https://localhost/blog' } };
    const state = await buildInitialState(ctx, { user: admin, nonce: 'n' });
    expect(state.dismissedNotices).toEqual({ welcome: true });
    expect(state.showJumpstart).toBe('');
    expect(state.isDevVersion).toBe('1');
    expect(state.rawUrl).toBe('localhost::blog');
    expect(state.connectionStatus).toMatchObject({ devMode: { isActive: true, url: true } });
  });

  it('uses the connection service’s user data when given', async () => {
    fx = await createPluginFixture({ connected: true });
    const linked = { othersLinked: false, currentUser: { isConnected: true, wpcomUser: { ID: 42, login: 'me' } } };
    const state = await buildInitialState({ ...fx.ctx, userConnectionData: async () => linked }, { user: admin, nonce: 'n' });
    expect(state.userData).toEqual(linked);
    expect(state.tracksUserData).toEqual({ userid: 42, username: 'me' });
    expect(state.connectionStatus).toMatchObject({ isActive: true });
  });
});
