/** Module records of GET /module/all and GET /module/:slug (docs/spec/jetpack-v4-reference.md §3.7, §3.8, §5.1). */
import type { RestError } from '../../../rest/errors.js';
import type { Principal } from '../../../rest/types.js';
import type { ModuleDetail, ModuleHeader, ModuleRecord } from '../../../wire/jetpack-v4.js';
import type { PluginContext } from '../context.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { pluginError } from '../../jetpack-v4/errors.js';
import type { CatalogModule } from '../module-types.js';
import { optionTextsOf } from '../catalog/option-texts.js';
import { readActiveSlugs } from './active-modules.js';
import { loadOptionStorage, optionsForResponse } from './option-values.js';
import { gapsKey, refusalOf, siteStatus, type SiteStatus } from './site-status.js';
import { escapeHtml } from '../../../core/html.js';

/** The 14 header fields, in the reference's order. */
function headerFields(mod: CatalogModule): ModuleHeader {
  return {
    name: mod.name,
    description: mod.description,
    jumpstart_desc: mod.jumpstart_desc,
    sort: mod.sort,
    recommendation_order: mod.recommendation_order,
    introduced: mod.introduced,
    changed: mod.changed,
    deactivate: mod.deactivate,
    free: mod.free,
    requires_connection: mod.requires_connection,
    auto_activate: mod.auto_activate,
    module_tags: [...mod.module_tags],
    feature: [...mod.feature],
    additional_search_queries: mod.additional_search_queries,
  };
}

/** Description cut to 140 characters plus "..." when longer than 143 (docs/spec/jetpack-v4-reference.md §5.1). */
export function shortDescription(description: string): string {
  return description.length > 143 ? `${description.slice(0, 140)}...` : description;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Where the admin page shows a module's settings. */
export function configureUrl(ctx: PluginContext, slug: string): string {
  return `${withoutTrailingSlash(ctx.site.adminUrl())}/#/modules/${slug}`;
}

type ModuleList = Readonly<Record<string, ModuleRecord>>;

/** What a built list depends on besides the user (see `listModules`). */
interface ListEntry {
  readonly version: number;
  readonly catalogSize: number;
  readonly tick: string;
  readonly canManage: boolean;
  readonly connected: boolean;
  readonly devMode: boolean;
  readonly gaps: string;
  readonly list: ModuleList;
}

/** The last list built for each user id, per context (bounded). */
const listCaches = new WeakMap<PluginContext, Map<number, ListEntry>>();
const LIST_CACHE_SIZE = 64;

/**
 * GET /module/all: every module keyed by slug, in the order of docs/spec/jetpack-v4-reference.md §5.3. The result is
 * frozen and reused while nothing it depends on changes, so that the REST layer can reuse its
 * JSON text too (the admin page polls this 47 KB list). A list depends on the stored options
 * (one state version covers them all), the catalog, the user (nonces, per-user option values,
 * `configurable`), the nonce tick (a sample nonce stands for it) and the connection and
 * dev-mode status. Speed: they are compared field by field against the user's last list, with
 * no key string built and hashed per request.
 */
export async function listModules(ctx: PluginContext, catalog: ModuleCatalog, user: Principal): Promise<ModuleList> {
  const status = await siteStatus(ctx);
  const version = ctx.store.options.knownVersion?.() ?? (await ctx.store.options.version());
  const tick = ctx.createNonce('jetpack_activate-list', user);
  const canManage = user.can('manage_options');
  const gaps = gapsKey(status);
  let cache = listCaches.get(ctx);
  if (!cache) listCaches.set(ctx, (cache = new Map()));
  const hit = cache.get(user.id);
  if (
    hit !== undefined &&
    hit.version === version &&
    hit.catalogSize === catalog.size &&
    hit.tick === tick &&
    hit.canManage === canManage &&
    hit.connected === status.connected &&
    hit.devMode === status.devMode.isActive &&
    hit.gaps === gaps
  ) {
    return hit.list;
  }
  const list = Object.freeze(await buildList(ctx, catalog, user, status));
  // The version was read before building: a concurrent write makes this entry stale but never wrong for its fields.
  cache.delete(user.id);
  if (cache.size >= LIST_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(user.id, {
    version,
    catalogSize: catalog.size,
    tick,
    canManage,
    connected: status.connected,
    devMode: status.devMode.isActive,
    gaps,
    list,
  });
  return list;
}

async function buildList(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  user: Principal,
  status: SiteStatus,
): Promise<Record<string, ModuleRecord>> {
  const active = new Set(await readActiveSlugs(ctx.store.options, catalog));
  const modules = catalog.ordered(status.connected);
  const loaded = await loadOptionStorage(ctx.store.options, modules);
  const home = withoutTrailingSlash(ctx.site.homeUrl());
  const out: Record<string, ModuleRecord> = {};
  for (const mod of modules) {
    const unavailable = refusalOf(mod, status);
    const available = unavailable === null;
    const url = configureUrl(ctx, mod.slug);
    const options = await optionsForResponse(mod, loaded, ctx.store.options, user);
    out[mod.slug] = {
      ...headerFields(mod),
      module: mod.slug,
      activated: available && active.has(mod.slug),
      deactivate_nonce: ctx.createNonce(`jetpack_deactivate-${mod.slug}`, user),
      activate_nonce: ctx.createNonce(`jetpack_activate-${mod.slug}`, user),
      available,
      short_description: shortDescription(mod.description),
      configure_url: url,
      learn_more_button: '',
      long_description: mod.long_description,
      search_terms: mod.additional_search_queries,
      configurable: options !== null && user.can('manage_options') ? `<a href="${escapeHtml(url)}">Configure</a>` : false,
      options,
      // Restored in the reference's next state (§3.7); Siteward's sitemaps live at the pretty URLs.
      ...(mod.slug === 'sitemaps' && { extra: { sitemap_url: `${home}/sitemap.xml`, news_sitemap_url: `${home}/news-sitemap.xml` } }),
      runtime: mod.runtime,
      unavailable_reason: unavailable,
      option_texts: optionTextsOf(mod),
    };
  }
  return out;
}

/** GET /module/:slug: header fields and options, plus `activated: false` while unavailable (docs/spec/jetpack-v4-reference.md §3.8), then Siteward's `runtime` and `unavailable_reason`. */
export async function getModule(
  ctx: PluginContext,
  catalog: ModuleCatalog,
  slug: string,
  user: Principal,
): Promise<ModuleDetail | RestError> {
  const mod = catalog.get(slug);
  if (!mod) return pluginError('module_not_found');
  const status = await siteStatus(ctx);
  const loaded = await loadOptionStorage(ctx.store.options, [mod]);
  const unavailable = refusalOf(mod, status);
  return {
    ...headerFields(mod),
    options: await optionsForResponse(mod, loaded, ctx.store.options, user),
    ...(unavailable !== null && { activated: false }),
    runtime: mod.runtime,
    unavailable_reason: unavailable,
    option_texts: optionTextsOf(mod),
  };
}
