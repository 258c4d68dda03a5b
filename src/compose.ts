/**
 * The composition root: every part of a running Siteward process is built here, in order,
 * each from the ones before it: config → store → auth → REST layer → features → HTTP.
 * See docs/architecture.md for the picture; docs/routes.md (generated) says who serves which path.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { createAuthenticator, type SitewardAuthenticator } from './auth/authenticator.js';
import { createReplayPolicy } from './auth/replay-policy.js';
import { PasswordGuards } from './auth/password-guards.js';
import { loadSecrets, type Secrets } from './auth/secrets.js';
import { createUserService, type UserService } from './auth/user-service.js';
import { ConfigError, type Config } from './config/config.js';
import { isServiceUnavailable } from './core/unavailable.js';
import { EventBus } from './core/events.js';
import type { RouteRow } from './core/route-table.js';
import { errorKey, LogThrottle } from './core/log-throttle.js';
import type { AssetDirectory, CliCommand, Feature, FeatureContext, FeatureServices, PageDefinition } from './features/contract.js';
import { builtInFeatures } from './features/index.js';
import { buildHttpServer, stopListening, type Owned } from './http/server.js';
import { JobRunner } from './jobs/job-runner.js';
import type { Logger, PluginRegister } from './plugins/api.js';
import { createPluginApi, silentLogger } from './plugins/plugin-api.js';
import { loadPlugin, runPlugin } from './plugins/plugin-loader.js';
import { withRequestContext } from './plugins/request-context.js';
import { FieldRegistry } from './rest/field-registry.js';
import { RestServer, type SiteSummary } from './rest/rest-server.js';
import { SITEWARD_VERSION } from './core/version.js';
import { createRestUrlBuilder, type RestUrlBuilder } from './rest/rest-url.js';
import { openStore, type OpenStoreOptions } from './store/index.js';
import { pgAddress } from './store/pg-address.js';
import type { MigrationFactory } from './store/migrations.js';
import type { Store } from './store/types.js';
import { RequestSources } from './features/audit/source.js';
import type { RestRequest } from './rest/types.js';
import type { AuditEventInput } from './wire/audit.js';

/** A running Siteward instance (one process). */
export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly secrets: Secrets;
  readonly authenticator: SitewardAuthenticator;
  readonly users: UserService;
  readonly rest: RestServer;
  readonly restUrl: RestUrlBuilder;
  readonly fields: FieldRegistry;
  readonly events: EventBus;
  readonly jobs: JobRunner;
  /** Every REST route, page and asset mount with who registered it (`siteward routes`, docs/routes.md). */
  routes(): RouteRow[];
  /** CLI subcommands declared by features. */
  readonly commands: readonly CliCommand[];
  readonly http: FastifyInstance;
  readonly log: PinoLogger | Logger;
  /** Closes the HTTP server (finishing in-flight requests), stops the jobs and closes the store. */
  close(): Promise<void>;
}

export interface CreateAppOptions {
  logger: PinoLogger | false;
  /** Working directory for relative plugin paths. */
  cwd?: string;
  /** Plugins given in code (tests, embedding), registered after the configured ones. */
  plugins?: readonly PluginRegister[];
  /** Features instead of the built-in list (tests, embedding). */
  features?: readonly Feature[];
  /** Receives developer warnings (`_doing_it_wrong`) in addition to the log. */
  onWarning?: (message: string) => void;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
  /** Start the background-job runner (default true; the CLI and some tests do not). */
  startJobs?: boolean;
  /** See HttpServerDeps.listenerClosed (given by the cluster's workers). */
  listenerClosed?: () => Promise<void>;
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/** The migrations all `features` declare, merged (names are global). */
export function featureMigrations(features: readonly Feature[]): Readonly<Record<string, MigrationFactory>> {
  return Object.assign({}, ...features.map((f) => f.migrations ?? {})) as Record<string, MigrationFactory>;
}

/** Opens the configured store with the tables the features declare (every opener must pass them all). */
export function openConfiguredStore(
  config: Config,
  features: readonly Feature[] = builtInFeatures,
  onConnectionError?: (error: Error) => void,
  onHostSwitch?: OpenStoreOptions['onHostSwitch'],
): Promise<Store> {
  const migrations = featureMigrations(features);
  const seed = {
    blogname: config.siteName,
    blogdescription: config.siteDescription,
    timezone_string: config.timezone,
    WPLANG: config.locale === 'en_US' ? '' : config.locale,
  };
  const named = (error: unknown): never => {
    // At start the operator needs the setting and the address, as for any other bad setting.
    if (config.databaseUrl !== null && isServiceUnavailable(error)) {
      throw new ConfigError(
        `SITEWARD_DATABASE_URL (config "databaseUrl"): cannot reach PostgreSQL at ${pgAddress(config.databaseUrl)} (${error.reason}); check the host and port and that the server runs.`,
      );
    }
    throw error;
  };
  return openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl ?? undefined,
    seed,
    migrations,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    // SQLite's equivalent of a statement that cannot finish: waiting for another process's lock.
    busyTimeoutMs: config.dbStatementTimeoutMs,
    ...(config.dbListen ? {} : { versionRecheckMs: 0 }),
    onConnectionError,
    ...(onHostSwitch ? { onHostSwitch } : {}),
  }).catch(named);
}

