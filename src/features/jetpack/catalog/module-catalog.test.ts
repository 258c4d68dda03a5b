import { describe, expect, it } from 'vitest';
import { ModuleDefinitionError } from '../errors.js';
import { ModuleCatalog } from './module-catalog.js';

/** docs/spec/jetpack-v4-reference.md §5.2, verbatim (Req before docs/spec/compat.md §9's changes). */
const REFERENCE_TABLE = `
| after-the-deadline | Spelling and Grammar | 6 | 20 | 1.1 | yes | Yes | Writing | Writing | |
| carousel | Carousel | 22 | 12 | 1.5 | no | No | Photos and Videos | Appearance, Jumpstart | ✔ |
| comments | Comments | 20 | 20 | 1.4 | yes | No | Social | Engagement | |
| contact-form | Contact Form | 15 | 14 | 1.3 | no | Yes | Other | Writing, Jumpstart | ✔ |
| custom-content-types | Custom Content Types | 34 | 20 | 3.1 | no | Yes | Writing | Writing | |
| custom-css | Custom CSS | 2 | 20 | 1.7 | no | Yes | Appearance | Appearance | |
| enhanced-distribution | Enhanced Distribution | 5 | 20 | 1.2 | yes | Public | Writing | Engagement | |
| gravatar-hovercards | Gravatar Hovercards | 11 | 13 | 1.1 | no | Yes | Social, Appearance | Appearance, Jumpstart | ✔ |
| infinite-scroll | Infinite Scroll | 26 | 20 | 2.0 | no | No | Appearance | Appearance | |
| json-api | JSON API | 19 | 20 | 1.9 | yes | Public | Writing, Developers | General | |
| latex | Beautiful Math | 12 | 20 | 1.1 | no | Yes | Writing | Writing | |
| likes | Likes | 23 | 20 | 2.2 | yes | No | Social | Engagement | |
| manage | Manage | 1 | 3 | 3.4 | yes | No | Centralized Management, Recommended | General, Jumpstart | ✔ |
| markdown | Markdown | 31 | 20 | 2.8 | no | No | Writing | Writing | |
| minileven | Mobile Theme | 21 | 11 | 1.8 | no | No | Appearance, Mobile, Recommended | Appearance | |
| monitor | Monitor | 28 | 10 | 2.6 | yes | No | Recommended | Security | |
| notes | Notifications | 13 | 20 | 1.9 | yes | Yes | Other | General | |
| omnisearch | Omnisearch | 16 | 20 | 2.3 | no | Yes | Developers | General | |
| photon | Photon | 25 | 1 | 2.0 | yes | No | Photos and Videos, Appearance, Recommended | Recommended, Jumpstart, Appearance | ✔ |
| post-by-email | Post by Email | 14 | 20 | 2.0 | yes | Yes | Writing | Writing | |
| protect | Protect | 1 | 4 | 3.4 | yes | Yes | Recommended | Security | |
| publicize | Publicize | 10 | 7 | 2.0 | yes | Yes | Social, Recommended | Engagement | |
| related-posts | Related Posts | 29 | 9 | 2.9 | yes | No | Recommended | Engagement, Jumpstart | ✔ |
| sharedaddy | Sharing | 7 | 6 | 1.1 | no | Yes | Social, Recommended | Engagement, Jumpstart | ✔ |
| shortcodes | Shortcode Embeds | 3 | 20 | 1.1 | no | Yes | Photos and Videos, Social, Writing, Appearance | Writing | |
| shortlinks | WP.me Shortlinks | 8 | 20 | 1.1 | yes | Yes | Social | Writing | |
| site-icon | Site Icon | 22 | 20 | 3.2 | no | No | Other | Other | |
| sitemaps | Sitemaps | 13 | 20 | 3.9 | no | Public | Recommended, Traffic | Other | |
| sso | Single Sign On | 30 | 5 | 2.6 | yes | No | Developers | Security, Jumpstart | ✔ |
| stats | Site Stats | 1 | 2 | 1.1 | yes | Yes | Site Stats, Recommended | Engagement | |
| subscriptions | Subscriptions | 9 | 8 | 1.2 | yes | Yes | Social | Engagement, Jumpstart | ✔ |
| tiled-gallery | Tiled Galleries | 24 | 20 | 2.1 | no | No | Photos and Videos | Appearance | |
| vaultpress | Data Backups | 32 | 20 | 0:1.2 | yes | Yes | Other | Security, Health | |
| verification-tools | Site Verification | 33 | 20 | 3.0 | no | Yes | Other | Engagement | |
| videopress | VideoPress | 27 | 20 | 2.5 | yes | No | Photos and Videos | Writing | |
| widget-visibility | Widget Visibility | 17 | 20 | 2.4 | no | Yes | Appearance | Appearance | |
| widgets | Extra Sidebar Widgets | 4 | 20 | 1.2 | no | Yes | Social, Appearance | Appearance | |
`;

