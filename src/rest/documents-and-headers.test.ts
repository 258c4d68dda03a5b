import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';
import { RestError } from './errors.js';
import { RestResponse } from './types.js';

function plugin(api: SitewardApi): void {
  api.registerRoute('docs/v1', '/open', [
    { methods: 'GET', callback: () => ({ ok: true }) },
    { methods: 'POST', callback: () => ({ ok: true }), permissionCallback: () => false },
    { methods: 'DELETE', callback: () => ({ ok: true }), permissionCallback: () => 'yes' },
  ]);
  api.registerRoute('docs/v1', '/args', {
    methods: 'GET',
    callback: () => null,
    args: {
      b: { type: 'integer', required: true, description: 'B', default: 3, enum: [1, 2, 3] },
      a: { type: 'array', items: { type: 'string' } },
    },
  });
  api.registerRoute('docs/v1', '/hidden', { callback: () => 1, showInIndex: false });
  api.registerRoute('docs/v1', '/multi-error', {
    callback: () => new RestError('first', 'First.', { status: 418 }).add(new RestError('second', 'Second.', { detail: 1 })),
  });
  api.registerRoute('docs/v1', '/no-status', { callback: () => new RestError('plain', 'Plain.') });
  api.registerRoute('docs/v1', '/custom', {
    callback: () => new RestResponse({ made: true }, 201, { Location: 'http://example.org/x' }),
  });
  api.registerRoute('docs/v1', '/scalars/(?P<kind>[a-z]+)', {
    callback: (req) => ({ null: null, true: true, string: 'text', number: 1.5 })[req.params.kind as 'null'],
  });
  api.registerRoute('docs/v1', '/throws', {
    callback: () => {
      throw new Error('boom');
    },
  });
  api.registerRoute('docs/v1', '/deprecated', {
    callback: () => {
      api.deprecatedFunction('old_fn', '1.2', 'new_fn');
      api.deprecatedArgument('some_fn', '2.0', 'The x argument is ignored.');
      return 'ok';
    },
  });
  api.registerRoute('docs/v1', '/deprecated-none', {
    callback: () => {
      api.deprecatedFunction('gone_fn', '3.0');
      api.deprecatedArgument('gone_arg_fn', '3.1');
      return 'ok';
    },
  });
  api.registerRoute('docs/v1', '/deprecated-later', {
    permissionCallback: () => {
      api.deprecatedArgument('perm_fn', '1.0', 'From the permission check.');
      return true;
    },
    callback: async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      req.deprecatedFunction('late_fn', '4.0', 'soon_fn');
      return 'ok';
    },
  });
  api.registerRoute('docs/v1', '/async-permissions', [
    { methods: 'GET', callback: () => 'ok', permissionCallback: async () => true },
    {
      methods: 'POST',
      callback: () => 'ok',
      permissionCallback: () => {
        throw new Error('no');
      },
    },
    { methods: 'PUT', callback: () => 'ok', permissionCallback: () => Promise.reject(new Error('no')) },
    { methods: 'PATCH', callback: () => 'ok', permissionCallback: async () => 'truthy' },
    { methods: 'DELETE', callback: () => 'ok' },
  ]);
  api.registerRoute('other/v2', '/thing', { callback: () => 1 });
}

let app: TestApp;
beforeAll(async () => {
  app = await createInProcessApp({
    plugins: [plugin],
    env: { SITEWARD_SITE_NAME: 'Docs Site', SITEWARD_SITE_DESCRIPTION: 'Just testing' },
  });
});
afterAll(() => app.close());

