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
import { storageOf, type ModuleCatalog } from '../catalog/module-catalog.js';
import { storeValue } from '../catalog/option-io.js';
import { sanitizeByType, validateByType } from '../catalog/option-validators.js';
import { featureNotAvailable, pluginError, someUpdated, successMessages } from '../errors.js';
import type { ModuleOptionDefinition, OptionWriteContext, OptionWriteOutcome } from '../module-types.js';
import { readActiveSlugs } from './active-modules.js';
import { TRACKED_OPTIONS, markActionTaken } from './jumpstart-state.js';

async function defaultWrite(def: ModuleOptionDefinition, value: JsonValue, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  const changed = await storeValue(io, def.encode ? def.encode(value) : value);
  return { ok: true, changed, value };
}

export async function updateModuleOptions(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slug: string,
  body: unknown,
  user: Principal,
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
  const problems: Record<string, string> = {};
  for (const key of known) {
    const def = defs[key]!;
    const verdict = (def.validate ?? validateByType(def.type))(body[key], key);
    if (verdict !== true) problems[key] = verdict;
  }
  if (Object.keys(problems).length > 0) return invalidParams(problems);

  // Stage 2: write the valid keys in one transaction.
  const homeUrl = ctx.site.homeUrl();
  const outcomes = await ctx.store.transaction(async (tx) => {
    const results = new Map<string, OptionWriteOutcome>();
    let tracked = false;
    for (const key of known) {
      const def = defs[key]!;
      const value = (def.sanitize ?? sanitizeByType(def.type))(body[key]);
      const io: OptionWriteContext = { options: tx.options, user, homeUrl, storage: storageOf(key, def) };
      const outcome = def.write ? await def.write(value, io) : await defaultWrite(def, value, io);
      results.set(key, outcome);
      if (outcome.ok && outcome.changed && TRACKED_OPTIONS.has(io.storage.option)) tracked = true;
    }
    if (tracked) await markActionTaken(tx.options);
    return results;
  });

  // Stage 3: tell listeners, then answer.
  const extras: Record<string, JsonValue> = {};
  const notUpdated = new Map<string, string | undefined>();
  for (const [key, outcome] of outcomes) {
    if (!outcome.ok) {
      notUpdated.set(key, outcome.info);
      continue;
    }
    Object.assign(extras, outcome.response);
    if (outcome.changed) await ctx.events.emit('module.option_updated', { slug, option: key, value: outcome.value });
  }
  if (unknown.length > 0 || notUpdated.size > 0) return someUpdated(unknown, notUpdated);
  return { code: 'success', message: successMessages.moduleUpdated, ...extras };
}
