import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import type { SitewardApi } from './plugins/api.js';
import type { SitewardAuthenticator } from './auth/authenticator.js';
import type { Config } from './config/config.js';
import type { EventBus } from './core/events.js';
import type { PageHelpers } from './http/server.js';
import { adminPage } from './http/admin-page.js';
import { escapeHtml } from './http/site-pages.js';
import { flatHeaders } from './http/request-origin.js';
import { registerSiteManagementPlugin, type PluginContext } from './features/jetpack/index.js';
import type { ModuleDefinition } from './features/jetpack/module-types.js';
import type { FieldRegistry } from './rest/field-registry.js';
import type { RestUrlBuilder } from './rest/rest-url.js';
import type { Store } from './store/types.js';

export interface SiteManagement {
  registerModule(def: ModuleDefinition): void;
  /** Site-verification meta tags for the home page. */
  headTags(): Promise<string[]>;
  /** The admin page (`/admin/`), which carries `window.Initial_State`. */
  registerPages(app: FastifyInstance, helpers: PageHelpers): void;
}

const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const VERIFICATION_META: Record<string, string> = {
  google: 'google-site-verification',
  bing: 'msvalidate.01',
  pinterest: 'p:domain_verify',
};

/** Wires the built-in site-management plugin (the `jetpack/v4` routes) to the real store and auth. */
export async function registerSiteManagement(
  api: SitewardApi,
  deps: {
    config: Config;
    store: Store;
    events: EventBus;
    restUrl: RestUrlBuilder;
    authenticator: SitewardAuthenticator;
    devMode: () => { constant: boolean; url: boolean };
    fields: FieldRegistry;
  },
): Promise<SiteManagement> {
  const { config, store, authenticator } = deps;
  const ctx: PluginContext = {
    store,
    events: deps.events,
    site: {
      homeUrl: () => config.homeUrl,
      adminUrl: () => `${config.homeUrl}/admin/`,
      restRoot: () => deps.restUrl('/'),
      devMode: () => {
        // Built field by field: a spread here made V8 create a new hidden class on every call.
        const mode = deps.devMode();
        return { constant: mode.constant, url: mode.url, filter: false };
      },
      // The connection to the central account service comes with its own issue; until then no site is connected.
      isConnected: async () => false,
      version: VERSION,
    },
    createNonce: (action, user) => authenticator.nonces.create(action, user.id, ''),
    fields: deps.fields,
  };
  const plugin = registerSiteManagementPlugin(api, ctx);

  return {
    registerModule: (def) => plugin.registerModule(def),
    async headTags() {
      const active = await store.options.get('active_modules');
      const activeList = Array.isArray(active) ? active : null;
      if (activeList && !activeList.includes('verification-tools')) return [];
      const codes = await store.options.get('verification_services_codes');
      if (!codes || typeof codes !== 'object' || Array.isArray(codes)) return [];
      const tags: string[] = [];
      for (const [service, name] of Object.entries(VERIFICATION_META)) {
        const code = (codes as Record<string, unknown>)[service];
        if (typeof code === 'string' && code !== '') tags.push(`<meta name="${name}" content="${escapeHtml(code)}" />`);
      }
      return tags;
    },
    registerPages(app, helpers) {
      app.get('/admin', async (_req, reply) => reply.redirect('/admin/', 301));
      app.get('/admin/', async (req, reply) => {
        const identity = await authenticator.identify(flatHeaders(req.headers));
        if (identity.kind !== 'cookie') return reply.redirect(`/login?redirect_to=${encodeURIComponent('/admin/')}`, 302);
        const nonce = authenticator.createNonce('wp_rest', identity);
        const state = await plugin.initialState({ user: identity.principal, nonce });
        const restRoot = helpers.restRoot(req);
        return reply
          .code(200)
          .header('Content-Type', 'text/html; charset=UTF-8')
          .header('Cache-Control', 'no-store')
          .header('X-Frame-Options', 'SAMEORIGIN')
          .send(adminPage({ initialState: { ...state, WP_API_root: restRoot }, userLogin: identity.principal.login }));
      });
    },
  };
}