describe('the index document', () => {
  it('has its keys in WordPress order and the site facts', async () => {
    const res = await app.request({ path: '/wp-json/' });
    const doc = res.json as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['name', 'description', 'url', 'home', 'namespaces', 'authentication', 'routes', '_links']);
    expect(doc.name).toBe('Docs Site');
    expect(doc.description).toBe('Just testing');
    expect(doc.url).toBe('http://example.org');
    expect(doc.home).toBe('http://example.org');
    expect(doc.authentication).toEqual([]);
    expect(doc._links).toEqual({ help: [{ href: 'http://v2.wp-api.org/' }] });
  });

  it('shows a changed site name and description on the next request, though the document is reused', async () => {
    const index = async () => (await app.request({ path: '/wp-json/' })).json as Record<string, unknown>;
    const seen = [await index()];
    await app.store.options.set('blogname', 'Renamed Site');
    seen.push(await index());
    await app.store.options.set('blogdescription', 'Still testing');
    seen.push(await index());
    await app.store.options.set('blogname', 'Docs Site');
    await app.store.options.set('blogdescription', 'Just testing');
    seen.push(await index());
    expect(seen.map((doc) => [doc.name, doc.description])).toEqual([
      ['Docs Site', 'Just testing'],
      ['Renamed Site', 'Just testing'],
      ['Renamed Site', 'Still testing'],
      ['Docs Site', 'Just testing'],
    ]);
  });

  it('lists a route registered after the index was served', async () => {
    const before = (await app.request({ path: '/wp-json/' })).json as { routes: Record<string, unknown> };
    app.app.rest.registerRoute('late/v1', '/added', { callback: () => 1 });
    const after = (await app.request({ path: '/wp-json/' })).json as { routes: Record<string, unknown>; namespaces: string[] };
    expect(Object.keys(before.routes)).not.toContain('/late/v1/added');
    expect(Object.keys(after.routes)).toContain('/late/v1/added');
    expect(after.namespaces).toContain('late/v1');
  });

  it('lists namespaces in registration order', async () => {
    const doc = (await app.request({ path: '/wp-json/' })).json as { namespaces: string[] };
    expect(doc.namespaces.indexOf('docs/v1')).toBeLessThan(doc.namespaces.indexOf('other/v2'));
  });

  it('describes routes with methods, endpoints, args in order, and _links.self only without variables', async () => {
    const routes = ((await app.request({ path: '/wp-json/' })).json as { routes: Record<string, Record<string, unknown>> }).routes;
    expect(Object.keys(routes)[0]).toBe('/');
    expect(routes['/docs/v1/open']).toEqual({
      namespace: 'docs/v1',
      methods: ['GET', 'POST', 'DELETE'],
      endpoints: [
        { methods: ['GET'], args: [] },
        { methods: ['POST'], args: [] },
        { methods: ['DELETE'], args: [] },
      ],
      _links: { self: 'http://example.org/wp-json/docs/v1/open' },
    });
    const args = (routes['/docs/v1/args'] as { endpoints: { args: Record<string, object> }[] }).endpoints[0]!.args;
    expect(Object.keys(args)).toEqual(['b', 'a']);
    expect(Object.keys(args.b!)).toEqual(['required', 'default', 'enum', 'description', 'type']);
    expect(args.a).toEqual({ required: false, type: 'array', items: { type: 'string' } });
    expect(routes['/docs/v1/scalars/(?P<kind>[a-z]+)']).not.toHaveProperty('_links');
    expect(routes).not.toHaveProperty('/docs/v1/hidden');
    expect(routes['/']).toMatchObject({ namespace: '', methods: ['GET'] });
  });

  it('serves the namespace index with only that namespace', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1' });
    const doc = res.json as { namespace: string; routes: Record<string, unknown>; _links: unknown };
    expect(Object.keys(doc)).toEqual(['namespace', 'routes', '_links']);
    expect(doc.namespace).toBe('docs/v1');
    expect(Object.keys(doc.routes).filter((r) => !r.startsWith('/docs/v1'))).toEqual([]);
    expect(doc._links).toEqual({ up: [{ href: 'http://example.org/wp-json/' }] });
  });

  it('answers an unknown namespace index parameter with 404 rest_invalid_namespace', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1?namespace=nope/v9' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      code: 'rest_invalid_namespace',
      message: 'The specified namespace could not be found.',
      data: { status: 404 },
    });
  });
});

