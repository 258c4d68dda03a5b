/**
 * `settings` in the 4.4+ sense (docs/spec/current-clients.md A.4, A.5): one object of every
 * updatable key — each module's options, each module slug as its activation boolean, and the
 * site-level settings — read and written in one call.
 *
 * A write is all or nothing (the decision, README "Compatibility"): every key is checked
 * first (unknown keys, invalid values, options Siteward cannot honour, and whether each
 * activation can succeed), then everything is written in one store transaction. Jetpack instead
 * applies the valid part and answers `some_updated`.
 */
import type { JsonValue } from '../../../core/json.js';
import { frozenCopy, isPlainObject } from '../../../core/objects.js';
import { invalidParams, isRestError, type RestError } from '../../../rest/errors.js';
import type { Principal } from '../../../rest/types.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { toBoolean, validateBoolean } from '../catalog/option-validators.js';
import type { PluginContext } from '../context.js';
import { argumentMessages, featureNotAvailable, pluginError, successMessages } from '../../jetpack-v4/errors.js';
import { settingNotSaved, settingRefused } from '../errors.js';
import type { CatalogModule, ModuleOptionDefinition } from '../module-types.js';
import { readActiveSlugs, updateActiveSlugs } from './active-modules.js';
import { markActionTaken } from './jumpstart-state.js';
import { activationProblem, emitListChange } from './module-activation.js';
import { announceOptionWrites, optionProblems, writeOptions, type OptionWrite } from './option-writes.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, moduleObject, SITE_OBJECT, sourceFor } from './audit-trail.js';
import { loadOptionStorage, optionsForResponse } from './option-values.js';
import { readSettings, storeHolidaySnow } from './settings.js';

/** What a key of the object stands for. */
type SettingKey =
  | { readonly kind: 'option'; readonly mod: CatalogModule; readonly def: ModuleOptionDefinition }
  | { readonly kind: 'module'; readonly mod: CatalogModule }
  | { readonly kind: 'site' };

/** The site-level keys (Jetpack's `settings` group): in this era only holiday snow (docs/spec/jetpack-v4-reference.md §3.12). */
const SITE_KEYS = ['jetpack_holiday_snow_enabled'] as const;

/**
 * Every updatable key, in Jetpack's order: per module (catalog order) its options, then its
 * slug; then the site-level keys. A plugin's option that reuses a key taken earlier is left out
 * (the first module keeps it), as the object can hold a key once.
 */
function settingKeys(catalog: ModuleCatalog): Map<string, SettingKey> {
  const keys = new Map<string, SettingKey>();
  for (const mod of catalog.all()) {
    for (const [key, def] of Object.entries(mod.options ?? {})) if (!keys.has(key)) keys.set(key, { kind: 'option', mod, def });
    if (!keys.has(mod.slug)) keys.set(mod.slug, { kind: 'module', mod });
  }
  for (const key of SITE_KEYS) keys.set(key, { kind: 'site' });
  return keys;
}

/** The last settings object built for each user id, per context (bounded), as module/all keeps its list. */
interface ObjectEntry {
  readonly version: number;
  readonly catalogSize: number;
  readonly object: Readonly<Record<string, JsonValue>>;
}
const objectCaches = new WeakMap<PluginContext, Map<number, ObjectEntry>>();
const OBJECT_CACHE_SIZE = 64;

/**
 * Whether the 4.4+ settings object is made from versioned state only (site options and the
 * user's record): false when some option has its own `read` (a plugin's), which may read
 * anything. Its GET may then be answered again (src/rest/replay.ts).
 */
export function settingsObjectVersioned(catalog: ModuleCatalog): boolean {
  return !hasCustomReads(catalog);
}

/** Whether some option of the catalog has its own `read` (a plugin's), per catalog size. */
const customReads = new WeakMap<ModuleCatalog, { readonly size: number; readonly any: boolean }>();
function hasCustomReads(catalog: ModuleCatalog): boolean {
  const known = customReads.get(catalog);
  if (known?.size === catalog.size) return known.any;
  const any = catalog.all().some((mod) => Object.values(mod.options ?? {}).some((def) => def.read !== undefined));
  customReads.set(catalog, { size: catalog.size, any });
  return any;
}

