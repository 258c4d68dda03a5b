/**
 * Test helper (not a test file): a plugin context over a real SQLite store in a temp directory,
 * with switchable connection/dev mode, principals of WordPress's standard roles, and a log of
 * emitted events.
 */
import { EventBus, type EventName, type SitewardEvents } from '../../../core/events.js';
import type { Principal } from '../../../rest/types.js';
import { testStores, type TestBackend } from '../../../store/testing/test-stores.js';
import type { Store } from '../../../store/types.js';
import { ModuleCatalog } from '../catalog/module-catalog.js';
import type { DevModeState, PluginContext } from '../context.js';

/** docs/spec/compat.md §10: the capabilities that matter, per role. */
const ROLE_CAPS: Record<string, readonly string[]> = {
  administrator: [
    'manage_options',
    'activate_plugins',
    'list_users',
    'edit_posts',
    'edit_others_posts',
    'publish_posts',
    'moderate_comments',
    'upload_files',
    'read',
  ],
  editor: ['edit_posts', 'edit_others_posts', 'publish_posts', 'moderate_comments', 'read'],
  author: ['edit_posts', 'publish_posts', 'upload_files', 'read'],
  contributor: ['edit_posts', 'read'],
  subscriber: ['read'],
};

/** A principal of `role` (null: anonymous, id 0). */
export function principal(role: string | null, id = role === null ? 0 : 1): Principal {
  const caps = role === null ? [] : (ROLE_CAPS[role] ?? []);
  return {
    id,
    login: role ?? '',
    email: role === null ? '' : `${role}${id}@example.org`,
    displayName: role ?? '',
    roles: role === null ? [] : [role],
    can: (capability: string) => caps.includes(capability),
  };
}

export interface PluginFixture {
  readonly ctx: PluginContext;
  readonly catalog: ModuleCatalog;
  readonly store: Store;
  readonly events: EventBus;
  /** Mutable site facts the context reports. */
  readonly site: { connected: boolean; devMode: DevModeState };
  /** Every emitted event, in order. */
  readonly emitted: Array<{ event: EventName; payload: SitewardEvents[EventName] }>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  connected?: boolean;
  devMode?: Partial<DevModeState>;
  catalog?: ModuleCatalog;
}

const ALL_EVENTS: EventName[] = ['module.activated', 'module.deactivated', 'module.option_updated', 'setting.updated', 'options.reset'];

export async function createPluginFixture(options: FixtureOptions = {}): Promise<PluginFixture> {
  const backend: TestBackend = testStores()[0]!;
  const store = await backend.open();
  const events = new EventBus((event, error) => {
    throw new Error(`listener of ${event} failed: ${String(error)}`);
  });
  const emitted: PluginFixture['emitted'] = [];
  for (const event of ALL_EVENTS) events.on(event, (payload) => void emitted.push({ event, payload }));
  const site = {
    connected: options.connected ?? false,
    devMode: { constant: false, url: false, ...options.devMode, filter: false as const },
  };
  const catalog = options.catalog ?? new ModuleCatalog();
  const ctx: PluginContext = {
    catalog,
    store,
    events,
    site: {
      homeUrl: () => 'http://example.org',
      adminUrl: () => 'http://example.org/admin/',
      restRoot: () => 'http://example.org/wp-json/',
      devMode: () => ({ ...site.devMode }),
      isConnected: async () => site.connected,
      version: '0.1.0',
    },
    createNonce: (action, user) => `nonce:${action}:${user.id}`,
  };
  return { ctx, catalog, store, events, site, emitted, close: () => backend.cleanup() };
}
