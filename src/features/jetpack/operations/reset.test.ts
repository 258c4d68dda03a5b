import { afterEach, describe, expect, it } from 'vitest';
import { isRestError, type RestError } from '../../../rest/errors.js';
import type { JsonValue } from '../../../core/json.js';
import type { OptionsRepo } from '../../../store/types.js';
import type { PluginContext } from '../context.js';
import { createPluginFixture, principal, type PluginFixture } from '../testing/plugin-fixture.js';
import { readActiveSlugs } from './active-modules.js';
import { activateModule, deactivateModule } from './module-activation.js';
import { updateModuleOptions } from './module-options.js';
import { dismissNotice } from './notices.js';
import { optionsClearedByReset, reset } from './reset.js';
import { updateSetting } from './settings.js';
import { activateJumpstart } from './jumpstart.js';

let fx: PluginFixture;
afterEach(() => fx.close());

/** State that is not the plugin's to reset (connection, protect counters, downtime, backups, the site itself). */
const UNRELATED: Record<string, JsonValue> = {
  blogname: 'My site',
  public: true,
  jetpack_connection: { clientId: 'abc', masterUser: 1 },
  jetpack_protect_blocked_attempts: '1234',
  monitor_downtime_log: [{ start: 1, end: 2 }],
  backups_last: { at: 1470000000, status: 'ok' },
};

async function dirtyEverything(): Promise<void> {
  const admin = principal('administrator', 1);
  for (const [key, value] of Object.entries(UNRELATED)) await fx.store.options.set(key, value);
  await activateJumpstart(fx.ctx, fx.catalog);
  await activateModule(fx.ctx, fx.catalog, 'markdown');
  await deactivateModule(fx.ctx, fx.catalog, 'protect');
  await activateModule(fx.ctx, fx.catalog, 'protect');
  await updateModuleOptions(
    fx.ctx,
    fx.catalog,
    'protect',
    { jetpack_protect_key: 'create', jetpack_protect_global_whitelist: '1.2.3.4' },
    admin,
  );
  await updateModuleOptions(fx.ctx, fx.catalog, 'stats', { admin_bar: false }, admin);
  await updateModuleOptions(fx.ctx, fx.catalog, 'verification-tools', { google: 'abc' }, admin);
  await updateModuleOptions(fx.ctx, fx.catalog, 'after-the-deadline', { guess_lang: true }, admin);
  await updateModuleOptions(fx.ctx, fx.catalog, 'post-by-email', { post_by_email_address: 'create' }, admin);
  await activateModule(fx.ctx, fx.catalog, 'monitor');
  await updateModuleOptions(fx.ctx, fx.catalog, 'monitor', { monitor_receive_notifications: true }, admin);
  await dismissNotice(fx.ctx, 'welcome');
  await updateSetting(fx.ctx, { jetpack_holiday_snow_enabled: true });
}

describe('reset', () => {
  it('options: clears every module option and the plugin state in one go, and nothing else', async () => {
    fx = await createPluginFixture();
    const defaults = fx.catalog.defaultSlugs(true);
    await dirtyEverything();
    fx.emitted.length = 0;
    expect(await reset(fx.ctx, fx.catalog, 'options')).toEqual({ code: 'success', message: 'Jetpack options reset.' });

    for (const name of optionsClearedByReset(fx.catalog)) expect(await fx.store.options.get(name), name).toBeUndefined();
    expect((await readActiveSlugs(fx.store.options, fx.catalog)).sort()).toEqual([...defaults].sort());
    expect(await fx.store.options.get('jumpstart')).toBe('new_connection');
    for (const [key, value] of Object.entries(UNRELATED)) expect(await fx.store.options.get(key), key).toEqual(value);
    expect(fx.emitted.at(-1)).toEqual({ event: 'options.reset', payload: { kind: 'options' } });
    expect(fx.emitted).toContainEqual({ event: 'module.deactivated', payload: { slug: 'monitor' } });
  });

  it('options: clears exactly the catalog storage, the notices, the settings and the Jump Start record', async () => {
    fx = await createPluginFixture();
    expect(optionsClearedByReset(fx.catalog).sort()).toEqual(
      [...fx.catalog.storageOptionNames(), 'jetpack_dismissed_notices', 'jetpack_holiday_snow_enabled', 'jumpstart_changes'].sort(),
    );
    fx.catalog.register({
      slug: 'my-feature',
      name: 'Mine',
      description: 'Mine.',
      introduced: '1.0',
      options: { my_feature_color: { description: 'Color', type: 'string', default: 'red' } },
    });
    expect(optionsClearedByReset(fx.catalog)).toContain('my_feature_color');
  });

  it('options: is one transaction, so a failure part-way leaves everything as it was', async () => {
    fx = await createPluginFixture();
    await dirtyEverything();
    const before = await fx.store.options.getMany([...optionsClearedByReset(fx.catalog), 'active_modules', 'jumpstart']);
    // A store whose `set` fails: reset has already rewritten the list and deleted options by then.
    const failingSet = (options: OptionsRepo): OptionsRepo => ({
      get: (key) => options.get(key),
      getMany: (keys) => options.getMany(keys),
      set: async () => {
        throw new Error('disk full');
      },
      delete: (key) => options.delete(key),
      update: (key, fn) => options.update(key, fn),
      version: () => options.version(),
    });
    const broken: PluginContext = {
      ...fx.ctx,
      store: {
        options: fx.store.options,
        transaction: (fn) => fx.store.transaction((tx) => fn({ options: failingSet(tx.options), audit: tx.audit })),
      },
    };
    await expect(reset(broken, fx.catalog, 'options')).rejects.toThrow('disk full');
    expect(await fx.store.options.getMany([...before.keys()])).toEqual(before);
  });

  it('modules: restores the default active set only', async () => {
    fx = await createPluginFixture();
    await dirtyEverything();
    expect(await reset(fx.ctx, fx.catalog, 'modules')).toEqual({ code: 'success', message: 'Modules reset to default.' });
    expect((await readActiveSlugs(fx.store.options, fx.catalog)).sort()).toEqual(fx.catalog.defaultSlugs(true).sort());
    expect(await fx.store.options.get('jetpack_protect_whitelist')).toEqual(['1.2.3.4']);
    expect(await fx.store.options.get('jumpstart')).toBe('jumpstart_activated');
  });

  it('modules: leaves out "Public" modules on a private site', async () => {
    fx = await createPluginFixture();
    await fx.store.options.set('public', false);
    await reset(fx.ctx, fx.catalog, 'modules');
    expect(await readActiveSlugs(fx.store.options, fx.catalog)).not.toContain('sitemaps');
  });

  it('any other kind is 404 invalid_param "Invalid Parameter"', async () => {
    fx = await createPluginFixture();
    const error = (await reset(fx.ctx, fx.catalog, 'everything')) as RestError;
    expect(isRestError(error) && error.toJSON()).toEqual({ code: 'invalid_param', message: 'Invalid Parameter', data: { status: 404 } });
  });
});