describe('OPTIONS, Allow and CORS', () => {
  it('answers OPTIONS with the route’s help data and no permission check', async () => {
    const res = await app.request({ method: 'OPTIONS', path: '/wp-json/docs/v1/open' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ namespace: 'docs/v1', methods: ['GET', 'POST', 'DELETE'] });
  });

  it('answers OPTIONS on an unknown route with 200 [] and no Allow header', async () => {
    const res = await app.request({ method: 'OPTIONS', path: '/wp-json/no/such/route' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
    expect(res.headers.allow).toBeUndefined();
  });

  it('lists in Allow only methods with no permission callback or one returning exactly true', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/open' });
    expect(res.headers.allow).toBe('GET');
    const opt = await app.request({ method: 'OPTIONS', path: '/wp-json/docs/v1/open' });
    expect(opt.headers.allow).toBe('GET');
  });

  it('asks async, throwing and rejecting permission callbacks for Allow, in order, counting only exactly true', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/async-permissions' });
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('GET, DELETE');
    const opt = await app.request({ method: 'OPTIONS', path: '/wp-json/docs/v1/async-permissions' });
    expect(opt.headers.allow).toBe('GET, DELETE');
  });

  it('sends Allow on error responses of a matched route', async () => {
    const res = await app.request({ method: 'POST', path: '/wp-json/docs/v1/open' });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    expect(res.headers.allow).toBe('GET');
  });

  it('continues when a permission callback returns a truthy non-boolean', async () => {
    const res = await app.request({ method: 'DELETE', path: '/wp-json/docs/v1/open' });
    expect(res.status).toBe(200);
  });

  it('sends CORS headers only when the request has an Origin', async () => {
    const without = await app.request({ path: '/wp-json/docs/v1/open' });
    expect(without.headers['access-control-allow-origin']).toBeUndefined();
    expect(without.headers.vary).toBeUndefined();
    const withOrigin = await app.request({ path: '/wp-json/docs/v1/open', headers: { Origin: 'https://client.example' } });
    expect(withOrigin.headers['access-control-allow-origin']).toBe('https://client.example');
    expect(withOrigin.headers['access-control-allow-methods']).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(withOrigin.headers['access-control-allow-credentials']).toBe('true');
    expect(withOrigin.headers.vary).toBe('Origin');
  });

  it('echoes Origin: null as null and sanitizes other origins as URLs', async () => {
    expect((await app.request({ path: '/wp-json/', headers: { Origin: 'null' } })).headers['access-control-allow-origin']).toBe('null');
    expect(
      (await app.request({ path: '/wp-json/', headers: { Origin: 'https://a.example/<x>' } })).headers['access-control-allow-origin'],
    ).toBe('https://a.example/x');
  });

  it('sends CORS headers on REST errors and OPTIONS too', async () => {
    const res = await app.request({ method: 'OPTIONS', path: '/wp-json/nothing', headers: { Origin: 'https://c.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://c.example');
  });
});

describe('response headers and wire formats', () => {
  it('sends the fixed REST headers', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/open' });
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers.link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-expose-headers']).toBe('X-WP-Total, X-WP-TotalPages, Link');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, X-WP-Nonce, Content-Type');
    expect(res.headers['cache-control']).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
  });

  it('puts further errors in additional_errors and takes the status from the first', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/multi-error' });
    expect(res.status).toBe(418);
    expect(res.json).toEqual({
      code: 'first',
      message: 'First.',
      data: { status: 418 },
      additional_errors: [{ code: 'second', message: 'Second.', data: { detail: 1 } }],
    });
  });

  it('answers 500 for an error without status, with data null', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/no-status' });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ code: 'plain', message: 'Plain.', data: null });
  });

  it('sends a handler’s own status and headers', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/custom' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('http://example.org/x');
  });

  it('sends null, true, strings and numbers as bare JSON with 200', async () => {
    for (const [kind, body] of [
      ['null', 'null'],
      ['true', 'true'],
      ['string', '"text"'],
      ['number', '1.5'],
    ]) {
      const res = await app.request({ path: `/wp-json/docs/v1/scalars/${kind}` });
      expect(res.status).toBe(200);
      expect(res.text).toBe(body);
    }
  });

  it('turns an exception in a callback into a JSON 500', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/throws' });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ code: 'rest_internal_error', data: { status: 500 } });
  });

  it('wraps the response with _envelope in status 200', async () => {
    const res = await app.request({ method: 'POST', path: '/wp-json/docs/v1/open?_envelope' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
      status: 401,
      headers: { Allow: 'GET' },
    });
    expect(res.headers.allow).toBeUndefined();
  });

  it('writes an empty envelope headers list as []', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/nothing-here?_envelope=1' });
    expect(res.json).toEqual({
      body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method', data: { status: 404 } },
      status: 404,
      headers: [],
    });
  });

  it('wraps the response in a JSONP callback', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/open?_jsonp=my.cb_1' });
    expect(res.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(res.text).toBe('/**/my.cb_1({"ok":true})');
  });

  it('refuses a JSONP callback with other characters', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/open?_jsonp=alert(1)' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(res.json).toEqual({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
  });

  it('sends deprecation headers raised during the request', async () => {
    const res = await app.request({ path: '/wp-json/docs/v1/deprecated' });
    expect(res.headers['x-wp-deprecatedfunction']).toBe('old_fn (since 1.2; use new_fn instead)');
    expect(res.headers['x-wp-deprecatedparam']).toBe('some_fn (since 2.0; The x argument is ignored.)');
    const none = await app.request({ path: '/wp-json/docs/v1/deprecated-none' });
    expect(none.headers['x-wp-deprecatedfunction']).toBe('gone_fn (since 3.0; no alternative available)');
    expect(none.headers['x-wp-deprecatedparam']).toBe('gone_arg_fn (since 3.1; no alternative available)');
    const other = await app.request({ path: '/wp-json/docs/v1/open' });
    expect(other.headers['x-wp-deprecatedfunction']).toBeUndefined();
  });

  it('sends the deprecation headers a permission check or an async callback raised, and only on their own response', async () => {
    const [late, plain] = await Promise.all([
      app.request({ path: '/wp-json/docs/v1/deprecated-later' }),
      app.request({ path: '/wp-json/other/v2/thing' }),
    ]);
    expect(late.headers['x-wp-deprecatedparam']).toBe('perm_fn (since 1.0; From the permission check.)');
    expect(late.headers['x-wp-deprecatedfunction']).toBe('late_fn (since 4.0; use soon_fn instead)');
    expect(plain.headers['x-wp-deprecatedfunction']).toBeUndefined();
    expect(plain.headers['x-wp-deprecatedparam']).toBeUndefined();
  });
});
