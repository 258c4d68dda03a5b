import { afterEach, describe, expect, it } from 'vitest';
import { isRestError, type RestError } from '../../../rest/errors.js';
import { createPluginFixture, principal, type PluginFixture } from '../testing/plugin-fixture.js';
import { activateModule } from './module-activation.js';
import { getModule } from './module-records.js';
import { updateModuleOptions } from './module-options.js';

let fx: PluginFixture;
afterEach(() => fx.close());

const admin = principal('administrator', 1);
const update = (slug: string, body: unknown, user = admin) => updateModuleOptions(fx.ctx, fx.catalog, slug, body, user);
const wire = (result: unknown) => (isRestError(result) ? (result as RestError).toJSON() : result);
const current = async (slug: string, key: string, user = admin) =>
  ((await getModule(fx.ctx, fx.catalog, slug, user)) as { options: Record<string, { current_value: unknown }> }).options[key]!
    .current_value;

const success = { code: 'success', message: 'The requested Jetpack module was updated.' };

describe('updating module options: the checks in order', () => {
  it('is 404 not_found, then 409 inactive, then 404 missing_options', async () => {
    fx = await createPluginFixture();
    expect(wire(await update('nope', { a: 1 }))).toEqual({
      code: 'not_found',
      message: 'The requested Jetpack module was not found.',
      data: { status: 404 },
    });
    expect(wire(await update('carousel', { carousel_display_exif: true }))).toEqual({
      code: 'inactive',
      message: 'The requested Jetpack module is inactive.',
      data: { status: 409 },
    });
    for (const body of [undefined, null, 'text', [1], {}]) {
      expect(wire(await update('stats', body))).toEqual({ code: 'missing_options', message: 'Missing options.', data: { status: 404 } });
    }
  });
});

describe('updating module options: validation', () => {
  it('saves nothing when any known key is invalid and lists every bad key', async () => {
    fx = await createPluginFixture();
    const result = await update('stats', { admin_bar: false, roles: ['owner'], version: 0, hide_smile: 'maybe' });
    expect(wire(result)).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): roles, version, hide_smile',
      data: {
        status: 400,
        params: {
          roles: 'roles must be administrator, editor, author, contributor, subscriber.',
          version: 'version must be a positive integer.',
          hide_smile: 'hide_smile must be true, false, 0 or 1.',
        },
      },
    });
    expect(await fx.store.options.get('stats_options')).toBeUndefined();
    expect(fx.emitted).toEqual([]);
  });

  it('saves the valid keys and reports unknown ones as some_updated', async () => {
    fx = await createPluginFixture();
    expect(wire(await update('stats', { admin_bar: '0', bogus: 1 }))).toEqual({
      code: 'some_updated',
      message: 'Invalid option for this module: bogus.',
      data: { status: 400 },
    });
    expect(await current('stats', 'admin_bar')).toBe(false);
    expect(wire(await update('stats', { a: 1, '<b>': 2 }))).toMatchObject({ message: 'Invalid options for this module: a, &lt;b&gt;.' });
  });

  it('reports a write that could not be done with its extra info', async () => {
    fx = await createPluginFixture();
    expect(wire(await update('sharedaddy', { sharing_delete_service: 'custom-1', x: 1 }))).toEqual({
      code: 'some_updated',
      message:
        'Invalid option for this module: x. Option not updated: sharing_delete_service. Extra info for sharing_delete_service: The sharing service does not exist',
      data: { status: 400 },
    });
  });
});

