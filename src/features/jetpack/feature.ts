/**
 * The built-in `jetpack/v4` plugin as a feature: its routes go through the same plugin API
 * third parties use, and it offers other features its module registrar and `Initial_State`.
 */
import { RequestSources } from '../audit/index.js';
import { SITEWARD_VERSION } from '../../core/version.js';
import type { Feature } from '../contract.js';
import { pluginGuards, type PluginGuards } from './feature-guards.js';
import { registerSiteManagementPlugin, type SiteManagementPlugin } from './index.js';
import type { PluginContext } from './context.js';
import { jetpackSettings } from './settings.js';

/** What other features get of the plugin: its module registrar, `Initial_State`, catalog, permission checks and module state. */
export type JetpackHandle = Pick<
  SiteManagementPlugin,
  'registerModule' | 'registerModuleData' | 'registerServiceCheck' | 'initialState' | 'catalog'
> &
  PluginGuards;

declare module '../contract.js' {
  interface FeatureServices {
    jetpack: JetpackHandle;
  }
}

export const jetpackFeature: Feature = {
  name: 'jetpack',
  settings: jetpackSettings,
  register(ctx) {
    const connection = ctx.need('connection');
    const { authenticator } = ctx.auth;
    const homeUrl = ctx.config.homeUrl;
    const restRoot = ctx.api.restUrl('/');
    const pluginContext: PluginContext = {
      // The plugin's transactions touch options only and are safe to run again: they go through
      // the store's options transactions (on PostgreSQL, one statement for a batch of them).
      store: { options: ctx.store.options, transaction: (fn) => ctx.store.optionsTransaction(fn) },
      events: ctx.events,
      auditSources: new RequestSources(ctx.store.appPasswords, ctx.clock),
      site: {
        homeUrl: () => homeUrl,
        adminUrl: () => `${homeUrl}/admin/`,
        restRoot: () => restRoot,
        devMode: () => {
          // Built field by field: a spread here made V8 create a new hidden class on every call.
          const mode = ctx.site.devMode();
          return { constant: mode.constant, url: mode.url, filter: false };
        },
        isConnected: () => connection.isConnected(),
        version: SITEWARD_VERSION,
      },
      createNonce: (action, user) => authenticator.nonces.create(action, user.id, ''),
      fields: ctx.fields,
      settingsShape: ctx.config.settingsShape,
      userConnectionData: (user) => connection.userConnectionData(user),
      accountServiceConfigured: ctx.config.accountsIssuer !== null,
    };
    const plugin = registerSiteManagementPlugin(ctx.api, pluginContext);
    ctx.provide('jetpack', {
      catalog: plugin.catalog,
      registerModule: (definition) => plugin.registerModule(definition),
      registerModuleData: (slug, provider) => plugin.registerModuleData(slug, provider),
      registerServiceCheck: (slug, check) => plugin.registerServiceCheck(slug, check),
      initialState: (opts) => plugin.initialState(opts),
      ...pluginGuards(pluginContext, plugin.catalog),
    });
    // The plugin API's `registerModule` (third parties' modules) lands in this catalog.
    ctx.provide('modules', { registerModule: (definition) => plugin.registerModule(definition) });
  },
};