/** Builds a Siteward instance from its configuration. */
export async function createApp(config: Config, options: CreateAppOptions): Promise<App> {
  const log: PinoLogger | Logger = options.logger === false ? silentLogger : options.logger;
  const clock = options.clock ?? Date.now;
  const features = options.features ?? builtInFeatures;

  // Repeated identical failures (a full disk, a database outage) are logged once per window.
  const logThrottle = new LogThrottle(10_000, clock);
  const logOnce = (context: string, error: unknown, write: (suppressed: number) => void) => {
    const verdict = logThrottle.admit(errorKey(context, error));
    if (verdict.log) write(verdict.suppressed);
  };
  const store = await openConfiguredStore(
    config,
    features,
    (error) =>
      logOnce('pool', error, (suppressed) =>
        log.warn({ err: error, ...(suppressed > 0 ? { suppressed } : {}) }, 'database connection lost; the pool will reconnect'),
      ),
    // Several PostgreSQL hosts: which one is in use, at start and after each failover.
    (from, to) =>
      (from === null ? log.info.bind(log) : log.warn.bind(log))(
        { host: `${to.host}:${to.port}`, ...(from ? { previous: `${from.host}:${from.port}` } : {}) },
        from === null ? 'PostgreSQL host in use' : 'PostgreSQL host in use changed (failover): caches reloaded from the new primary',
      ),
  );
  try {
    // Authentication.
    const secrets = await loadSecrets({ dataDir: config.dataDir });
    const urlDevMode = !new URL(config.homeUrl).hostname.includes('.');
    const devMode = () => ({ constant: config.offline, url: urlDevMode });
    const guards = new PasswordGuards();
    const authenticator = createAuthenticator({ store, secrets, devMode: () => config.offline || urlDevMode, guards });
    const users = createUserService(store, { onUserChanged: (id) => authenticator.forgetUser(id) });

    // The REST layer.
    const warn = (message: string, detail?: unknown) => {
      options.onWarning?.(message);
      if (detail !== undefined)
        logOnce(message, detail, (suppressed) => log.error({ err: detail, ...(suppressed > 0 ? { suppressed } : {}) }, message));
      else log.warn(message);
    };
    const restUrl = createRestUrlBuilder(config);
    const siteSummary = async (): Promise<SiteSummary> => {
      const o = await store.options.getMany(['blogname', 'blogdescription']);
      return {
        name: str(o.get('blogname'), config.siteName),
        description: str(o.get('blogdescription'), ''),
        url: config.homeUrl,
        home: config.homeUrl,
      };
    };
    const rest = new RestServer({
      urls: restUrl,
      authenticator,
      siteSummary,
      warn,
      maxBatchItems: config.batchMaxItems,
      productVersion: SITEWARD_VERSION,
      // The authenticator's clock (the system's): the nonce tick and sessions end on it.
      replay: createReplayPolicy({ store }),
    });
    const fields = new FieldRegistry();
    const events = new EventBus((event, error) => log.error({ err: error, event }, 'event listener failed'));
    const jobs = new JobRunner({ leases: store.leases, log, clock, leaseMs: config.jobLeaseMs });
    const closeHooks: (() => Promise<void>)[] = [];

    // Features, then third-party plugins, each declaring what it contributes.
    const pages: Owned<PageDefinition>[] = [];
    const assets: Owned<AssetDirectory>[] = [];
    const headTags: (() => Promise<readonly string[]>)[] = [];
    const commands: CliCommand[] = [];
    const provided = new Map<keyof FeatureServices, unknown>();
    const registerModule: Parameters<typeof createPluginApi>[1]['registerModule'] = (def) => {
      const modules = provided.get('modules') as FeatureServices['modules'] | undefined;
      if (!modules) throw new Error('registerModule: no loaded feature keeps modules (the jetpack feature provides "modules")');
      modules.registerModule(def);
    };
    const abilities = () => {
      const registry = provided.get('abilities') as FeatureServices['abilities'] | undefined;
      if (!registry) throw new Error('registerAbility: no loaded feature keeps abilities (the abilities feature provides "abilities")');
      return registry;
    };
    const auditSources = new RequestSources(store.appPasswords, clock);
    const apiDeps = {
      config,
      rest,
      fields,
      restUrl,
      events,
      options: store.options,
      jobs,
      logger: options.logger,
      registerModule,
      abilities,
      audit: {
        source: (request: RestRequest) => auditSources.of(request),
        append: (events: readonly AuditEventInput[]) => store.auditLog.append(events),
      },
    };
    const migrations = featureMigrations(features);
    const cwd = options.cwd ?? process.cwd();
    for (const feature of features) {
      const ctx: FeatureContext = {
        config,
        store,
        migrations,
        cwd,
        log,
        events,
        clock,
        fields,
        api: createPluginApi(feature.name, apiDeps),
        auth: { authenticator, users },
        secrets,
        site: { homeUrl: config.homeUrl, devMode },
        addPage: (page) => void pages.push({ ...page, owner: feature.name }),
        addAssets: (dir) => void assets.push({ ...dir, owner: feature.name }),
        addJob: (job) => jobs.add(job),
        onClose: (hook) => void closeHooks.push(hook),
        addPasswordGuard: (guard) => guards.add(guard),
        onRequestRefused: (observer) => rest.onRefusal(observer),
        addHeadTags: (source) => void headTags.push(source),
        addCommand: (command) => void commands.push(command),
        provide: (key, value) => {
          if (provided.has(key)) throw new Error(`feature ${feature.name}: "${key}" is already provided`);
          provided.set(key, value);
        },
        need: (key) => {
          if (!provided.has(key)) throw new Error(`feature ${feature.name} needs "${key}", which no earlier feature provides`);
          return provided.get(key) as FeatureServices[typeof key];
        },
      };
      await feature.register(ctx);
    }
    // Third-party plugins' callbacks are tracked across `await` (deprecation notices); built-in ones need not be.
    for (const entry of config.plugins)
      await runPlugin(entry, await loadPlugin(entry, cwd), withRequestContext(createPluginApi(entry, apiDeps, `plugin:${entry}`)));
    for (const [i, register] of (options.plugins ?? []).entries()) {
      const name = register.name || `inline-${i}`;
      await runPlugin(name, register, withRequestContext(createPluginApi(name, apiDeps, `plugin:${name}`)));
    }

    // HTTP.
    const pageRows: RouteRow[] = [];
    const http = await buildHttpServer({
      config,
      rest,
      restUrl,
      logger: options.logger,
      homeHead: async () => {
        const site = await siteSummary();
        const tags = (await Promise.all(headTags.map((source) => source()))).flat();
        return { name: site.name, description: site.description, headTags: tags };
      },
      pages,
      assets,
      recordRoute: (row) => void pageRows.push(row),
      identify: async (headers, ip) => authenticator.identify(headers, ip),
      formKey: secrets.formKey,
      logThrottle,
      ...(options.listenerClosed ? { listenerClosed: options.listenerClosed } : {}),
    });
    if (options.startJobs !== false) jobs.start();

    return {
      config,
      store,
      secrets,
      authenticator,
      users,
      rest,
      restUrl,
      fields,
      events,
      jobs,
      commands,
      http,
      log,
      routes: () => [...rest.routeTable(config.restPrefix), ...pageRows],
      async close() {
        await stopListening(http);
        await http.close();
        for (const hook of closeHooks)
          await hook().catch((error: unknown) => log.warn({ err: error }, 'a feature could not finish closing'));
        await jobs.stop().catch((error: unknown) => log.warn({ err: error }, 'could not release the background-job lease'));
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
