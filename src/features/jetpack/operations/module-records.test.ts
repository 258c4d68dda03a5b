import { afterEach, describe, expect, it } from 'vitest';
import { isRestError } from '../../../rest/errors.js';
import { HEADER_FIELDS, RECORD_FIELDS } from '../testing/module-fields.js';
import { createPluginFixture, principal, type PluginFixture } from '../testing/plugin-fixture.js';
import { getModule, listModules } from './module-records.js';
import { registerServiceCheck, type ServiceGap } from './site-status.js';

let fx: PluginFixture;
afterEach(() => fx.close());

const admin = principal('administrator', 1);

describe('GET /module/all records', () => {
  it('have the reference fields in order, plus extra for sitemaps, then runtime, unavailable_reason and option_texts last', async () => {
    fx = await createPluginFixture();
    const all = await listModules(fx.ctx, fx.catalog, admin);
    expect(Object.keys(all)).toHaveLength(37);
    for (const [slug, record] of Object.entries(all)) {
      const expected = [...RECORD_FIELDS, ...(slug === 'sitemaps' ? ['extra'] : []), 'runtime', 'unavailable_reason', 'option_texts'];
      expect(Object.keys(record), slug).toEqual(expected);
    }
    expect(all.sitemaps!.extra).toEqual({
      sitemap_url: 'http://example.org/sitemap.xml',
      news_sitemap_url: 'http://example.org/news-sitemap.xml',
    });
  });

  it('match the reference example for protect on a fresh, unconnected site', async () => {
    fx = await createPluginFixture();
    const protect = (await listModules(fx.ctx, fx.catalog, admin)).protect!;
    expect(protect).toEqual({
      name: 'Protect',
      description: 'Prevent and block malicious login attempts.',
      jumpstart_desc: '',
      sort: 1,
      recommendation_order: 4,
      introduced: '3.4',
      changed: '',
      deactivate: true,
      free: true,
      requires_connection: false,
      auto_activate: 'Yes',
      module_tags: ['Recommended'],
      feature: ['Security'],
      additional_search_queries: 'security, secure, protection, botnet, brute force, protect, login',
      module: 'protect',
      activated: true,
      deactivate_nonce: 'nonce:jetpack_deactivate-protect:1',
      activate_nonce: 'nonce:jetpack_activate-protect:1',
      available: true,
      short_description: 'Prevent and block malicious login attempts.',
      configure_url: 'http://example.org/admin/#/modules/protect',
      learn_more_button: '',
      long_description: expect.stringContaining('<p>'),
      search_terms: 'security, secure, protection, botnet, brute force, protect, login',
      configurable: '<a href="http://example.org/admin/#/modules/protect">Configure</a>',
      options: {
        jetpack_protect_key: { description: 'Protect API key', type: 'string', default: '', current_value: '' },
        jetpack_protect_global_whitelist: {
          description: 'Protect global whitelist',
          type: 'string',
          default: '',
          sanitize_callback: 'esc_textarea',
          current_value: { local: [] },
        },
      },
      runtime: 'siteward',
      unavailable_reason: null,
      option_texts: {
        jetpack_protect_key: expect.objectContaining({ label: 'Protection key' }),
        jetpack_protect_global_whitelist: expect.objectContaining({ label: 'Never block these addresses' }),
      },
    });
  });

  it('say why a connection-requiring module is unavailable, offline or not connected', async () => {
    fx = await createPluginFixture();
    expect((await listModules(fx.ctx, fx.catalog, admin)).sso).toMatchObject({
      available: false,
      activated: false,
      unavailable_reason: {
        code: 'not_connected',
        message: 'It needs a connection to the central account service, and the site is not connected.',
        settings: [],
      },
    });
    fx.site.devMode.constant = true;
    expect((await listModules(fx.ctx, fx.catalog, admin)).sso!.unavailable_reason).toMatchObject({
      code: 'dev_mode',
      settings: ['SITEWARD_OFFLINE', 'SITEWARD_HOME_URL'],
    });
    fx.site.devMode.constant = false;
    fx.site.connected = true;
    expect((await listModules(fx.ctx, fx.catalog, admin)).sso).toMatchObject({ available: true, unavailable_reason: null });
  });

  it('make a module whose service is not set up unavailable and not activated, with what to set, until it is', async () => {
    fx = await createPluginFixture();
    let gap: ServiceGap | null = { message: 'It needs a place to keep backups.', settings: ['SITEWARD_BACKUP_DIR'] };
    registerServiceCheck(fx.ctx, 'vaultpress', () => gap);
    const before = (await listModules(fx.ctx, fx.catalog, admin)).vaultpress!;
    // vaultpress is in the default active list: unconfigured, it is still not shown as on.
    expect(before).toMatchObject({
      available: false,
      activated: false,
      unavailable_reason: { code: 'not_configured', message: 'It needs a place to keep backups.', settings: ['SITEWARD_BACKUP_DIR'] },
    });
    expect(await getModule(fx.ctx, fx.catalog, 'vaultpress', admin)).toMatchObject({
      activated: false,
      unavailable_reason: { code: 'not_configured' },
    });
    gap = null;
    expect((await listModules(fx.ctx, fx.catalog, admin)).vaultpress).toMatchObject({
      available: true,
      activated: true,
      unavailable_reason: null,
    });
  });

  it('are in catalog order with connection-requiring modules last while not connected', async () => {
    fx = await createPluginFixture();
    const slugs = Object.keys(await listModules(fx.ctx, fx.catalog, admin));
    expect(slugs).toEqual(fx.catalog.ordered(false).map((m) => m.slug));
    fx.site.connected = true;
    expect(Object.keys(await listModules(fx.ctx, fx.catalog, admin))).toEqual(fx.catalog.all().map((m) => m.slug));
  });

  it('report availability and activation by connection and dev mode (docs/spec/compat.md §9)', async () => {
    fx = await createPluginFixture();
    let all = await listModules(fx.ctx, fx.catalog, admin);
    // stats is in the default set but needs a connection.
    expect([all.stats!.available, all.stats!.activated]).toEqual([false, false]);
    expect([all['contact-form']!.available, all['contact-form']!.activated]).toEqual([true, true]);
    expect([all.vaultpress!.available, all.vaultpress!.activated]).toEqual([true, true]);
    fx.site.connected = true;
    all = await listModules(fx.ctx, fx.catalog, admin);
    expect([all.stats!.available, all.stats!.activated]).toEqual([true, true]);
    expect([all.likes!.available, all.likes!.activated]).toEqual([true, false]);
    fx.site.devMode.url = true;
    all = await listModules(fx.ctx, fx.catalog, admin);
    expect([all.stats!.available, all.stats!.activated]).toEqual([false, false]);
    expect(all.protect!.activated).toBe(true);
  });

  it('offer Configure only to users with manage_options, and only for modules with options', async () => {
    fx = await createPluginFixture();
    const forEditor = await listModules(fx.ctx, fx.catalog, principal('editor', 2));
    expect(forEditor.protect!.configurable).toBe(false);
    expect(forEditor.protect!.deactivate_nonce).toBe('nonce:jetpack_deactivate-protect:2');
    const forAdmin = await listModules(fx.ctx, fx.catalog, admin);
    expect(forAdmin.latex!.configurable).toBe(false);
    expect(forAdmin.latex!.options).toBeNull();
  });

  it('show options with enum labels, leaked sanitizer names and cast current values', async () => {
    fx = await createPluginFixture();
    await fx.store.options.set('stats_options', { admin_bar: '0', roles: ['administrator', 'editor'], version: '9' });
    await fx.store.options.set('wp_mobile_excerpt', '1');
    const all = await listModules(fx.ctx, fx.catalog, admin);
    expect(all.likes!.options!.wpl_default).toEqual({
      description: 'WordPress.com Likes are',
      type: 'string',
      default: 'on',
      enum: { on: 'On for all posts', off: 'Turned on per post' },
      current_value: 'on',
    });
    expect(all.stats!.options!.admin_bar!.current_value).toBe(false);
    expect(all.stats!.options!.admin_bar!.default).toBe(1);
    expect(all.stats!.options!.version!.current_value).toBe(9);
    expect(all.stats!.options!.roles!.current_value).toEqual(['administrator', 'editor']);
    expect(all.stats!.options!.roles!.sanitize_callback).toBe('Jetpack_Core_Json_Api_Endpoints::sanitize_stats_allowed_roles');
    expect(all.stats!.options!.do_not_track!.current_value).toBe(true);
    expect(all.minileven!.options!.wp_mobile_excerpt!.current_value).toBe('enabled');
    expect(all.sharedaddy!.options!.sharing_services!.current_value).toEqual({ visible: ['twitter', 'facebook'], hidden: [] });
  });

  it('shorten long descriptions to 140 characters and "..."', async () => {
    fx = await createPluginFixture();
    fx.catalog.register({ slug: 'wordy', name: 'Wordy', description: 'x'.repeat(144), introduced: '1.0' });
    fx.catalog.register({ slug: 'exact', name: 'Exact', description: 'y'.repeat(143), introduced: '1.0' });
    const all = await listModules(fx.ctx, fx.catalog, admin);
    expect(all.wordy!.short_description).toBe(`${'x'.repeat(140)}...`);
    expect(all.exact!.short_description).toBe('y'.repeat(143));
  });
});

describe('GET /module/:slug', () => {
  it('returns the 14 header fields and options, then runtime, unavailable_reason and option_texts', async () => {
    fx = await createPluginFixture();
    const record = await getModule(fx.ctx, fx.catalog, 'protect', admin);
    expect(Object.keys(record)).toEqual([...HEADER_FIELDS, 'options', 'runtime', 'unavailable_reason', 'option_texts']);
  });

  it('adds activated: false while the module is unavailable', async () => {
    fx = await createPluginFixture();
    const record = await getModule(fx.ctx, fx.catalog, 'likes', admin);
    expect(Object.keys(record)).toEqual([...HEADER_FIELDS, 'options', 'activated', 'runtime', 'unavailable_reason', 'option_texts']);
    expect((record as Record<string, unknown>).activated).toBe(false);
  });

  it('is 404 not_found for an unknown or differently cased slug', async () => {
    fx = await createPluginFixture();
    for (const slug of ['nope', 'Protect', 'all']) {
      const error = await getModule(fx.ctx, fx.catalog, slug, admin);
      expect(isRestError(error) && error.toJSON()).toEqual({
        code: 'not_found',
        message: 'The requested Jetpack module was not found.',
        data: { status: 404 },
      });
    }
  });
});