const rows = REFERENCE_TABLE.trim()
  .split('\n')
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  )
  .map(([slug, name, sort, rec, intro, req, auto, tags, feat, js]) => ({
    slug: slug!,
    name: name!,
    sort: Number(sort),
    rec: Number(rec),
    intro: intro!,
    req: req === 'yes',
    auto: auto!,
    tags: tags!.split(', '),
    feature: feat!.split(', '),
    jumpstart: js === '✔',
  }));

/** docs/spec/compat.md §9: services Siteward runs itself. */
/** Run by Siteward without the connection; `sso` is run by Siteward too, through the connection. */
const RUN_LOCALLY = ['protect', 'monitor', 'verification-tools', 'vaultpress'];
const SITEWARD_RUN = [...RUN_LOCALLY, 'sso'];

/** Reference §6's list, plus contact-form, which §6 gives no options either (the list missed it). */
const WITHOUT_OPTIONS = [
  'contact-form',
  'custom-css',
  'enhanced-distribution',
  'json-api',
  'latex',
  'manage',
  'notes',
  'omnisearch',
  'photon',
  'publicize',
  'shortcodes',
  'shortlinks',
  'sitemaps',
  'vaultpress',
  'videopress',
  'widget-visibility',
  'widgets',
];

const catalog = new ModuleCatalog();

describe('the built-in module catalog', () => {
  it('holds the 37 modules of the reference', () => {
    expect(catalog.size).toBe(37);
    expect(rows).toHaveLength(37);
    expect([...catalog.all().map((m) => m.slug)].sort()).toEqual(rows.map((r) => r.slug).sort());
  });

  it.each(rows)('$slug has the reference metadata', (row) => {
    const mod = catalog.get(row.slug)!;
    expect(mod.name).toBe(row.name);
    expect(mod.sort).toBe(row.sort);
    expect(mod.recommendation_order).toBe(row.rec);
    expect(mod.introduced).toBe(row.intro);
    expect(mod.auto_activate).toBe(row.auto);
    expect(mod.module_tags).toEqual(row.tags);
    expect(mod.feature).toEqual(row.feature);
    expect(mod.feature.includes('Jumpstart')).toBe(row.jumpstart);
    expect(mod.requires_connection).toBe(RUN_LOCALLY.includes(row.slug) ? false : row.req);
    expect(mod.runtime).toBe(SITEWARD_RUN.includes(row.slug) ? 'siteward' : 'site');
    expect(mod.description).not.toBe('');
    expect(mod.long_description).not.toBe('');
    expect(mod.additional_search_queries).not.toBe('');
    expect(mod.options === null).toBe(WITHOUT_OPTIONS.includes(row.slug));
  });

  it('keeps the reference header quirks: changed, deactivate, free', () => {
    expect(catalog.get('sharedaddy')!.changed).toBe('1.2');
    expect(catalog.get('shortcodes')!.changed).toBe('1.2');
    expect(catalog.get('protect')!.changed).toBe('');
    expect([catalog.get('vaultpress')!.deactivate, catalog.get('vaultpress')!.free]).toEqual([false, false]);
    expect([catalog.get('videopress')!.deactivate, catalog.get('videopress')!.free]).toEqual([true, false]);
    expect(
      catalog
        .all()
        .filter((m) => !m.deactivate)
        .map((m) => m.slug),
    ).toEqual(['vaultpress']);
  });

  it('uses the verbatim search queries the reference quotes', () => {
    expect(catalog.get('protect')!.additional_search_queries).toBe('security, secure, protection, botnet, brute force, protect, login');
    expect(catalog.get('monitor')!.additional_search_queries).toBe('monitor, uptime, downtime, monitoring');
    expect(catalog.get('likes')!.additional_search_queries).toBe('like, likes, wordpress.com');
    expect(catalog.get('verification-tools')!.additional_search_queries).toBe('webmaster, seo, google, bing, pinterest, search, console');
    expect(catalog.get('vaultpress')!.additional_search_queries).toBe('vaultpress, backup, security');
  });

  it('has Jump Start descriptions exactly on the Jump Start modules', () => {
    const withDesc = catalog
      .all()
      .filter((m) => m.jumpstart_desc !== '')
      .map((m) => m.slug)
      .sort();
    expect(withDesc).toEqual(
      catalog
        .jumpstartModules()
        .map((m) => m.slug)
        .sort(),
    );
    expect(withDesc).toEqual([
      'carousel',
      'contact-form',
      'gravatar-hovercards',
      'manage',
      'photon',
      'related-posts',
      'sharedaddy',
      'sso',
      'subscriptions',
    ]);
  });

  it('computes the default set: "Yes" modules, plus "Public" ones on a public site', () => {
    const yes = [
      'after-the-deadline',
      'contact-form',
      'custom-content-types',
      'custom-css',
      'gravatar-hovercards',
      'latex',
      'notes',
      'omnisearch',
      'post-by-email',
      'protect',
      'publicize',
      'sharedaddy',
      'shortcodes',
      'shortlinks',
      'stats',
      'subscriptions',
      'vaultpress',
      'verification-tools',
      'widget-visibility',
      'widgets',
    ];
    expect(catalog.defaultSlugs(false).sort()).toEqual(yes);
    expect(catalog.defaultSlugs(true).sort()).toEqual([...yes, 'enhanced-distribution', 'json-api', 'sitemaps'].sort());
  });

  it('orders by sort, then slug', () => {
    const order = catalog.all().map((m) => m.slug);
    expect(order.slice(0, 5)).toEqual(['manage', 'protect', 'stats', 'custom-css', 'shortcodes']);
    for (let i = 1; i < catalog.all().length; i++) {
      const [a, b] = [catalog.all()[i - 1]!, catalog.all()[i]!];
      expect(a.sort < b.sort || (a.sort === b.sort && a.slug < b.slug)).toBe(true);
    }
  });

  it('moves connection-requiring modules after the others when not connected', () => {
    const order = catalog.ordered(false);
    const firstNeedy = order.findIndex((m) => m.requires_connection);
    expect(
      order
        .slice(firstNeedy)
        .filter((m) => !m.requires_connection)
        .map((m) => m.slug),
    ).toEqual([]);
    expect(order.slice(0, 3).map((m) => m.slug)).toEqual(['protect', 'custom-css', 'shortcodes']);
    expect(catalog.ordered(true).map((m) => m.slug)).toEqual(catalog.all().map((m) => m.slug));
  });

  it('lists each storage option once for reset', () => {
    const names = catalog.storageOptionNames();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'stats_options',
        'sharing-options',
        'sharing-services',
        'jetpack_relatedposts',
        'verification_services_codes',
        'jetpack_protect_key',
        'jetpack_protect_whitelist',
        'AtD_user_settings',
        'monitor_receive_notifications',
        'post_by_email_address',
        'carousel_background_color',
        'wp_mobile_excerpt',
      ]),
    );
    expect(names).not.toContain('active_modules');
  });
});

