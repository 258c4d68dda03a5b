import type { Logger as PinoLogger } from 'pino';
import type { Config } from '../config/config.js';
import type { EventBus } from '../core/events.js';
import type { ModuleDefinition } from './module-types.js';
import type { AbilityCategoryDefinition, AbilityDefinition } from './ability-types.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { deprecatedArgument, deprecatedFunction } from '../rest/deprecation.js';
import type { FieldRegistry } from '../rest/field-registry.js';
import type { RestServer } from '../rest/rest-server.js';
import type { RestUrlBuilder } from '../rest/rest-url.js';
import type { OptionsRepo } from '../store/types.js';
import type { Logger, SitewardApi } from './api.js';
import { pluginAudit, type PluginAuditDeps } from './plugin-audit.js';

export interface PluginApiDeps {
  config: Config;
  rest: RestServer;
  fields: FieldRegistry;
  restUrl: RestUrlBuilder;
  events: EventBus;
  options: OptionsRepo;
  jobs: JobRunner;
  logger: PinoLogger | false;
  /** Adds a module to the jetpack/v4 catalog; throws when that feature is not loaded. */
  registerModule(definition: ModuleDefinition): void;
  /** The abilities registry (the abilities feature); throws when that feature is not loaded. */
  abilities(): AbilityRegistrar;
  /** Where `api.audit` writes. */
  audit: PluginAuditDeps;
}

/** Where `api.registerAbility` and `api.registerAbilityCategory` go. */
export interface AbilityRegistrar {
  register(name: string, definition: AbilityDefinition): void;
  registerCategory(slug: string, definition: AbilityCategoryDefinition): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/**
 * The plugin API one plugin (or built-in feature) gets; `name` labels its log lines, `owner` its
 * routes in the route table (a feature's name, or `plugin:<name>`).
 */
export function createPluginApi(name: string, deps: PluginApiDeps, owner = name): SitewardApi {
  const { config } = deps;
  return {
    registerRoute: (ns, route, def, override) => deps.rest.registerRoute(ns, route, def, override, owner),
    registerField: (type, attribute, def) => deps.fields.register(type, attribute, def),
    deprecatedFunction,
    deprecatedArgument,
    restUrl: (path) => deps.restUrl(path),
    on: (event, listener) => deps.events.on(event, listener),
    options: deps.options,
    site: { homeUrl: config.homeUrl, restPrefix: config.restPrefix, permalinks: config.permalinks },
    log: deps.logger === false ? silentLogger : deps.logger.child({ plugin: name }),
    registerModule: (def) => deps.registerModule(def),
    addJob: (job) => deps.jobs.add(job),
    registerAbility: (abilityName, def) => deps.abilities().register(abilityName, def as AbilityDefinition),
    registerAbilityCategory: (slug, def) => deps.abilities().registerCategory(slug, def),
    audit: pluginAudit(name, deps.audit),
  };
}