describe('updating module options: storage', () => {
  it('updates several keys of one stored object at once and emits one event per changed key', async () => {
    fx = await createPluginFixture();
    expect(await update('stats', { admin_bar: false, roles: [], count_roles: ['editor'], version: '10' })).toEqual(success);
    expect(await fx.store.options.get('stats_options')).toEqual({
      admin_bar: false,
      roles: ['administrator'],
      count_roles: ['editor'],
      version: 10,
    });
    expect(fx.emitted.map((e) => e.payload)).toEqual([
      { slug: 'stats', option: 'admin_bar', value: false },
      { slug: 'stats', option: 'roles', value: ['administrator'] },
      { slug: 'stats', option: 'count_roles', value: ['editor'] },
      { slug: 'stats', option: 'version', value: 10 },
    ]);
    fx.emitted.length = 0;
    expect(await update('stats', { admin_bar: 0 })).toEqual(success);
    expect(fx.emitted).toEqual([]);
  });

  it('stores minileven toggles as "1"/"0" and the twitter tag without "@"', async () => {
    fx = await createPluginFixture();
    await activateModule(fx.ctx, fx.catalog, 'minileven');
    await update('minileven', { wp_mobile_excerpt: 'enabled', wp_mobile_featured_images: 'disabled' });
    expect(await fx.store.options.get('wp_mobile_excerpt')).toBe('1');
    expect(await fx.store.options.get('wp_mobile_featured_images')).toBe('0');
    expect(await current('minileven', 'wp_mobile_excerpt')).toBe('enabled');
    await update('sharedaddy', { 'jetpack-twitter-cards-site-tag': '@siteward' });
    expect(await fx.store.options.get('jetpack-twitter-cards-site-tag')).toBe('siteward');
  });

  it('creates a local 40-character protect key on "create" and answers it', async () => {
    fx = await createPluginFixture();
    const result = (await update('protect', { jetpack_protect_key: 'create' })) as Record<string, unknown>;
    expect(result).toEqual({ ...success, jetpack_protect_key: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(await current('protect', 'jetpack_protect_key')).toBe(result.jetpack_protect_key);
    expect(await update('protect', { jetpack_protect_key: 'abc123' })).toEqual(success);
    expect(await current('protect', 'jetpack_protect_key')).toBe('abc123');
  });

  it('stores the protect whitelist as normalized entries and reads it back as {local}', async () => {
    fx = await createPluginFixture();
    await update('protect', { jetpack_protect_global_whitelist: '192.168.1.1, 10.0.0.1-10.0.0.255\n2001:db8::1' });
    expect(await fx.store.options.get('jetpack_protect_whitelist')).toEqual(['192.168.1.1', '10.0.0.1 - 10.0.0.255', '2001:db8::1']);
    expect(await current('protect', 'jetpack_protect_global_whitelist')).toEqual({
      local: ['192.168.1.1', '10.0.0.1 - 10.0.0.255', '2001:db8::1'],
    });
  });

  it('refuses every post-by-email action with 400 feature_not_available and stores nothing', async () => {
    fx = await createPluginFixture();
    for (const action of ['create', 'regenerate', 'delete']) {
      const refused = await update('post-by-email', { post_by_email_address: action });
      expect(refused).toMatchObject({
        code: 'feature_not_available',
        message: 'Post by Email is not available on this site: Siteward has no equivalent of it.',
        data: { status: 400 },
      });
    }
    expect(await fx.store.options.get('post_by_email_address')).toBeUndefined();
    expect(await current('post-by-email', 'post_by_email_address')).toBe('');
  });

  it('adds and deletes custom sharing services', async () => {
    fx = await createPluginFixture();
    const added = (await update('sharedaddy', {
      custom: { sharing_name: 'Mastodon', sharing_url: 'https://m.example/share?u=%post_url%', sharing_icon: 'https://m.example/i.png' },
    })) as {
      custom: { id: string };
    };
    expect(added.custom).toEqual({
      id: expect.stringMatching(/^custom-\d+$/),
      name: 'Mastodon',
      url: 'https://m.example/share?u=%post_url%',
      icon: 'https://m.example/i.png',
    });
    const id = added.custom.id;
    expect(await update('sharedaddy', { sharing_services: { visible: ['twitter', id], hidden: [] } })).toEqual(success);
    expect(await update('sharedaddy', { sharing_delete_service: id })).toEqual(success);
    expect(await current('sharedaddy', 'sharing_services')).toEqual({ visible: ['twitter'], hidden: [] });
    expect(await fx.store.options.get('sharing-options')).toEqual({ global: { custom: [] } });
  });

  it('keeps Spelling and Grammar settings per user', async () => {
    fx = await createPluginFixture();
    const other = principal('administrator', 7);
    await update('after-the-deadline', { guess_lang: true, ignored_phrases: 'foo, bar,foo' });
    await update('after-the-deadline', { 'Passive voice': 1 }, other);
    expect(await current('after-the-deadline', 'guess_lang')).toBe(true);
    expect(await current('after-the-deadline', 'guess_lang', other)).toBe(false);
    expect(await current('after-the-deadline', 'Passive voice', other)).toBe(true);
    expect(await current('after-the-deadline', 'ignored_phrases')).toBe('foo,bar');
    await update('after-the-deadline', { unignore_phrase: 'foo' });
    expect(await current('after-the-deadline', 'ignored_phrases')).toBe('bar');
    expect(await current('after-the-deadline', 'unignore_phrase')).toBe('');
  });
});

describe('updating module options: Jump Start and concurrency', () => {
  it('moves new_connection to jetpack_action_taken on a tracked option only', async () => {
    fx = await createPluginFixture();
    await update('protect', { jetpack_protect_key: 'abc' });
    expect(await fx.store.options.get('jumpstart')).toBeUndefined();
    await update('stats', { admin_bar: false });
    expect(await fx.store.options.get('jumpstart')).toBe('jetpack_action_taken');
  });

  it('never loses one of many parallel updates of fields of the same stored object', async () => {
    fx = await createPluginFixture();
    await Promise.all([
      update('stats', { admin_bar: false }),
      update('stats', { blog_id: true }),
      update('stats', { do_not_track: false }),
      update('stats', { hide_smile: false }),
      update('stats', { version: 12 }),
      update('sharedaddy', { button_style: 'text' }),
      update('sharedaddy', { sharing_label: 'Share' }),
      update('sharedaddy', { show: ['post', 'page'] }),
    ]);
    expect(await fx.store.options.get('stats_options')).toEqual({
      admin_bar: false,
      blog_id: true,
      do_not_track: false,
      hide_smile: false,
      version: 12,
    });
    expect(await fx.store.options.get('sharing-options')).toEqual({
      global: { button_style: 'text', sharing_label: 'Share', show: ['post', 'page'] },
    });
  });
});
