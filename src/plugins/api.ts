import type { JsonValue } from '../core/json.js';
import type { Permalinks } from '../core/permalinks.js';
import type { EndpointDefinition, RestRequest, RouteOptions } from '../rest/types.js';
import type { AuditChange, AuditObject, AuditResult } from '../wire/audit.js';
import type { FieldDefinition } from '../rest/field-registry.js';
import type { EventName, Listener } from '../core/events.js';
import type { OptionsRepo } from '../store/types.js';
import type { Logger } from '../core/logger.js';
import type { ModuleDefinition } from './module-types.js';
import type { AbilityCategoryDefinition, AbilityDefinition } from './ability-types.js';
import type { BackgroundJob } from '../jobs/job-runner.js';

/** A route definition: one endpoint, or a list of endpoints with optional route-level options. */
export type RouteDefinition = EndpointDefinition | (readonly EndpointDefinition[] & RouteOptions) | (EndpointDefinition & RouteOptions);

export type { Logger };

/** Facts about the site that plugins may read. */
export interface SiteInfo {
  readonly homeUrl: string;
  readonly restPrefix: string;
  readonly permalinks: Permalinks;
}

/**
 * The extension API handed to every plugin's `register(api)`.
 *
 * @example
 * export default function register(api: SitewardApi) {
 *   api.registerRoute('my-plugin/v1', '/hello/:name', {
 *     callback: (req) => ({ hello: req.params.name }),
 *   });
 * }
 */
export interface SitewardApi {
  /** Registers a route (docs/spec/site-management-api.md §4.2). Returns false (and logs a developer warning) for an empty namespace or route. */
  registerRoute(namespace: string, route: string, definition: RouteDefinition, override?: boolean): boolean;
  /** Registers an extra response field on an object type (docs/spec/site-management-api.md §2.6). */
  registerField(objectType: string | readonly string[], attribute: string, definition: FieldDefinition): void;
  /**
   * Reports use of a deprecated function during the current request (`X-WP-DeprecatedFunction`).
   * A third-party plugin's API (see request-context.ts) reaches the request also after `await`;
   * a built-in feature's only before its callback's first `await` (use `request.deprecatedFunction` after).
   */
  deprecatedFunction(name: string, version: string, replacement?: string): void;
  /** Reports use of a deprecated argument during the current request (`X-WP-DeprecatedParam`); reach as above. */
  deprecatedArgument(name: string, version: string, message?: string): void;
  /** The full REST URL of a path, e.g. `restUrl('/jetpack/v4/module/all')`. */
  restUrl(path?: string): string;
  /** Subscribes to a Siteward event; returns an unsubscribe function. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void;
  /** Site options storage (key → JSON). Plugins should prefix their keys. */
  readonly options: OptionsRepo;
  readonly site: SiteInfo;
  readonly log: Logger;
  /** Adds a module to the site-management plugin's catalog (docs/spec/jetpack-v4-reference.md §5). */
  registerModule(definition: ModuleDefinition): void;
  /** Adds a periodic job, run on exactly one of the processes sharing the store. */
  addJob(job: BackgroundJob): void;
  /**
   * Registers an ability (WordPress's `wp_register_ability`, docs/spec/abilities-mcp.md A.1):
   * `namespace/name`, a registered category, schemas, annotations; served by `wp-abilities/v1`
   * (with `meta.show_in_rest`) and the MCP servers (with `meta.mcp.public`). Throws on a bad name
   * or an unknown category.
   */
  registerAbility<I = unknown>(name: string, definition: AbilityDefinition<I>): void;
  /** Registers an ability category (WordPress's `wp_register_ability_category`), before its abilities. */
  registerAbilityCategory(slug: string, definition: AbilityCategoryDefinition): void;
  /**
   * Records an event of the plugin's own in the audit log (docs/plugins.md "Audit events"): the
   * same shape and hash chain as Siteward's. `action` is dotted, lower case and plugin-prefixed:
   * `plugin.<vendor>.<event>` (e.g. `plugin.acme-forms.form_deleted`); anything else throws a
   * TypeError. With `request`, the actor, credential, address, user agent and request id are
   * the request's; without, the actor is a job named `plugin:<plugin>`. Resolves once written;
   * secrets go as `{secret: true}`, never their value.
   */
  audit(
    action: string,
    object: AuditObject | null,
    changes?: Readonly<Record<string, AuditChange>>,
    options?: PluginAuditOptions,
  ): Promise<void>;
}

/** How a plugin's audit event came about. */
export interface PluginAuditOptions {
  /** The REST request the change came with (its callback's argument). */
  readonly request?: RestRequest;
  /** Default `ok`. */
  readonly result?: AuditResult;
}

/** A plugin module's default export. */
export type PluginRegister = (api: SitewardApi) => void | Promise<void>;

export type { FieldDefinition, JsonValue };
