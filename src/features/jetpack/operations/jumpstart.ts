/**
 * Jump Start (docs/spec/jetpack-v4-reference.md §3.14, §3.15, §7 with docs/spec/compat.md §9): activate may run in any state and
 * records what it turned on and whether it set the sharing options, so that deactivating it
 * in `jumpstart_activated` can undo exactly that.
 */
import { isPlainObject } from '../../../core/objects.js';
import type { JsonObject, JsonValue } from '../../../core/json.js';
import type { OptionsRepo } from '../../../store/types.js';
import type { PluginContext } from '../context.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { getIn } from '../catalog/option-storage.js';
import {
  DEFAULT_SHARING_LABEL,
  DEFAULT_SHARING_SERVICES,
  SHARING_OPTIONS_OPTION,
  SHARING_SERVICES_OPTION,
  sharingOptions,
} from '../catalog/options/sharing-options.js';
import { successMessages } from '../../jetpack-v4/errors.js';
import { stateKeys } from '../state-keys.js';
import { updateActiveSlugs } from './active-modules.js';
import { asJumpstartState } from './jumpstart-state.js';
import { emitListChange } from './module-activation.js';
import { isAvailable, siteStatus } from './site-status.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, SITE_OBJECT, sourceFor } from './audit-trail.js';

/** What the last Jump Start changed (stored in `jumpstart_changes`). */
interface JumpstartChanges {
  modules: string[];
  sharing: boolean;
}

/** The sharing settings Jump Start applies to `sharing-options.global` (docs/spec/jetpack-v4-reference.md §3.14). */
const JUMPSTART_GLOBAL = { button_style: 'icon', sharing_label: DEFAULT_SHARING_LABEL, open_links: 'same', show: ['post'] };

function asObject(value: JsonValue | undefined): JsonObject {
  return isPlainObject(value) ? value : {};
}

function asChanges(value: JsonValue | undefined): JumpstartChanges {
  const obj = asObject(value);
  const modules = Array.isArray(obj.modules) ? obj.modules.filter((s): s is string => typeof s === 'string') : [];
  return { modules, sharing: obj.sharing === true };
}

/** Sets the Jump Start sharing configuration when no service is visible yet; true when it did. */
async function applySharing(options: OptionsRepo): Promise<boolean> {
  let applied = false;
  await options.update(SHARING_SERVICES_OPTION, (current) => {
    const visible = getIn(current, ['visible']);
    if (Array.isArray(visible) && visible.length > 0) return current;
    applied = true;
    return { visible: [...DEFAULT_SHARING_SERVICES.visible], hidden: [] };
  });
  if (applied) {
    await options.update(SHARING_OPTIONS_OPTION, (current) => {
      const root = asObject(current);
      const custom = getIn(root, ['global', 'custom']);
      return { ...root, global: { ...JUMPSTART_GLOBAL, show: ['post'], custom: Array.isArray(custom) ? custom : [] } };
    });
  }
  return applied;
}

/** Puts the sharing settings Jump Start set back to their defaults (custom services stay). */
async function undoSharing(options: OptionsRepo): Promise<void> {
  await options.delete(SHARING_SERVICES_OPTION);
  await options.update(SHARING_OPTIONS_OPTION, (current) => {
    if (current === undefined) return undefined;
    const root = asObject(current);
    const global = { ...asObject(root.global) };
    for (const key of Object.keys(JUMPSTART_GLOBAL)) delete global[key];
    return { ...root, global };
  });
}

async function emitSharing(ctx: PluginContext, set: boolean): Promise<void> {
  const values: Record<string, JsonValue> = set
    ? { sharing_services: DEFAULT_SHARING_SERVICES, button_style: 'icon', sharing_label: DEFAULT_SHARING_LABEL, show: ['post'] }
    : Object.fromEntries(['sharing_services', 'button_style', 'sharing_label', 'show'].map((key) => [key, sharingOptions[key]!.default]));
  for (const [option, value] of Object.entries(values)) {
    await ctx.events.emit('module.option_updated', { slug: 'sharedaddy', option, value });
  }
}

