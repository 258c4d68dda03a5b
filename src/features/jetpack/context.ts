/**
 * What the application hands the site-management plugin. Kept small and explicit: the lead wires
 * it from the real store, auth and connection services.
 */
import type { EventBus } from '../../core/events.js';
import type { FieldRegistry } from '../../rest/field-registry.js';
import type { JsonValue } from '../../core/json.js';
import type { Principal } from '../../rest/types.js';
import type { RequestSources } from '../audit/index.js';
import type { OptionsRepo, StoreTx } from '../../store/types.js';
import type { DevModeState } from '../jetpack-v4/permissions.js';
import { ModuleCatalog } from './catalog/module-catalog.js';

export type { DevModeState };

export interface PluginSite {
  /** Home URL, e.g. `http://example.com` (a trailing slash is tolerated). */
  homeUrl(): string;
  /** Admin page URL, e.g. `http://example.com/admin/`. */
  adminUrl(): string;
  /** REST root ending in `/`, e.g. `http://example.com/wp-json/`. */
  restRoot(): string;
  devMode(): DevModeState;
  /** Whether the site is connected to the central account service. */
  isConnected(): Promise<boolean>;
  /** Siteward's version (Initial_State `currentVersion`). */
  readonly version: string;
}

export interface PluginStore {
  readonly options: OptionsRepo;
  /**
   * Runs `fn` in one options transaction: all its writes happen or none, and no other writer's
   * change comes in between. `fn` may run more than once (another process wrote first), so it
   * must have no effect but its option reads and writes (see Store.optionsTransaction).
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
}

export interface PluginContext {
  /** The module catalog; absent: one with the built-in modules is made (and kept per context). */
  catalog?: ModuleCatalog;
  store: PluginStore;
  /** The bus behind `api.on`, so plugins hear `module.activated` and the rest. */
  events: EventBus;
  site: PluginSite;
  /** A nonce for `action` and `user` (module records' activate/deactivate nonces). */
  createNonce(action: string, user: Principal): string;
  /** Extra fields registered by plugins (`api.registerField('jetpack_module', …)`) for module records. */
  fields?: FieldRegistry;
  /** What `GET settings` answers: the spec's site-level settings (default) or Jetpack 4.4+'s object of every key (docs/spec/current-clients.md A.4). */
  settingsShape?: 'spec' | 'current';
  /** The `/user-connection-data` body of the connection service; absent: a not-connected body is built. */
  userConnectionData?(user: Principal): Promise<JsonValue>;
  /** Whether an account service is configured (SITEWARD_ACCOUNTS_ISSUER); absent: not said. */
  accountServiceConfigured?: boolean;
  /** Who a request's changes are recorded as (audit events); absent: application passwords are not named. */
  auditSources?: RequestSources;
}

const catalogs = new WeakMap<PluginContext, ModuleCatalog>();

/** The context's catalog: `ctx.catalog`, else one built-in catalog per context (so routes and initial state agree). */
export function catalogOf(ctx: PluginContext): ModuleCatalog {
  if (ctx.catalog) return ctx.catalog;
  let catalog = catalogs.get(ctx);
  if (!catalog) {
    catalog = new ModuleCatalog();
    catalogs.set(ctx, catalog);
  }
  return catalog;
}
