/**
 * POST /reset/:kind (docs/spec/jetpack-v4-reference.md §3.16 with the scope). `options` clears, in one
 * transaction, exactly: every catalog module's option storage, the active list (back to the
 * default set), the Jump Start state (back to `new_connection`), dismissed notices and the plugin
 * settings. Connection state, users, protect counters, downtime history and backups are never touched.
 */
import type { RestError } from '../../../rest/errors.js';
import type { PluginContext } from '../context.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { pluginError, successMessages } from '../../jetpack-v4/errors.js';
import { stateKeys } from '../state-keys.js';
import { defaultActiveSlugs, updateActiveSlugs } from './active-modules.js';
import { emitListChange } from './module-activation.js';
import { SETTING_OPTION_NAMES } from './settings.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, SITE_OBJECT, sourceFor } from './audit-trail.js';

export type ResetKind = 'options' | 'modules';

/** Every site option `reset/options` deletes (the active list and Jump Start state are rewritten instead). */
export function optionsClearedByReset(catalog: ModuleCatalog): string[] {
  return [...catalog.storageOptionNames(), stateKeys.jumpstartChanges, stateKeys.dismissedNotices, ...Object.values(SETTING_OPTION_NAMES)];
}

export async function reset(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  kind: string,
  request?: RestRequest,
): Promise<{ code: 'success'; message: string } | RestError> {
  if (kind !== 'options' && kind !== 'modules') return pluginError('invalid_reset_kind');
  const source = await sourceFor(ctx, request);
  const change = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      const defaults = await defaultActiveSlugs(tx.options, catalog);
      const list = await updateActiveSlugs(tx.options, catalog, () => [...defaults]);
      if (kind === 'options') {
        for (const name of optionsClearedByReset(catalog)) await tx.options.delete(name);
        await tx.options.set(stateKeys.jumpstart, 'new_connection');
      }
      return list;
    },
    (_list, changes) => (changed(changes) ? { action: `${kind}.reset`, object: SITE_OBJECT } : null),
  );
  await emitListChange(ctx, change.before, change.after);
  await ctx.events.emit('options.reset', { kind });
  return { code: 'success', message: kind === 'options' ? successMessages.optionsReset : successMessages.modulesReset };
}
