/**
 * Today's WordPress clients, unchanged, against a real Siteward server (docs/spec/current-clients.md §F):
 * `@wordpress/core-data` with `@wordpress/data` and `@wordpress/api-fetch`, and `wpapi`.
 * They are browser-first libraries loaded in Node through `require` (their CommonJS builds): the
 * editor components core-data pulls in read `document`, `window` and `navigator` when loaded,
 * so those get inert stand-ins first. Requests go through Node's own `fetch`. Loading those
 * dependencies takes most of the time, hence the long timeouts.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

const require = createRequire(import.meta.url);

/** An object whose every property and call is another such object (iterable, empty, prints as ''). */
function inert(): unknown {
  return new Proxy(function () {}, {
    get: (_t, key) =>
      key === Symbol.iterator
        ? function* () {}
        : key === Symbol.toPrimitive
          ? () => ''
          : key === 'length'
            ? 0
            : key === 'visibilityState'
              ? 'visible'
              : key === 'then'
                ? undefined
                : inert(),
    apply: () => inert(),
    construct: () => inert() as object,
  });
}

/** The globals the stand-ins below replace, put back after the file (other files share the worker). */
const BROWSER_GLOBALS = ['document', 'window', 'addEventListener', 'removeEventListener', 'navigator'] as const;
const savedGlobals = BROWSER_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
afterAll(() => {
  for (const [name, descriptor] of savedGlobals) {
    if (descriptor === undefined) Reflect.deleteProperty(globalThis, name);
    else Object.defineProperty(globalThis, name, descriptor);
  }
});

function loadBrowserLibraries() {
  const g = globalThis as Record<string, unknown>;
  g.document ??= inert();
  g.window ??= globalThis;
  g.addEventListener ??= () => undefined;
  g.removeEventListener ??= () => undefined;
  if (!('navigator' in globalThis))
    Object.defineProperty(globalThis, 'navigator', { value: { platform: '', userAgent: 'node' }, configurable: true });
  const data = require('@wordpress/data') as { createRegistry: () => Registry };
  const coreData = require('@wordpress/core-data') as { store: unknown };
  const apiFetch = (require('@wordpress/api-fetch') as { default: ApiFetch }).default;
  const WPAPI = require('wpapi') as new (options: { endpoint: string; username?: string; password?: string }) => Wpapi;
  return { data, coreData, apiFetch, WPAPI };
}

type Middleware = (options: Record<string, unknown>, next: (options: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;
interface ApiFetch {
  use(middleware: Middleware): void;
  createRootURLMiddleware(root: string): Middleware;
  createNonceMiddleware(nonce: string): Middleware;
}
type Json = Record<string, unknown>;
interface Registry {
  register(store: unknown): void;
  resolveSelect(store: unknown): Record<string, (...args: unknown[]) => Promise<unknown>>;
  select(store: unknown): Record<string, (...args: unknown[]) => unknown>;
  dispatch(store: unknown): Record<string, (...args: unknown[]) => Promise<unknown>>;
}
interface WpapiRequest {
  get(): Promise<unknown>;
  create(data: object): Promise<unknown>;
  update(data: object): Promise<unknown>;
  delete(data?: object): Promise<unknown>;
  id(id: number): WpapiRequest;
  param(name: string, value: unknown): WpapiRequest;
}
interface Wpapi {
  users(): WpapiRequest;
}

let t: TestApp;
let admin: LoggedIn;
let root: string;
const seen: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { SITEWARD_SITE_NAME: 'Before' } });
  admin = await t.loginAs('administrator', { login: 'root' });
  const port = (t.app.http.server.address() as { port: number }).port;
  root = `http://127.0.0.1:${port}/wp-json/`;
});
afterAll(async () => t.close());

