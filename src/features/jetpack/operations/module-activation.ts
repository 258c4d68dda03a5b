/**
 * Turning modules on and off (docs/spec/jetpack-v4-reference.md §3.9, §3.10; docs/spec/compat.md §9). Each change is one store
 * transaction around atomic updates, so parallel toggles never lose one another's change;
 * events go out after the commit.
 */
import type { RestError } from '../../../rest/errors.js';
import { activationFailed, bulkActivationFailed, type ActivationRefusal } from '../errors.js';
import { pluginError, successMessages } from '../../jetpack-v4/errors.js';
import type { PluginContext } from '../context.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { diffSlugs, isSitePublic, updateActiveSlugs } from './active-modules.js';
import { markActionTaken } from './jumpstart-state.js';
import { refusalOf, siteStatus } from './site-status.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, moduleObject, sourceFor } from './audit-trail.js';

/** Modules that only make sense on a public site (docs/spec/jetpack-v4-reference.md §3.9: `rest_cannot_publish`). */
const NEED_PUBLIC_SITE = new Set(['photon', 'enhanced-distribution', 'json-api']);

export interface SuccessBody {
  code: 'success';
  message: string;
}

/** Emits activated/deactivated events for a change of the list. */
export async function emitListChange(ctx: PluginContext, before: readonly string[], after: readonly string[]): Promise<void> {
  const { added, removed } = diffSlugs(before, after);
  for (const slug of added) await ctx.events.emit('module.activated', { slug });
  for (const slug of removed) await ctx.events.emit('module.deactivated', { slug });
}

/** Why `slug` cannot be activated now (not found, non-public site, unavailable), or null. */
export async function activationProblem(ctx: PluginContext, catalog: ModuleCatalog, slug: string): Promise<RestError | null> {
  const mod = catalog.get(slug);
  if (!mod) return pluginError('module_not_found');
  if (NEED_PUBLIC_SITE.has(slug) && !(await isSitePublic(ctx.store.options))) return pluginError('module_cannot_publish');
  const refusal = refusalOf(mod, await siteStatus(ctx));
  return refusal ? activationFailed(refusal) : null;
}

/** POST /module/:slug/active with `active` true. Already active counts as success. */
export async function activateModule(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slug: string,
  request?: RestRequest,
): Promise<SuccessBody | RestError> {
  const problem = await activationProblem(ctx, catalog, slug);
  if (problem) return problem;
  const source = await sourceFor(ctx, request);
  const { before, after } = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      const change = await updateActiveSlugs(tx.options, catalog, (list) => (list.includes(slug) ? [...list] : [...list, slug]));
      // Only a real change counts as the administrator acting (as Jetpack returned early for an active module).
      if (!change.before.includes(slug)) await markActionTaken(tx.options);
      return change;
    },
    (change, changes) =>
      change.before.includes(slug) || !changed(changes) ? null : { action: 'module.activated', object: moduleObject(catalog, slug) },
  );
  await emitListChange(ctx, before, after);
  return { code: 'success', message: successMessages.moduleActivated };
}

/** POST /module/:slug/active with `active` false: 409 when the module is not in the active list. */
export async function deactivateModule(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slug: string,
  request?: RestRequest,
): Promise<SuccessBody | RestError> {
  if (!catalog.has(slug)) return pluginError('module_not_found');
  const source = await sourceFor(ctx, request);
  const result = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      let wasActive = false;
      const change = await updateActiveSlugs(tx.options, catalog, (list) => {
        wasActive = list.includes(slug);
        return list.filter((other) => other !== slug);
      });
      // Only a real change counts as the administrator acting.
      if (wasActive) await markActionTaken(tx.options);
      // Field by field, not `{ ...change, wasActive }`: perf showed the spread making V8 build a new hidden class on every toggle.
      return { before: change.before, after: change.after, wasActive };
    },
    (done, changes) => (done.wasActive && changed(changes) ? { action: 'module.deactivated', object: moduleObject(catalog, slug) } : null),
  );
  if (!result.wasActive) return pluginError('module_already_inactive');
  await emitListChange(ctx, result.before, result.after);
  return { code: 'success', message: successMessages.moduleDeactivated };
}

/**
 * POST /module/activate: activates every listed module that can be; the others are named in one
 * 424 `activation_failed`. Successful activations are kept either way (docs/spec/jetpack-v4-reference.md §3.10).
 */
export async function activateModules(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slugs: readonly string[],
  request?: RestRequest,
): Promise<SuccessBody | RestError> {
  const ok: string[] = [];
  const failed: string[] = [];
  const status = await siteStatus(ctx);
  let reason: ActivationRefusal | undefined;
  for (const slug of new Set(slugs)) {
    if (await activationProblem(ctx, catalog, slug)) {
      failed.push(slug);
      const mod = catalog.get(slug);
      reason ??= mod ? (refusalOf(mod, status) ?? undefined) : undefined;
    } else ok.push(slug);
  }
  if (ok.length > 0) {
    const source = await sourceFor(ctx, request);
    const { before, after } = await auditedTransaction(
      ctx,
      source,
      async (tx) => {
        const change = await updateActiveSlugs(tx.options, catalog, (list) => [...list, ...ok.filter((slug) => !list.includes(slug))]);
        if (change.after.length !== change.before.length) await markActionTaken(tx.options);
        return change;
      },
      (change, changes) =>
        change.after
          .filter((slug) => !change.before.includes(slug))
          .map((slug) => ({ action: 'module.activated', object: moduleObject(catalog, slug), changes })),
    );
    await emitListChange(ctx, before, after);
  }
  return failed.length > 0 ? bulkActivationFailed(failed, reason) : { code: 'success', message: successMessages.allModulesActivated };
}
