/** Plugin settings not tied to a module (docs/spec/jetpack-v4-reference.md §3.12, §3.13): only holiday snow in this era. */
import type { RestError } from '../../../rest/errors.js';
import type { JsonValue } from '../../../core/json.js';
import type { OptionsRepo } from '../../../store/types.js';
import type { PluginContext } from '../context.js';
import { phpTruthy } from '../../../core/php.js';
import { pluginError, successMessages } from '../../jetpack-v4/errors.js';
import { stateKeys } from '../state-keys.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, SITE_OBJECT, sourceFor } from './audit-trail.js';

/** Setting name → the site option holding it (Initial_State `settingNames`). */
export const SETTING_OPTION_NAMES = { jetpack_holiday_snow_enabled: stateKeys.holidaySnow } as const;

const SNOWING = 'letitsnow';

/** GET /settings. */
export async function readSettings(ctx: PluginContext): Promise<{ jetpack_holiday_snow_enabled: boolean }> {
  return { jetpack_holiday_snow_enabled: (await ctx.store.options.get(stateKeys.holidaySnow)) === SNOWING };
}

/** Stores the holiday snow setting with `options` (a transaction's, or the store's); true when the stored value changed. */
export async function storeHolidaySnow(options: OptionsRepo, on: boolean): Promise<boolean> {
  const stored = on ? SNOWING : '';
  let changed = false;
  await options.update(stateKeys.holidaySnow, (current) => {
    changed = current !== stored;
    return stored;
  });
  return changed;
}

/**
 * POST /settings/update: only the body's first key counts. An unknown key or an unchanged value
 * is `setting_not_updated`, as WordPress's `update_option` reported no change.
 */
export async function updateSetting(
  ctx: PluginContext,
  body: unknown,
  request?: RestRequest,
): Promise<Record<string, JsonValue> | RestError> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return pluginError('missing_setting');
  const entries = Object.entries(body as Record<string, JsonValue>);
  if (entries.length === 0) return pluginError('missing_setting');
  const [name, sent] = entries[0]!;
  if (name !== 'jetpack_holiday_snow_enabled') return pluginError('setting_not_updated');

  const on = phpTruthy(sent);
  const source = await sourceFor(ctx, request);
  const changed = await auditedTransaction(
    ctx,
    source,
    (tx) => storeHolidaySnow(tx.options, on),
    (done) => (done ? { action: 'settings.updated', object: SITE_OBJECT } : null),
  );
  if (!changed) return pluginError('setting_not_updated');
  await ctx.events.emit('setting.updated', { name, value: on });
  return { code: 'success', message: successMessages.settingUpdated, value: sent };
}
