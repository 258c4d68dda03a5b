import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import type { Logger, PluginRegister, SitewardApi } from './plugins/api.js';
import type { Config } from './config/config.js';
import { EventBus } from './core/events.js';
import { buildHttpServer } from './http/server.js';
import { loadPlugin, runPlugin } from './plugins/plugin-loader.js';
import { deprecatedArgument, deprecatedFunction } from './rest/deprecation.js';
import { RestServer } from './rest/rest-server.js';
import { createRestUrlBuilder, type RestUrlBuilder } from './rest/rest-url.js';
import { FieldRegistry } from './rest/field-registry.js';
import type { ModuleDefinition } from './features/jetpack/module-types.js';
import { openServices, type Services } from './services-wiring.js';

/** A running Siteward instance (one process): store, REST layer, plugins and the HTTP server. */
export interface App {
  readonly config: Config;
  readonly services: Services;
  readonly rest: RestServer;
  readonly restUrl: RestUrlBuilder;
  readonly fields: FieldRegistry;
  readonly events: EventBus;
  readonly http: FastifyInstance;
  readonly log: PinoLogger | Logger;
  /** Closes the HTTP server (finishing in-flight requests) and the store. */
  close(): Promise<void>;
}

export interface CreateAppOptions {
  logger: PinoLogger | false;
  /** Working directory for relative plugin paths. */
  cwd?: string;
  /** Plugins given in code (tests, embedding), registered after the configured ones. */
  plugins?: readonly PluginRegister[];
  /** Receives developer warnings (`_doing_it_wrong`) in addition to the log. */
  onWarning?: (message: string) => void;
}

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/** Builds a Siteward instance from its configuration. */
export async function createApp(config: Config, options: CreateAppOptions): Promise<App> {
  const log: PinoLogger | Logger = options.logger === false ? silent : options.logger;
  const warn = (message: string, detail?: unknown) => {
    options.onWarning?.(message);
    if (detail !== undefined) log.error({ err: detail }, message);
    else log.warn(message);
  };
  const restUrl = createRestUrlBuilder(config);
  const events = new EventBus((event, error) => log.error({ err: error, event }, 'event listener failed'));
  const services = await openServices(config, { log, events, restUrl });
  try {
    const rest = new RestServer({
      urls: restUrl,
      authenticator: services.authenticator,
      siteSummary: () => services.siteSummary(),
      warn,
    });
    const fields = new FieldRegistry();
    let moduleRegistrar: ((def: ModuleDefinition) => void) | null = null;

    const makeApi = (pluginName: string): SitewardApi => ({
      registerRoute: (ns, route, def, override) => rest.registerRoute(ns, route, def, override),
      registerField: (type, attribute, def) => fields.register(type, attribute, def),
      deprecatedFunction,
      deprecatedArgument,
      restUrl: (path) => restUrl(path),
      on: (event, listener) => events.on(event, listener),
      options: services.store.options,
      site: { homeUrl: config.homeUrl, restPrefix: config.restPrefix, permalinks: config.permalinks },
      log: options.logger === false ? silent : options.logger.child({ plugin: pluginName }),
      registerModule: (def) => {
        if (!moduleRegistrar) throw new Error('registerModule: the site-management plugin is not loaded');
        moduleRegistrar(def);
      },
    });

    moduleRegistrar = await services.registerBuiltInPlugins(makeApi('siteward'), fields);

    const cwd = options.cwd ?? process.cwd();
    for (const entry of config.plugins) {
      await runPlugin(entry, await loadPlugin(entry, cwd), makeApi(entry));
    }
    for (const [i, register] of (options.plugins ?? []).entries()) {
      await runPlugin(register.name || `inline-${i}`, register, makeApi(register.name || `inline-${i}`));
    }

    const http = await buildHttpServer({
      config,
      rest,
      restUrl,
      logger: options.logger === false ? false : options.logger,
      homeHead: () => services.homeHead(),
      pages: (app, helpers) => services.registerPages(app, helpers),
    });

    return {
      config,
      services,
      rest,
      restUrl,
      fields,
      events,
      http,
      log,
      async close() {
        await http.close();
        await services.close();
      },
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}
