import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

type Index = { namespaces: string[]; routes: Record<string, { namespace: string; methods: string[]; endpoints: { methods: string[]; args: unknown }[]; _links?: { self: string } }> };

async function index(a: TestApp): Promise<Index> {
  return (await a.request({ path: '/wp-json/' })).json as Index;
}

describe('route registration', () => {
  it('rejects an empty namespace or route, registers nothing and warns naming the call', async () => {
    const results: boolean[] = [];
    app = await createTestApp({
      plugins: [
        (api: SitewardApi) => {
          results.push(api.registerRoute('', '/x', { callback: () => 1 }));
          results.push(api.registerRoute('ns/v1', '', { callback: () => 1 }));
        },
      ],
    });
    expect(results).toEqual([false, false]);
    expect(app.warnings.join('\n')).toContain('registerRoute("", "/x")');
    expect(app.warnings.join('\n')).toContain('registerRoute("ns/v1", "")');
    const doc = await index(app);
    expect(doc.namespaces).not.toContain('ns/v1');
    expect(Object.keys(doc.routes).some((r) => r.includes('/x'))).toBe(false);
  });

  it('builds the full route from trimmed namespace and route', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('//ns/v1//', '//a/b//', { callback: () => 'ok' })] });
    expect(Object.keys((await index(app)).routes)).toContain('/ns/v1/a/b');
    expect((await app.request({ path: '/wp-json/ns/v1/a/b' })).json).toBe('ok');
  });

  it('defaults an endpoint to GET with no arguments', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('ns/v1', 'plain', { callback: () => 'ok' })] });
    const route = (await index(app)).routes['/ns/v1/plain']!;
    expect(route.endpoints).toEqual([{ methods: ['GET'], args: [] }]);
    expect((await app.request({ path: '/wp-json/ns/v1/plain' })).status).toBe(200);
    expect((await app.request({ method: 'POST', path: '/wp-json/ns/v1/plain' })).status).toBe(404);
  });

  it('answers rest_invalid_handler for an endpoint without callback', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('ns/v1', 'nocb', {})] });
    const res = await app.request({ path: '/wp-json/ns/v1/nocb' });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ code: 'rest_invalid_handler', message: 'The handler for the route is invalid', data: { status: 500 } });
  });

  it('appends endpoints when the route is registered again and keeps the first match first', async () => {
    app = await createTestApp({
      plugins: [
        (api: SitewardApi) => {
          api.registerRoute('ns/v1', 'r', { methods: 'GET', callback: () => 'first' });
          api.registerRoute('ns/v1', 'r', [{ methods: 'GET', callback: () => 'second' }, { methods: 'POST', callback: () => 'posted' }]);
        },
      ],
    });
    const route = (await index(app)).routes['/ns/v1/r']!;
    expect(route.methods).toEqual(['GET', 'GET', 'POST']);
    expect((await app.request({ path: '/wp-json/ns/v1/r' })).json).toBe('first');
    expect((await app.request({ method: 'POST', path: '/wp-json/ns/v1/r' })).json).toBe('posted');
  });

  it('lets newer route-level options win when merging', async () => {
    app = await createTestApp({
      plugins: [
        (api: SitewardApi) => {
          api.registerRoute('ns/v1', 'r', Object.assign([{ callback: () => 1 }], { schema: () => ({ title: 'old' }) }));
          api.registerRoute('ns/v1', 'r', Object.assign([{ methods: 'POST', callback: () => 2 }], { schema: () => ({ title: 'new' }) }));
        },
      ],
    });
    const res = await app.request({ method: 'OPTIONS', path: '/wp-json/ns/v1/r' });
    expect((res.json as { schema: unknown }).schema).toEqual({ title: 'new' });
  });

  it('replaces the route when registered with override', async () => {
    app = await createTestApp({
      plugins: [
        (api: SitewardApi) => {
          api.registerRoute('ns/v1', 'r', [{ methods: 'GET', callback: () => 'old' }, { methods: 'POST', callback: () => 'old' }]);
          api.registerRoute('ns/v1', 'r', { methods: 'PUT', callback: () => 'new' }, true);
        },
      ],
    });
    expect((await index(app)).routes['/ns/v1/r']!.methods).toEqual(['PUT']);
    expect((await app.request({ path: '/wp-json/ns/v1/r' })).status).toBe(404);
    expect((await app.request({ method: 'PUT', path: '/wp-json/ns/v1/r' })).json).toBe('new');
  });

  it('accepts methods as a comma-separated string, trims and upper-cases them', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('ns/v1', 'm', { methods: ' get, post ,put', callback: (r) => r.method })] });
    expect((await index(app)).routes['/ns/v1/m']!.endpoints[0]!.methods).toEqual(['GET', 'POST', 'PUT']);
    expect((await app.request({ method: 'PUT', path: '/wp-json/ns/v1/m' })).json).toBe('PUT');
  });

  it('stores :name as (?P<name>[^/]+) and keeps (?P<…>) patterns verbatim as index keys', async () => {
    app = await createTestApp({
      plugins: [
        (api: SitewardApi) => {
          api.registerRoute('ns/v1', '/module/:slug/active', { callback: () => 1 });
          api.registerRoute('ns/v1', '/module/(?P<slug>[a-z\\-]+)', { callback: () => 1 });
        },
      ],
    });
    const keys = Object.keys((await index(app)).routes);
    expect(keys).toContain('/ns/v1/module/(?P<slug>[^/]+)/active');
    expect(keys).toContain('/ns/v1/module/(?P<slug>[a-z\\-]+)');
    expect((await index(app)).routes['/ns/v1/module/(?P<slug>[a-z\\-]+)']!._links).toBeUndefined();
  });

  it('rejects an invalid pattern with a developer warning', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('ns/v1', '/bad/(?P<x>[a-', { callback: () => 1 })] });
    expect(app.warnings.join('\n')).toMatch(/registerRoute\("ns\/v1", "\/bad/);
  });

  it('registers the namespace index before the namespace’s first route', async () => {
    app = await createTestApp({ plugins: [(api: SitewardApi) => void api.registerRoute('ns/v1', 'a', { callback: () => 1 })] });
    const keys = Object.keys((await index(app)).routes);
    expect(keys.indexOf('/ns/v1')).toBe(keys.indexOf('/ns/v1/a') - 1);
    expect((await index(app)).routes['/ns/v1']!.endpoints[0]).toEqual({
      methods: ['GET'],
      args: { namespace: { required: false, default: 'ns/v1' }, context: { required: false, default: 'view' } },
    });
  });

  it('loads a plugin module from a path given in SITEWARD_PLUGINS', async () => {
    app = await createTestApp({ env: { SITEWARD_PLUGINS: new URL('../../test/fixtures/hello-plugin.js', import.meta.url).pathname } });
    expect((await app.request({ path: '/wp-json/hello/v1/greet/Ann' })).json).toEqual({ hello: 'Ann' });
  });

  it('loads a plugin given as the name of an installed npm package', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-pkg-'));
    try {
      const pkg = path.join(dataDir, 'node_modules', 'siteward-plugin-hello');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'siteward-plugin-hello', type: 'module', main: 'index.js' }));
      writeFileSync(path.join(pkg, 'index.js'), "export default async (api) => { api.registerRoute('pkg/v1', '/ping', { callback: () => 'pong' }); };");
      app = await createTestApp({ dataDir, env: { SITEWARD_PLUGINS: 'siteward-plugin-hello' } });
      expect((await app.request({ path: '/wp-json/pkg/v1/ping' })).json).toBe('pong');
      await app.close();
      app = undefined;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops start-up with a clear message when a plugin cannot be loaded', async () => {
    await expect(createTestApp({ env: { SITEWARD_PLUGINS: '/nonexistent/plugin.js' } })).rejects.toThrow(/Plugin "\/nonexistent\/plugin.js" could not be loaded/);
    await expect(createTestApp({ env: { SITEWARD_PLUGINS: new URL('../../test/fixtures/not-a-plugin.js', import.meta.url).pathname } })).rejects.toThrow(
      /must default-export a register\(api\) function/,
    );
  });
});