/**
 * GET settings in the 4.4+ shape (the bench's "4.3+ shape" row). The object is frozen and reused while nothing it depends on
 * changes, so that the REST layer reuses its JSON text too: it depends on the stored options
 * (one state version covers them all, per-user values included), the catalog and the user.
 * An option with its own `read` may depend on anything, so a catalog that has one is read
 * afresh every time.
 */
export async function readSettingsObject(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  user: Principal,
): Promise<Readonly<Record<string, JsonValue>>> {
  if (hasCustomReads(catalog)) return buildSettingsObject(ctx, catalog, user);
  const version = ctx.store.options.knownVersion?.() ?? (await ctx.store.options.version());
  let cache = objectCaches.get(ctx);
  if (!cache) objectCaches.set(ctx, (cache = new Map()));
  const hit = cache.get(user.id);
  if (hit !== undefined && hit.version === version && hit.catalogSize === catalog.size) return hit.object;
  const object = frozenCopy(await buildSettingsObject(ctx, catalog, user));
  // The version was read before building: a concurrent write makes this entry stale, never wrong.
  cache.delete(user.id);
  if (cache.size >= OBJECT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(user.id, { version, catalogSize: catalog.size, object });
  return object;
}

/** GET settings (4.4+ shape): every key with its current value. */
async function buildSettingsObject(ctx: PluginContext, catalog: ModuleCatalog, user: Principal): Promise<Record<string, JsonValue>> {
  const modules = catalog.all();
  const [loaded, active, site] = await Promise.all([
    loadOptionStorage(ctx.store.options, modules),
    readActiveSlugs(ctx.store.options, catalog),
    readSettings(ctx),
  ]);
  const out: Record<string, JsonValue> = {};
  for (const mod of modules) {
    const options = await optionsForResponse(mod, loaded, ctx.store.options, user);
    for (const [key, option] of Object.entries(options ?? {})) if (!(key in out)) out[key] = option.current_value;
    if (!(mod.slug in out)) out[mod.slug] = active.includes(mod.slug);
  }
  return { ...out, ...site };
}

/** What a valid request asks for, sorted by kind. */
interface Plan {
  readonly writes: OptionWrite[];
  readonly toggles: Map<string, boolean>;
  readonly site: Map<(typeof SITE_KEYS)[number], boolean>;
}

/** Checks every key of the body; the plan, or the one error that refuses the whole request. */
function plan(catalog: ModuleCatalog, body: Record<string, unknown>, only: CatalogModule | undefined): Plan | RestError {
  const keys = settingKeys(catalog);
  const problems: Record<string, string> = {};
  const result: Plan = { writes: [], toggles: new Map(), site: new Map() };
  for (const [name, sent] of Object.entries(body)) {
    // Jetpack drops these before looking at the keys (docs/spec/current-clients.md A.5 step 2).
    if (/^\d+$/.test(name) || name === 'slug' || name === 'context') continue;
    const key = keys.get(name);
    if (only !== undefined && (key?.kind !== 'option' || key.mod !== only)) {
      problems[name] = argumentMessages.notModuleSetting(name, only.slug);
    } else if (key === undefined) {
      problems[name] = argumentMessages.unknownSetting(name);
    } else if (key.kind === 'option') {
      if (key.def.notAvailable === true) return featureNotAvailable(key.mod.name);
      result.writes.push({ slug: key.mod.slug, key: name, def: key.def, sent });
    } else {
      const verdict = validateBoolean(sent, name);
      if (verdict !== true) problems[name] = verdict;
      else if (key.kind === 'module') result.toggles.set(name, toBoolean(sent) === true);
      else result.site.set(name as (typeof SITE_KEYS)[number], toBoolean(sent) === true);
    }
  }
  Object.assign(problems, optionProblems(result.writes));
  return Object.keys(problems).length > 0 ? invalidParams(problems) : result;
}

/**
 * The values of known keys that are invalid (types, enums, booleans), before the permission
 * check: in Jetpack every updatable key of `POST settings` is a declared argument, and WordPress
 * validates arguments first (docs/spec/current-clients.md §0, A.5). Unknown keys are not
 * arguments there, so they are the handler's (after the permission check). Null when all valid.
 */
export function invalidSettingValues(catalog: ModuleCatalog, body: unknown): RestError | null {
  if (!isPlainObject(body)) return null;
  const keys = settingKeys(catalog);
  const problems: Record<string, string> = {};
  const writes: OptionWrite[] = [];
  for (const [name, sent] of Object.entries(body)) {
    const key = keys.get(name);
    if (key === undefined || /^\d+$/.test(name) || name === 'slug' || name === 'context') continue;
    if (key.kind === 'option') {
      if (key.def.notAvailable !== true) writes.push({ slug: key.mod.slug, key: name, def: key.def, sent });
      continue;
    }
    const verdict = validateBoolean(sent, name);
    if (verdict !== true) problems[name] = verdict;
  }
  // Options first, module slugs last: Jetpack's declaration order.
  const all = { ...optionProblems(writes), ...problems };
  return Object.keys(all).length > 0 ? invalidParams(all) : null;
}

/** Thrown inside the transaction when a write fails after the checks, so nothing of the call stays. */
class WriteFailed extends Error {
  constructor(
    readonly key: string,
    readonly info: string | undefined,
  ) {
    super(`setting ${key} not saved`);
  }
}

/**
 * POST settings (`only` absent) and POST settings/{module}: checks everything, then writes it all
 * in one transaction, then tells listeners (the same events as the 2016 routes).
 */
export async function writeSettingsObject(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  body: unknown,
  user: Principal,
  only?: string,
  request?: RestRequest,
): Promise<Record<string, JsonValue> | RestError> {
  let mod: CatalogModule | undefined;
  if (only !== undefined) {
    mod = catalog.get(only);
    if (!mod) return pluginError('module_not_found');
    if (!(await readActiveSlugs(ctx.store.options, catalog)).includes(only)) return pluginError('module_inactive');
  }
  if (!isPlainObject(body) || Object.keys(body).length === 0) return pluginError('missing_options');
  const planned = plan(catalog, body, mod);
  if (isRestError(planned)) return planned;
  const { writes, toggles, site } = planned;
  if (writes.length + toggles.size + site.size === 0) return pluginError('missing_options');

  // Can every activation succeed? Checked before anything is written.
  const activeNow = await readActiveSlugs(ctx.store.options, catalog);
  let refused: RestError | undefined;
  for (const [slug, on] of toggles) {
    if (!on || activeNow.includes(slug)) continue;
    const problem = await activationProblem(ctx, catalog, slug);
    if (problem) refused = refused ? refused.add(settingRefused(slug, problem)) : settingRefused(slug, problem);
  }
  if (refused) return refused;

  const homeUrl = ctx.site.homeUrl();
  let applied;
  try {
    const source = await sourceFor(ctx, request);
    applied = await auditedTransaction(
      ctx,
      source,
      async (tx) => {
        const list =
          toggles.size === 0
            ? null
            : await updateActiveSlugs(tx.options, catalog, (current) => [
                ...current.filter((slug) => toggles.get(slug) !== false),
                ...[...toggles].filter(([slug, on]) => on && !current.includes(slug)).map(([slug]) => slug),
              ]);
        const done = await writeOptions(tx.options, writes, user, homeUrl);
        for (const [write, outcome] of done.outcomes) if (!outcome.ok) throw new WriteFailed(write.key, outcome.info);
        const snow = site.get('jetpack_holiday_snow_enabled');
        const snowChanged = snow !== undefined && (await storeHolidaySnow(tx.options, snow));
        const listChanged = list !== null && list.before.join() !== list.after.join();
        if (listChanged || done.tracked) await markActionTaken(tx.options);
        return { list, outcomes: done.outcomes, snow: snowChanged ? snow : undefined };
      },
      (_applied, changes) =>
        changed(changes) ? { action: 'settings.updated', object: mod ? moduleObject(catalog, mod.slug) : SITE_OBJECT } : null,
    );
  } catch (error) {
    if (error instanceof WriteFailed) return settingNotSaved(error.key, error.info);
    throw error;
  }

  if (applied.list) await emitListChange(ctx, applied.list.before, applied.list.after);
  const { extras } = await announceOptionWrites(ctx, applied.outcomes);
  if (applied.snow !== undefined) await ctx.events.emit('setting.updated', { name: 'jetpack_holiday_snow_enabled', value: applied.snow });
  return { code: 'success', message: successMessages.dataUpdated, ...extras };
}
