/**
 * The site-management plugin: the `jetpack/v4` module, settings, Jump Start, reset and notice
 * endpoints over the module catalog (docs/spec/jetpack-v4-reference.md; docs/spec/compat.md §9).
 */
import type { SitewardApi } from '../../plugins/api.js';
import type { JsonValue } from '../../core/json.js';
import type { Principal } from '../../rest/types.js';
import type { ModuleCatalog } from './catalog/module-catalog.js';
import { catalogOf, type PluginContext } from './context.js';
import { buildInitialState } from './initial-state.js';
import type { ModuleDefinition } from './module-types.js';
import { registerModuleRoutes } from './routes/module-routes.js';
import { registerSiteRoutes } from './routes/site-routes.js';
import { registerCurrentRoutes, type ModuleDataProvider } from './routes/current-routes.js';
import { registerServiceCheck, type ServiceCheck } from './operations/site-status.js';
import { registerPluginAbilities } from './abilities.js';

export interface SiteManagementPlugin {
  readonly catalog: ModuleCatalog;
  /** Backs `api.registerModule`: adds a plugin's module; throws ModuleDefinitionError when invalid or taken. */
  registerModule(definition: ModuleDefinition): void;
  /** Backs `GET module/{slug}/data` for `slug` (docs/spec/current-clients.md A.6); a module without a provider answers `null`. */
  registerModuleData(slug: string, provider: ModuleDataProvider): void;
  /**
   * Makes `slug` unavailable (`available: false`, `unavailable_reason.code` `not_configured`, activation
   * refused with 424 `activation_failed`) while `check` reports its service is not set up.
   */
  registerServiceCheck(slug: string, check: ServiceCheck): void;
  /** The admin page's `Initial_State` for a user and their `wp_rest` nonce. */
  initialState(opts: { user: Principal; nonce: string }): Promise<Record<string, JsonValue>>;
}

/**
 * Registers the plugin's routes through `api.registerRoute` and returns its handle.
 *
 * @example
 * const plugin = registerSiteManagementPlugin(api, { store, events, site, createNonce });
 * const registerModule = (def: ModuleDefinition) => plugin.registerModule(def);
 */
export function registerSiteManagementPlugin(api: SitewardApi, ctx: PluginContext): SiteManagementPlugin {
  const catalog = catalogOf(ctx);
  const dataProviders = new Map<string, ModuleDataProvider>();
  registerModuleRoutes(api, ctx, catalog);
  registerSiteRoutes(api, ctx, catalog);
  // After the 2016 routes: `settings/update` must keep matching before `settings/{module}`.
  registerCurrentRoutes(api, ctx, catalog, dataProviders);
  // The same operations as abilities (wp-abilities/v1, MCP).
  registerPluginAbilities(api, ctx, catalog);
  return {
    catalog,
    registerModule: (definition) => {
      catalog.register(definition);
    },
    registerModuleData: (slug, provider) => {
      dataProviders.set(slug, provider);
    },
    registerServiceCheck: (slug, check) => registerServiceCheck(ctx, slug, check),
    initialState: (opts) => buildInitialState(ctx, opts),
  };
}

export { ModuleCatalog } from './catalog/module-catalog.js';
export { optionTextsOf } from './catalog/option-texts.js';
export { buildInitialState } from './initial-state.js';
export { ModuleDefinitionError } from './errors.js';
export type { DevModeState, PluginContext, PluginSite, PluginStore } from './context.js';
export type { ModuleDefinition, ModuleOptionDefinition } from './module-types.js';
export type { ModuleDataProvider } from './routes/current-routes.js';
export type { ServiceCheck, ServiceGap } from './operations/site-status.js';
export { stateKeys } from './state-keys.js';