/** POST /jumpstart/activate. */
export async function activateJumpstart(ctx: PluginContext, catalog: ModuleCatalog, request?: RestRequest) {
  const status = await siteStatus(ctx);
  // The set is the available Jump Start modules (docs/spec/compat.md §9), so none can fail to activate.
  const set = catalog
    .jumpstartModules()
    .filter((mod) => isAvailable(mod, status))
    .map((mod) => mod.slug)
    .sort();
  const source = await sourceFor(ctx, request);
  const result = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      const state = asJumpstartState(await tx.options.get(stateKeys.jumpstart));
      const earlier =
        state === 'jumpstart_activated' ? asChanges(await tx.options.get(stateKeys.jumpstartChanges)) : { modules: [], sharing: false };
      const list = await updateActiveSlugs(tx.options, catalog, (current) => [
        ...current,
        ...set.filter((slug) => !current.includes(slug)),
      ]);
      const turnedOn = list.after.filter((slug) => !list.before.includes(slug));
      const sharing = await applySharing(tx.options);
      const changes: JumpstartChanges = { modules: [...new Set([...earlier.modules, ...turnedOn])], sharing: earlier.sharing || sharing };
      await tx.options.set(stateKeys.jumpstartChanges, { modules: changes.modules, sharing: changes.sharing });
      await tx.options.set(stateKeys.jumpstart, 'jumpstart_activated');
      return { ...list, sharing, wasNew: state === 'new_connection' };
    },
    (_result, changes) => (changed(changes) ? { action: 'jumpstart.activated', object: SITE_OBJECT } : null),
  );
  await emitListChange(ctx, result.before, result.after);
  if (result.sharing) await emitSharing(ctx, true);
  return {
    code: 'success' as const,
    message: successMessages.jumpstartDone,
    data: {
      activated_modules: set,
      failed_modules: [] as string[],
      ...(result.wasNew && { jumpstart_activated: true }),
      ...(result.sharing && { sharing_options: true, sharing_services: true }),
    },
  };
}

/** POST /jumpstart/deactivate: dismiss the offer, undo an activation, or nothing. */
export async function deactivateJumpstart(ctx: PluginContext, catalog: ModuleCatalog, request?: RestRequest) {
  const source = await sourceFor(ctx, request);
  const result = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      const state = asJumpstartState(await tx.options.get(stateKeys.jumpstart));
      if (state === 'new_connection') {
        await tx.options.set(stateKeys.jumpstart, 'jumpstart_dismissed');
        return { kind: 'dismissed' as const };
      }
      if (state !== 'jumpstart_activated') return { kind: 'nothing' as const };
      const changes = asChanges(await tx.options.get(stateKeys.jumpstartChanges));
      const list = await updateActiveSlugs(tx.options, catalog, (current) => current.filter((slug) => !changes.modules.includes(slug)));
      if (changes.sharing) await undoSharing(tx.options);
      await tx.options.delete(stateKeys.jumpstartChanges);
      await tx.options.set(stateKeys.jumpstart, 'jumpstart_dismissed');
      return { kind: 'undone' as const, ...list, sharing: changes.sharing };
    },
    (done, changes) =>
      !changed(changes)
        ? null
        : { action: done.kind === 'dismissed' ? 'jumpstart.dismissed' : 'jumpstart.deactivated', object: SITE_OBJECT },
  );
  if (result.kind === 'dismissed') return { code: 'success' as const, message: successMessages.jumpstartDismissed };
  if (result.kind === 'nothing') return { code: 'success' as const, message: successMessages.jumpstartNothingToDismiss };
  await emitListChange(ctx, result.before, result.after);
  if (result.sharing) await emitSharing(ctx, false);
  const deactivated = result.before.filter((slug) => !result.after.includes(slug));
  return { code: 'success' as const, message: successMessages.jumpstartDeactivated, data: { deactivated_modules: deactivated } };
}
