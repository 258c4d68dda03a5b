import { afterEach, describe, expect, it } from 'vitest';
import { createPluginFixture, type PluginFixture } from '../testing/plugin-fixture.js';
import { readActiveSlugs } from './active-modules.js';
import { activateJumpstart, deactivateJumpstart } from './jumpstart.js';
import { readJumpstartState } from './jumpstart-state.js';
import { activateModule } from './module-activation.js';

let fx: PluginFixture;
afterEach(() => fx.close());

const state = () => readJumpstartState(fx.store.options);
const active = () => readActiveSlugs(fx.store.options, fx.catalog);

const ALL_JUMPSTART = [
  'carousel',
  'contact-form',
  'gravatar-hovercards',
  'manage',
  'photon',
  'related-posts',
  'sharedaddy',
  'sso',
  'subscriptions',
];

describe('Jump Start (docs/spec/compat.md §9)', () => {
  it('starts in new_connection on a fresh site', async () => {
    fx = await createPluginFixture();
    expect(await state()).toBe('new_connection');
  });

  it('activate on a connected new site: the reference body, modules and sharing set', async () => {
    fx = await createPluginFixture({ connected: true });
    expect(await activateJumpstart(fx.ctx, fx.catalog)).toEqual({
      code: 'success',
      message: 'Jumpstart done.',
      data: {
        activated_modules: ALL_JUMPSTART,
        failed_modules: [],
        jumpstart_activated: true,
        sharing_options: true,
        sharing_services: true,
      },
    });
    expect(await state()).toBe('jumpstart_activated');
    expect(await active()).toEqual(expect.arrayContaining(ALL_JUMPSTART));
    expect(await fx.store.options.get('sharing-services')).toEqual({ visible: ['twitter', 'facebook'], hidden: [] });
    expect(await fx.store.options.get('sharing-options')).toEqual({
      global: { button_style: 'icon', sharing_label: 'Share this:', open_links: 'same', show: ['post'], custom: [] },
    });
  });

  it('activate uses only the available Jump Start modules when not connected', async () => {
    fx = await createPluginFixture();
    const result = await activateJumpstart(fx.ctx, fx.catalog);
    expect(result.data.activated_modules).toEqual(['carousel', 'contact-form', 'gravatar-hovercards', 'sharedaddy']);
    expect(result.data.failed_modules).toEqual([]);
  });

  it('activate in another state works, without jumpstart_activated, and leaves set sharing alone', async () => {
    fx = await createPluginFixture();
    await fx.store.options.set('jumpstart', 'jumpstart_dismissed');
    await fx.store.options.set('sharing-services', { visible: ['email'], hidden: [] });
    expect((await activateJumpstart(fx.ctx, fx.catalog)).data).toEqual({
      activated_modules: ['carousel', 'contact-form', 'gravatar-hovercards', 'sharedaddy'],
      failed_modules: [],
    });
    expect(await state()).toBe('jumpstart_activated');
    expect(await fx.store.options.get('sharing-services')).toEqual({ visible: ['email'], hidden: [] });
  });

  it('deactivate in new_connection dismisses', async () => {
    fx = await createPluginFixture();
    expect(await deactivateJumpstart(fx.ctx, fx.catalog)).toEqual({ code: 'success', message: 'Jumpstart dismissed.' });
    expect(await state()).toBe('jumpstart_dismissed');
  });

  it('deactivate after activate undoes exactly what activate did', async () => {
    fx = await createPluginFixture();
    const before = await active();
    await activateJumpstart(fx.ctx, fx.catalog);
    fx.emitted.length = 0;
    expect(await deactivateJumpstart(fx.ctx, fx.catalog)).toEqual({
      code: 'success',
      message: 'Jumpstart deactivated.',
      data: { deactivated_modules: ['carousel'] },
    });
    expect((await active()).sort()).toEqual([...before].sort());
    expect(await fx.store.options.get('sharing-services')).toBeUndefined();
    expect(await fx.store.options.get('sharing-options')).toEqual({ global: { custom: [] } });
    expect(await state()).toBe('jumpstart_dismissed');
    expect(fx.emitted[0]).toEqual({ event: 'module.deactivated', payload: { slug: 'carousel' } });
  });

  it('undo leaves modules the administrator turned off meanwhile out of the answer', async () => {
    fx = await createPluginFixture({ connected: true });
    await activateJumpstart(fx.ctx, fx.catalog);
    await fx.store.transaction(async (tx) => {
      await tx.options.update('active_modules', (list) => (list as string[]).filter((s) => s !== 'photon'));
    });
    const result = await deactivateJumpstart(fx.ctx, fx.catalog);
    expect(result).toMatchObject({ data: { deactivated_modules: ['carousel', 'manage', 'related-posts', 'sso'] } });
  });

  it.each(['jumpstart_dismissed', 'jetpack_action_taken'])('deactivate in %s has nothing to dismiss', async (value) => {
    fx = await createPluginFixture();
    await fx.store.options.set('jumpstart', value);
    expect(await deactivateJumpstart(fx.ctx, fx.catalog)).toEqual({
      code: 'success',
      message: 'Nothing to dismiss. This was not a new connection.',
    });
    expect(await state()).toBe(value);
  });

  it('a single toggle in new_connection closes the offer: jetpack_action_taken', async () => {
    fx = await createPluginFixture();
    await activateModule(fx.ctx, fx.catalog, 'markdown');
    expect(await state()).toBe('jetpack_action_taken');
    expect(await deactivateJumpstart(fx.ctx, fx.catalog)).toMatchObject({ message: 'Nothing to dismiss. This was not a new connection.' });
  });

  it('a toggle after activate keeps jumpstart_activated', async () => {
    fx = await createPluginFixture();
    await activateJumpstart(fx.ctx, fx.catalog);
    await activateModule(fx.ctx, fx.catalog, 'markdown');
    expect(await state()).toBe('jumpstart_activated');
  });
});
