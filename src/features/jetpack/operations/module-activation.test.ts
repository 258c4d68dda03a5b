import { afterEach, describe, expect, it } from 'vitest';
import { isRestError, type RestError } from '../../../rest/errors.js';
import { createPluginFixture, type PluginFixture } from '../testing/plugin-fixture.js';
import { readActiveSlugs } from './active-modules.js';
import { readJumpstartState } from './jumpstart-state.js';
import { activateModule, activateModules, deactivateModule } from './module-activation.js';
import { registerServiceCheck, type ServiceGap } from './site-status.js';

let fx: PluginFixture;
afterEach(() => fx.close());

function wire(result: unknown) {
  return isRestError(result) ? (result as RestError).toJSON() : result;
}

const active = () => readActiveSlugs(fx.store.options, fx.catalog);

describe('toggling one module', () => {
  it('activates a module, stores the list and emits module.activated', async () => {
    fx = await createPluginFixture();
    expect(await activateModule(fx.ctx, fx.catalog, 'carousel')).toEqual({
      code: 'success',
      message: 'The requested Jetpack module was activated.',
    });
    expect(await active()).toContain('carousel');
    expect(await fx.store.options.get('active_modules')).toEqual(expect.arrayContaining(['carousel', 'protect']));
    expect(fx.emitted).toEqual([{ event: 'module.activated', payload: { slug: 'carousel' } }]);
  });

  it('counts activating an active module as success without an event', async () => {
    fx = await createPluginFixture();
    expect(await activateModule(fx.ctx, fx.catalog, 'protect')).toMatchObject({ code: 'success' });
    expect(fx.emitted).toEqual([]);
  });

  it('deactivates, then answers 409 already_inactive', async () => {
    fx = await createPluginFixture();
    expect(await deactivateModule(fx.ctx, fx.catalog, 'protect')).toEqual({
      code: 'success',
      message: 'The requested Jetpack module was deactivated.',
    });
    expect(await active()).not.toContain('protect');
    expect(fx.emitted).toEqual([{ event: 'module.deactivated', payload: { slug: 'protect' } }]);
    expect(wire(await deactivateModule(fx.ctx, fx.catalog, 'protect'))).toEqual({
      code: 'already_inactive',
      message: 'The requested Jetpack module was already inactive.',
      data: { status: 409 },
    });
  });

  it('answers 404 not_found for an unknown module either way', async () => {
    fx = await createPluginFixture();
    const notFound = { code: 'not_found', message: 'The requested Jetpack module was not found.', data: { status: 404 } };
    expect(wire(await activateModule(fx.ctx, fx.catalog, 'nope'))).toEqual(notFound);
    expect(wire(await deactivateModule(fx.ctx, fx.catalog, 'nope'))).toEqual(notFound);
  });

  it('refuses an unavailable module with 424 activation_failed saying why', async () => {
    fx = await createPluginFixture();
    expect(wire(await activateModule(fx.ctx, fx.catalog, 'likes'))).toEqual({
      code: 'activation_failed',
      message:
        'The requested Jetpack module could not be activated. It needs a connection to the central account service, and the site is not connected.',
      data: { status: 424 },
    });
    fx.site.connected = true;
    fx.site.devMode.constant = true;
    expect(wire(await activateModule(fx.ctx, fx.catalog, 'likes'))).toMatchObject({
      code: 'activation_failed',
      message:
        'The requested Jetpack module could not be activated. It needs a connection to the central account service, and the site is in development (offline) mode.',
    });
    expect(await active()).not.toContain('likes');
    fx.site.devMode.constant = false;
    expect(await activateModule(fx.ctx, fx.catalog, 'likes')).toMatchObject({ code: 'success' });
  });

  it('refuses a module whose service is not set up with 424 activation_failed naming what to set', async () => {
    fx = await createPluginFixture();
    let gap: ServiceGap | null = {
      message: 'It needs the address visitors use: set SITEWARD_MONITOR_URL.',
      settings: ['SITEWARD_MONITOR_URL'],
    };
    registerServiceCheck(fx.ctx, 'monitor', () => gap);
    expect(wire(await activateModule(fx.ctx, fx.catalog, 'monitor'))).toEqual({
      code: 'activation_failed',
      message: 'The requested Jetpack module could not be activated. It needs the address visitors use: set SITEWARD_MONITOR_URL.',
      data: { status: 424 },
    });
    expect(wire(await activateModules(fx.ctx, fx.catalog, ['monitor', 'carousel']))).toMatchObject({
      code: 'activation_failed',
      message: 'The module monitor failed to be activated. It needs the address visitors use: set SITEWARD_MONITOR_URL. ',
    });
    expect(await active()).not.toContain('monitor');
    gap = null;
    expect(await activateModule(fx.ctx, fx.catalog, 'monitor')).toMatchObject({ code: 'success' });
  });

  it('refuses photon on a site that is not public with 424 rest_cannot_publish', async () => {
    fx = await createPluginFixture({ connected: true });
    await fx.store.options.set('public', false);
    expect(wire(await activateModule(fx.ctx, fx.catalog, 'photon'))).toEqual({
      code: 'rest_cannot_publish',
      message: 'This module requires your site to be set to publicly accessible.',
      data: { status: 424 },
    });
  });

  it('moves Jump Start from new_connection to jetpack_action_taken', async () => {
    fx = await createPluginFixture();
    expect(await readJumpstartState(fx.store.options)).toBe('new_connection');
    await activateModule(fx.ctx, fx.catalog, 'carousel');
    expect(await fx.store.options.get('jumpstart')).toBe('jetpack_action_taken');
  });

  it('leaves other Jump Start states alone', async () => {
    fx = await createPluginFixture();
    await fx.store.options.set('jumpstart', 'jumpstart_dismissed');
    await deactivateModule(fx.ctx, fx.catalog, 'protect');
    expect(await fx.store.options.get('jumpstart')).toBe('jumpstart_dismissed');
  });

  it('never loses a toggle when many run at once', async () => {
    fx = await createPluginFixture();
    const slugs = ['carousel', 'markdown', 'minileven', 'infinite-scroll', 'tiled-gallery', 'site-icon'];
    await Promise.all([
      ...slugs.map((slug) => activateModule(fx.ctx, fx.catalog, slug)),
      deactivateModule(fx.ctx, fx.catalog, 'latex'),
      deactivateModule(fx.ctx, fx.catalog, 'widgets'),
    ]);
    const list = await active();
    expect(list).toEqual(expect.arrayContaining(slugs));
    expect(list).not.toContain('latex');
    expect(list).not.toContain('widgets');
  });
});

describe('activating several modules', () => {
  it('activates all and answers "All modules activated."', async () => {
    fx = await createPluginFixture();
    expect(await activateModules(fx.ctx, fx.catalog, ['carousel', 'markdown', 'protect'])).toEqual({
      code: 'success',
      message: 'All modules activated.',
    });
    expect(await active()).toEqual(expect.arrayContaining(['carousel', 'markdown']));
    expect(fx.emitted.map((e) => e.payload)).toEqual([{ slug: 'carousel' }, { slug: 'markdown' }]);
  });

  it('keeps the successful ones and names only the failed ones in a 424', async () => {
    fx = await createPluginFixture();
    expect(wire(await activateModules(fx.ctx, fx.catalog, ['carousel', 'likes']))).toEqual({
      code: 'activation_failed',
      message:
        'The module likes failed to be activated. It needs a connection to the central account service, and the site is not connected. ',
      data: { status: 424 },
    });
    expect(wire(await activateModules(fx.ctx, fx.catalog, ['likes', 'sso', 'photon']))).toMatchObject({
      message:
        'The modules likes, sso and photon failed to be activated. They need a connection to the central account service, and the site is not connected. ',
    });
    expect(await active()).toContain('carousel');
  });
});
