import { afterEach, describe, expect, it } from 'vitest';
import { isRestError, type RestError } from '../../../rest/errors.js';
import { createPluginFixture, type PluginFixture } from '../testing/plugin-fixture.js';
import { dismissNotice } from './notices.js';
import { readSettings, updateSetting } from './settings.js';

let fx: PluginFixture;
afterEach(() => fx.close());

const wire = (result: unknown) => (isRestError(result) ? (result as RestError).toJSON() : result);

describe('notices', () => {
  it('dismissing answers the whole stored map', async () => {
    fx = await createPluginFixture();
    expect(await dismissNotice(fx.ctx, 'feedback_dash_request')).toEqual({ feedback_dash_request: true });
    expect(await dismissNotice(fx.ctx, 'welcome')).toEqual({ feedback_dash_request: true, welcome: true });
    expect(await dismissNotice(fx.ctx, 'welcome')).toEqual({ feedback_dash_request: true, welcome: true });
    expect(await fx.store.options.get('jetpack_dismissed_notices')).toEqual({ feedback_dash_request: true, welcome: true });
  });

  it.each(['WELCOME', 'other', 'feedback-dash-request', ''])('"%s" is 404 invalid_param', async (notice) => {
    fx = await createPluginFixture();
    expect(wire(await dismissNotice(fx.ctx, notice))).toEqual({
      code: 'invalid_param',
      message: 'Invalid parameter "notice".',
      data: { status: 404 },
    });
    expect(await fx.store.options.get('jetpack_dismissed_notices')).toBeUndefined();
  });

  it('a first dismissal is a tracked change: new_connection → jetpack_action_taken', async () => {
    fx = await createPluginFixture();
    await dismissNotice(fx.ctx, 'welcome');
    expect(await fx.store.options.get('jumpstart')).toBe('jetpack_action_taken');
  });
});

describe('settings', () => {
  it('reads holiday snow as false on a fresh site', async () => {
    fx = await createPluginFixture();
    expect(await readSettings(fx.ctx)).toEqual({ jetpack_holiday_snow_enabled: false });
  });

  it('turns snow on and off, answering the value as sent, and emits setting.updated', async () => {
    fx = await createPluginFixture();
    expect(await updateSetting(fx.ctx, { jetpack_holiday_snow_enabled: true })).toEqual({
      code: 'success',
      message: 'Setting updated.',
      value: true,
    });
    expect(await fx.store.options.get('jetpack_holiday_snow_enabled')).toBe('letitsnow');
    expect(await readSettings(fx.ctx)).toEqual({ jetpack_holiday_snow_enabled: true });
    expect(await updateSetting(fx.ctx, { jetpack_holiday_snow_enabled: '0' })).toEqual({
      code: 'success',
      message: 'Setting updated.',
      value: '0',
    });
    expect(await fx.store.options.get('jetpack_holiday_snow_enabled')).toBe('');
    expect(fx.emitted).toEqual([
      { event: 'setting.updated', payload: { name: 'jetpack_holiday_snow_enabled', value: true } },
      { event: 'setting.updated', payload: { name: 'jetpack_holiday_snow_enabled', value: false } },
    ]);
  });

  it('an unchanged value or an unknown first key is 400 setting_not_updated', async () => {
    fx = await createPluginFixture();
    await updateSetting(fx.ctx, { jetpack_holiday_snow_enabled: true });
    const notUpdated = { code: 'setting_not_updated', message: 'The setting was not updated.', data: { status: 400 } };
    expect(wire(await updateSetting(fx.ctx, { jetpack_holiday_snow_enabled: 1 }))).toEqual(notUpdated);
    expect(wire(await updateSetting(fx.ctx, { blogname: 'x', jetpack_holiday_snow_enabled: false }))).toEqual(notUpdated);
  });

  it.each([undefined, null, [], 'x', {}])('a missing body (%j) is 404 missing_setting', async (body) => {
    fx = await createPluginFixture();
    expect(wire(await updateSetting(fx.ctx, body))).toEqual({
      code: 'missing_setting',
      message: 'Missing setting.',
      data: { status: 404 },
    });
  });
});