describe('registering a plugin module', () => {
  const minimal = { slug: 'my-feature', name: 'My Feature', description: 'Does a thing.', introduced: '1.0' };

  it('adds it with the header defaults of docs/spec/jetpack-v4-reference.md §5.1', () => {
    const own = new ModuleCatalog();
    const mod = own.register(minimal);
    expect(own.size).toBe(38);
    expect(mod).toMatchObject({
      jumpstart_desc: '',
      sort: 10,
      recommendation_order: 20,
      changed: '',
      deactivate: true,
      free: true,
      requires_connection: true,
      auto_activate: 'No',
      module_tags: ['Other'],
      feature: ['Other'],
      runtime: 'site',
      options: null,
    });
    expect(own.all().map((m) => m.slug)).toContain('my-feature');
  });

  it('refuses a duplicate slug with a clear error', () => {
    const own = new ModuleCatalog();
    expect(() => own.register({ ...minimal, slug: 'protect' })).toThrow(
      new ModuleDefinitionError('A module with the slug "protect" is already registered.'),
    );
  });

  it.each([
    [{ ...minimal, slug: 'My_Feature' }, /lower-case letters and dashes/],
    [{ ...minimal, name: '' }, /"name" must be a non-empty string/],
    [{ ...minimal, sort: 1.5 }, /"sort" must be an integer/],
    [{ ...minimal, auto_activate: 'Maybe' as 'Yes' }, /"auto_activate" must be "Yes", "No" or "Public"/],
    [{ ...minimal, options: { x: { description: 'X', type: 'date' as 'string', default: '' } } }, /option "x": "type" must be one of/],
    [
      { ...minimal, options: { x: { description: 'X', type: 'string' as const, default: '', storage: { option: 'active_modules' } } } },
      /storage option "active_modules" is already in use/,
    ],
    [
      { ...minimal, options: { stats_options: { description: 'X', type: 'string' as const, default: '' } } },
      /storage option "stats_options" is already in use/,
    ],
  ])('refuses an invalid definition (%#)', (def, message) => {
    expect(() => new ModuleCatalog().register(def)).toThrow(message);
  });
});
