/**
 * POST /module/:slug — updating a module's options (docs/spec/jetpack-v4-reference.md §3.11 with the rule):
 * not found 404 → inactive 409 → missing options 404; then every known key is validated and one
 * bad value fails the whole request with nothing saved; valid keys are saved in one transaction
 * while unknown keys (and writes that could not be done) are reported as `some_updated`.
 */
import { isPlainObject } from '../../../core/objects.js';
import { invalidParams, type RestError } from '../../../rest/errors.js';
import type { JsonValue } from '../../../core/json.js';
import type { Principal } from '../../../rest/types.js';
import type { PluginContext } from '../context.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { featureNotAvailable, pluginError, successMessages } from '../../jetpack-v4/errors.js';
import { someUpdated } from '../errors.js';
import { readActiveSlugs } from './active-modules.js';
import { markActionTaken } from './jumpstart-state.js';
import { announceOptionWrites, optionProblems, writeOptions, type OptionWrite } from './option-writes.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, moduleObject, sourceFor } from './audit-trail.js';

export async function updateModuleOptions(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slug: string,
  body: unknown,
  user: Principal,
  request?: RestRequest,
): Promise<Record<string, JsonValue> | RestError> {
  const mod = catalog.get(slug);
  if (!mod) return pluginError('module_not_found');
  if (!(await readActiveSlugs(ctx.store.options, catalog)).includes(slug)) return pluginError('module_inactive');
  if (!isPlainObject(body) || Object.keys(body).length === 0) return pluginError('missing_options');

  // Stage 1: validate every known key; one bad value and nothing is saved.
  const defs = mod.options ?? {};
  const known = Object.keys(body).filter((key) => Object.prototype.hasOwnProperty.call(defs, key));
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (known.some((key) => defs[key]!.notAvailable === true)) return featureNotAvailable(mod.name);
  const writes: OptionWrite[] = known.map((key) => ({ slug, key, def: defs[key]!, sent: body[key] }));
  const problems = optionProblems(writes);
  if (Object.keys(problems).length > 0) return invalidParams(problems);

  // Stage 2: write the valid keys in one transaction.
  const homeUrl = ctx.site.homeUrl();
  const source = await sourceFor(ctx, request);
  const outcomes = await auditedTransaction(
    ctx,
    source,
    async (tx) => {
      const done = await writeOptions(tx.options, writes, user, homeUrl);
      if (done.tracked) await markActionTaken(tx.options);
      return done.outcomes;
    },
    (_outcomes, changes) => (changed(changes) ? { action: 'module.options_updated', object: moduleObject(catalog, slug) } : null),
  );

  // Stage 3: tell listeners, then answer.
  const { extras, notUpdated } = await announceOptionWrites(ctx, outcomes);
  if (unknown.length > 0 || notUpdated.size > 0) return someUpdated(unknown, notUpdated);
  return { code: 'success', message: successMessages.moduleUpdated, ...extras };
}