describe('@wordpress/core-data with @wordpress/data and @wordpress/api-fetch', () => {
  it(
    "reads the current user, reads and saves the site entity, and saves a user through core-data's batch",
    { timeout: 120_000 },
    async () => {
      const { data, coreData, apiFetch } = loadBrowserLibraries();
      // What a WordPress admin page sets up from inline script: the root URL and the nonce; the login cookie as a browser would send it.
      apiFetch.use(apiFetch.createRootURLMiddleware(root));
      apiFetch.use(apiFetch.createNonceMiddleware(admin.nonce));
      apiFetch.use((options, next) => {
        seen.push(`${String(options.method ?? 'GET')} ${String(options.url ?? options.path)}`);
        return next({ ...options, headers: { ...(options.headers as Record<string, string>), Cookie: admin.cookie } });
      });
      const registry = data.createRegistry();
      registry.register(coreData.store);
      const select = registry.resolveSelect(coreData.store);

      const me = (await select.getCurrentUser!()) as Json;
      expect(me).toMatchObject({ id: admin.userId, name: 'root', slug: 'root' });

      const site = (await select.getEntityRecord!('root', 'site')) as Json;
      expect(site).toMatchObject({ title: 'Before', url: 'http://example.org' });
      await registry.dispatch(coreData.store).editEntityRecord!('root', 'site', undefined, {
        title: 'After',
        description: 'Saved by core-data',
      });
      await registry.dispatch(coreData.store).saveEditedEntityRecord!('root', 'site', undefined);
      expect(registry.select(coreData.store).getLastEntitySaveError!('root', 'site')).toBeFalsy();
      expect(((await t.request({ path: '/wp-json/' })).json as Json).name).toBe('After');

      const ed = await t.app.users.create({ login: 'ed', email: 'ed@example.org', password: 'long-enough-pw', role: 'editor' });
      if (!ed.ok) throw new Error(ed.error.message);
      const id = ed.value.user.id;
      const results = (await registry.dispatch(coreData.store).__experimentalBatch!([
        ({ saveEntityRecord }: { saveEntityRecord: (kind: string, name: string, record: Json) => Promise<unknown> }) =>
          saveEntityRecord('root', 'user', { id, name: 'Ed Itor', description: 'batched' }),
      ])) as Json[];
      expect(results[0]).toMatchObject({ id, name: 'Ed Itor', description: 'batched' });
      const stored = await t.request({ path: `/wp-json/wp/v2/users/${id}`, headers: t.auth(admin) });
      expect(stored.json).toMatchObject({ name: 'Ed Itor' });
      // The save went through batch/v1, after core-data asked OPTIONS batch/v1 for maxItems.
      expect(seen).toContainEqual(expect.stringMatching(/^OPTIONS .*batch\/v1/));
      expect(seen).toContainEqual(expect.stringMatching(/^POST .*batch\/v1/));
    },
  );
});

describe('wpapi', () => {
  it('lists, creates, updates and deletes users with an application password', { timeout: 60_000 }, async () => {
    const { WPAPI } = loadBrowserLibraries();
    const created = await t.app.authenticator.appPasswords.create('root', 'wpapi');
    if (!created.ok) throw new Error(created.message);
    const wp = new WPAPI({ endpoint: root.replace(/\/$/, ''), username: 'root', password: created.password });

    const listed = (await wp.users().param('context', 'edit').get()) as Json[];
    expect(listed.map((u) => u.username)).toContain('root');
    const made = (await wp
      .users()
      .create({ username: 'wpapi-user', email: 'wpapi@example.org', password: 'long-enough-pw', roles: ['author'] })) as Json;
    expect(made).toMatchObject({ username: 'wpapi-user', roles: ['author'] });
    const id = made.id as number;
    const updated = (await wp.users().id(id).update({ name: 'Updated By wpapi' })) as Json;
    expect(updated).toMatchObject({ id, name: 'Updated By wpapi' });
    const deleted = (await wp.users().id(id).delete({ force: true, reassign: admin.userId })) as Json;
    expect(deleted).toMatchObject({ deleted: true, previous: { id } });
    expect((await t.request({ path: `/wp-json/wp/v2/users/${id}`, headers: t.auth(admin) })).status).toBe(404);
  });
});
