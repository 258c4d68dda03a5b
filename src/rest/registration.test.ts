/**
 * Route registration (docs/spec/site-management-api.md §4.2), through the REST server itself:
 * `registerRoute` as the plugin API forwards it, `serve()` without a socket. Loading plugins
 * from SITEWARD_PLUGINS is in registration.http.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RestServer, RestOutput } from './rest-server.js';
import { createBareRestServer, get } from './testing/bare-rest-server.js';

type Index = {
  namespaces: string[];
  routes: Record<
    string,
    { namespace: string; methods: string[]; endpoints: { methods: string[]; args: unknown }[]; _links?: { self: string } }
  >;
};

const json = (out: RestOutput): unknown => JSON.parse(String(out.body));

function server(register: (rest: RestServer) => void): { rest: RestServer; warnings: string[] } {
  const warnings: string[] = [];
  const rest = createBareRestServer((message) => warnings.push(message));
  register(rest);
  return { rest, warnings };
}

async function index(rest: RestServer): Promise<Index> {
  return json(await get(rest, '/')) as Index;
}

describe('route registration', () => {
  it('rejects an empty namespace or route, registers nothing and warns naming the call', async () => {
    const results: boolean[] = [];
    const { rest, warnings } = server((r) => {
      results.push(r.registerRoute('', '/x', { callback: () => 1 }));
      results.push(r.registerRoute('ns/v1', '', { callback: () => 1 }));
    });
    expect(results).toEqual([false, false]);
    expect(warnings.join('\n')).toContain('registerRoute("", "/x")');
    expect(warnings.join('\n')).toContain('registerRoute("ns/v1", "")');
    const doc = await index(rest);
    expect(doc.namespaces).not.toContain('ns/v1');
    expect(Object.keys(doc.routes).some((r) => r.includes('/x'))).toBe(false);
  });

  it('builds the full route from trimmed namespace and route', async () => {
    const { rest } = server((r) => void r.registerRoute('//ns/v1//', '//a/b//', { callback: () => 'ok' }));
    expect(Object.keys((await index(rest)).routes)).toContain('/ns/v1/a/b');
    expect(json(await get(rest, '/ns/v1/a/b'))).toBe('ok');
  });

  it('defaults an endpoint to GET with no arguments', async () => {
    const { rest } = server((r) => void r.registerRoute('ns/v1', 'plain', { callback: () => 'ok' }));
    expect((await index(rest)).routes['/ns/v1/plain']!.endpoints).toEqual([{ methods: ['GET'], args: [] }]);
    expect((await get(rest, '/ns/v1/plain')).status).toBe(200);
    expect((await get(rest, '/ns/v1/plain', 'POST')).status).toBe(404);
  });

  it('answers rest_invalid_handler for an endpoint without callback', async () => {
    const { rest } = server((r) => void r.registerRoute('ns/v1', 'nocb', {}));
    const out = await get(rest, '/ns/v1/nocb');
    expect(out.status).toBe(500);
    expect(json(out)).toEqual({ code: 'rest_invalid_handler', message: 'The handler for the route is invalid', data: { status: 500 } });
  });

  it('appends endpoints when the route is registered again and keeps the first match first', async () => {
    const { rest } = server((r) => {
      r.registerRoute('ns/v1', 'r', { methods: 'GET', callback: () => 'first' });
      r.registerRoute('ns/v1', 'r', [
        { methods: 'GET', callback: () => 'second' },
        { methods: 'POST', callback: () => 'posted' },
      ]);
    });
    expect((await index(rest)).routes['/ns/v1/r']!.methods).toEqual(['GET', 'GET', 'POST']);
    expect(json(await get(rest, '/ns/v1/r'))).toBe('first');
    expect(json(await get(rest, '/ns/v1/r', 'POST'))).toBe('posted');
  });

  it('lets newer route-level options win when merging', async () => {
    const { rest } = server((r) => {
      r.registerRoute('ns/v1', 'r', Object.assign([{ callback: () => 1 }], { schema: () => ({ title: 'old' }) }));
      r.registerRoute('ns/v1', 'r', Object.assign([{ methods: 'POST', callback: () => 2 }], { schema: () => ({ title: 'new' }) }));
    });
    expect((json(await get(rest, '/ns/v1/r', 'OPTIONS')) as { schema: unknown }).schema).toEqual({ title: 'new' });
  });

  it('describes a route on OPTIONS as registered at that moment, also after it was asked before', async () => {
    const { rest } = server(
      (r) => void r.registerRoute('ns/v1', 'r', { methods: 'GET', callback: () => 1, args: { a: { type: 'string' } } }),
    );
    const before = json(await get(rest, '/ns/v1/r', 'OPTIONS')) as { methods: string[]; endpoints: { args: object }[] };
    expect(before.methods).toEqual(['GET']);
    rest.registerRoute('ns/v1', 'r', { methods: 'POST', callback: () => 2, args: { b: { type: 'integer' } } });
    const after = json(await get(rest, '/ns/v1/r', 'OPTIONS')) as { methods: string[]; endpoints: { args: object }[] };
    expect(after.methods).toEqual(['GET', 'POST']);
    expect(Object.keys(after.endpoints[1]!.args)).toEqual(['b']);
    rest.registerRoute('ns/v1', 'r', { methods: 'PUT', callback: () => 3 }, true);
    expect((json(await get(rest, '/ns/v1/r', 'OPTIONS')) as { methods: string[] }).methods).toEqual(['PUT']);
  });

  it('asks a route’s schema callback on every OPTIONS', async () => {
    let calls = 0;
    const { rest } = server(
      (r) => void r.registerRoute('ns/v1', 'r', Object.assign([{ callback: () => 1 }], { schema: () => ({ n: ++calls }) })),
    );
    await get(rest, '/ns/v1/r', 'OPTIONS');
    expect((json(await get(rest, '/ns/v1/r', 'OPTIONS')) as { schema: unknown }).schema).toEqual({ n: 2 });
  });

  it('links a route without variables to itself under the REST root the request came in on, per request', async () => {
    // As the production builder does: https when the request came in over TLS.
    const rest = createBareRestServer(undefined, (p = '/', o) => `${o?.secure ? 'https' : 'http'}://example.org/wp-json${p}`);
    rest.registerRoute('ns/v1', 'r', { callback: () => 1 });
    const self = async (secure: boolean) => {
      const out = await rest.serve({
        method: 'OPTIONS',
        route: '/ns/v1/r',
        query: {},
        headers: {},
        body: '',
        origin: { secure, hostname: 'example.org' },
      });
      return (json(out) as { _links: { self: string } })._links.self;
    };
    expect(await self(false)).toBe('http://example.org/wp-json/ns/v1/r');
    expect(await self(true)).toBe('https://example.org/wp-json/ns/v1/r');
    expect(await self(false)).toBe('http://example.org/wp-json/ns/v1/r');
  });

  it('replaces the route when registered with override', async () => {
    const { rest } = server((r) => {
      r.registerRoute('ns/v1', 'r', [
        { methods: 'GET', callback: () => 'old' },
        { methods: 'POST', callback: () => 'old' },
      ]);
      r.registerRoute('ns/v1', 'r', { methods: 'PUT', callback: () => 'new' }, true);
    });
    expect((await index(rest)).routes['/ns/v1/r']!.methods).toEqual(['PUT']);
    expect((await get(rest, '/ns/v1/r')).status).toBe(404);
    expect(json(await get(rest, '/ns/v1/r', 'PUT'))).toBe('new');
  });

  it('accepts methods as a comma-separated string, trims and upper-cases them', async () => {
    const { rest } = server((r) => void r.registerRoute('ns/v1', 'm', { methods: ' get, post ,put', callback: (req) => req.method }));
    expect((await index(rest)).routes['/ns/v1/m']!.endpoints[0]!.methods).toEqual(['GET', 'POST', 'PUT']);
    expect(json(await get(rest, '/ns/v1/m', 'PUT'))).toBe('PUT');
  });

  it('stores :name as (?P<name>[^/]+) and keeps (?P<…>) patterns verbatim as index keys', async () => {
    const { rest } = server((r) => {
      r.registerRoute('ns/v1', '/module/:slug/active', { callback: () => 1 });
      r.registerRoute('ns/v1', '/module/(?P<slug>[a-z\\-]+)', { callback: () => 1 });
    });
    const doc = await index(rest);
    expect(Object.keys(doc.routes)).toContain('/ns/v1/module/(?P<slug>[^/]+)/active');
    expect(Object.keys(doc.routes)).toContain('/ns/v1/module/(?P<slug>[a-z\\-]+)');
    expect(doc.routes['/ns/v1/module/(?P<slug>[a-z\\-]+)']!._links).toBeUndefined();
  });

  it('rejects an invalid pattern with a developer warning', () => {
    const { warnings } = server((r) => void r.registerRoute('ns/v1', '/bad/(?P<x>[a-', { callback: () => 1 }));
    expect(warnings.join('\n')).toMatch(/registerRoute\("ns\/v1", "\/bad/);
  });

  it('registers the namespace index before the namespace’s first route', async () => {
    const { rest } = server((r) => void r.registerRoute('ns/v1', 'a', { callback: () => 1 }));
    const doc = await index(rest);
    const keys = Object.keys(doc.routes);
    expect(keys.indexOf('/ns/v1')).toBe(keys.indexOf('/ns/v1/a') - 1);
    expect(doc.routes['/ns/v1']!.endpoints[0]).toEqual({
      methods: ['GET'],
      args: { namespace: { required: false, default: 'ns/v1' }, context: { required: false, default: 'view' } },
    });
  });
});
