import type { FastifyInstance } from 'fastify';
import type { Logger, SitewardApi } from './plugins/api.js';
import { createAuthenticator, type SitewardAuthenticator } from './auth/authenticator.js';
import { loadSecrets, type Secrets } from './auth/secrets.js';
import { checkSetupToken, completeSetup, ensureSetupToken, setupNeeded } from './auth/setup-token.js';
import { createUserService, type UserService } from './auth/user-service.js';
import { runAppPasswordCommand } from './cli/app-password-commands.js';
import type { CliContext } from './cli/cli-context.js';
import { runUserCommand } from './cli/user-commands.js';
import type { Config } from './config/config.js';
import type { EventBus } from './core/events.js';
import { registerAuthPages } from './http/auth-pages.js';
import type { PageHelpers } from './http/server.js';
import type { ModuleDefinition } from './features/jetpack/module-types.js';
import { RestError } from './rest/errors.js';
import type { SiteSummary } from './rest/rest-server.js';
import type { RestUrlBuilder } from './rest/rest-url.js';
import type { FieldRegistry } from './rest/field-registry.js';
import { JobRunner } from './jobs/job-runner.js';
import { openStore } from './store/index.js';
import type { Store } from './store/types.js';
import { registerSiteManagement, type SiteManagement } from './site-management-wiring.js';

/** Everything below the REST layer that one process uses. */
export interface Services {
  readonly store: Store;
  readonly secrets: Secrets;
  readonly authenticator: SitewardAuthenticator;
  readonly users: UserService;
  /** Dev/offline mode (compat.md §9): forced by configuration, or a home URL host without a dot. */
  devMode(): { constant: boolean; url: boolean };
  siteSummary(): Promise<SiteSummary>;
  homeHead(): Promise<{ name: string; description: string; headTags: string[] }>;
  /** Registers the built-in site-management plugin; returns its module registrar for `api.registerModule`. */
  registerBuiltInPlugins(api: SitewardApi, fields: FieldRegistry): Promise<(def: ModuleDefinition) => void>;
  registerPages(app: FastifyInstance, helpers: PageHelpers): void;
  close(): Promise<void>;
}

function siteSeed(config: Config) {
  return { blogname: config.siteName, blogdescription: config.siteDescription, timezone_string: config.timezone, WPLANG: config.locale === 'en_US' ? '' : config.locale };
}

async function openConfiguredStore(config: Config): Promise<Store> {
  return openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl ?? undefined, seed: siteSeed(config) });
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/** Opens the store, secrets and authentication for one process. */
export async function openServices(config: Config, deps: { log: Logger; events: EventBus; restUrl: RestUrlBuilder }): Promise<Services> {
  const store = await openConfiguredStore(config);
  try {
    const secrets = await loadSecrets({ dataDir: config.dataDir });
    const urlDevMode = !new URL(config.homeUrl).hostname.includes('.');
    const devMode = () => ({ constant: config.offline, url: urlDevMode });
    const isDev = () => config.offline || urlDevMode;
    const authenticator = createAuthenticator({ store, secrets, devMode: isDev });
    const users = createUserService(store, { onUserChanged: (id) => authenticator.forgetUser(id) });
    // Periodic work runs on one process of all those sharing the store (a lease in the store).
    const jobs = new JobRunner({ leases: store.leases, log: deps.log });
    jobs.add({ name: 'purge-expired-sessions', everyMs: 3_600_000, run: () => authenticator.sessions.purgeExpired() });
    jobs.start();
    let siteManagement: SiteManagement | null = null;
    const siteSummary = async (): Promise<SiteSummary> => {
      const o = await store.options.getMany(['blogname', 'blogdescription']);
      return { name: str(o.get('blogname'), config.siteName), description: str(o.get('blogdescription'), ''), url: config.homeUrl, home: config.homeUrl };
    };

    return {
      store,
      secrets,
      authenticator,
      users,
      devMode,
      siteSummary,
      async homeHead() {
        const site = await siteSummary();
        return { name: site.name, description: site.description, headTags: siteManagement ? await siteManagement.headTags() : [] };
      },
      async registerBuiltInPlugins(api, fields) {
        siteManagement = await registerSiteManagement(api, { config, store, events: deps.events, restUrl: deps.restUrl, authenticator, devMode, fields });
        return (def) => siteManagement!.registerModule(def);
      },
      registerPages(app, helpers) {
        registerAuthPages(
          app,
          {
            homeUrl: config.homeUrl,
            async login(input) {
              const result = await authenticator.login(input.login, input.password, { remember: input.remember, userAgent: input.userAgent, ip: input.ip });
              if (!result.ok) return { ok: false, error: new RestError('invalid_login', 'Unknown username or incorrect password.', { status: 401 }) };
              return { ok: true, cookieValue: result.cookie, expiresAt: result.expiresAt, userId: result.user.id, login: result.user.login, identity: result.identity };
            },
            async logout(value) {
              await authenticator.logout(value);
            },
            identify: async (headers) => authenticator.identify(headers),
            createNonce: (action, identity) => authenticator.createNonce(action, identity),
            setup: {
              needed: () => setupNeeded(store),
              checkToken: (token) => checkSetupToken(store, token),
              async createAdmin(input) {
                const result = await completeSetup(store, input.token, { login: input.login, email: input.email, password: input.password });
                return result.ok ? { ok: true } : { ok: false, message: result.error.message };
              },
            },
          },
          helpers,
        );
        siteManagement?.registerPages(app, helpers);
      },
      async close() {
        await jobs.stop().catch((error: unknown) => deps.log.warn({ err: error }, 'could not release the background-job lease'));
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Prints the one-time `/setup` link while no administrator exists (run once, by the primary process). */
export async function printSetupLinkIfNeeded(config: Config, out: (line: string) => void): Promise<void> {
  const store = await openConfiguredStore(config);
  try {
    const token = await ensureSetupToken(store);
    if (token) out(`Create the first administrator: ${config.homeUrl}/setup?token=${token}`);
  } finally {
    await store.close();
  }
}

/** `siteward user …` and `siteward app-password …` against the configured store. */
export async function runStoreCommand(
  config: Config,
  command: 'user' | 'app-password',
  args: string[],
  io: { out: (line: string) => void; err: (line: string) => void; stdin: NodeJS.ReadableStream },
): Promise<number> {
  const store = await openConfiguredStore(config);
  try {
    const ctx: CliContext = { store, stdin: io.stdin, out: io.out, err: io.err };
    return command === 'user' ? await runUserCommand(args, ctx) : await runAppPasswordCommand(args, ctx);
  } finally {
    await store.close();
  }
}
