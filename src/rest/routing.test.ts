import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

function echoPlugin(api: SitewardApi): void {
  api.registerRoute('test/v1', '/echo', {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    callback: (req) => ({ method: req.method, route: req.route, params: req.params }),
  });
  api.registerRoute('test/v1', '/post-only', { methods: 'POST', callback: () => 'posted' });
  api.registerRoute('test/v1', '/items/:id', { callback: (req) => ({ id: req.params.id }) });
  api.registerRoute('test/v1', '/things/(?P<slug>[a-z\\-]+)', { callback: (req) => ({ slug: req.params.slug }) });
}

const modes = ['pretty', 'index', 'plain'] as const;

describe.each(modes)('routing with %s permalinks', (permalinks) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createInProcessApp({ env: { SITEWARD_PERMALINKS: permalinks }, plugins: [echoPlugin] });
  });
  afterAll(() => app.close());

  it('serves ?rest_route= on the home page', async () => {
    const res = await app.request({ path: '/?rest_route=/test/v1/echo' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ route: '/test/v1/echo' });
  });

  it('serves the pretty /wp-json/ path', async () => {
    const res = await app.request({ path: '/wp-json/test/v1/echo' });
    expect(res.status).toBe(200);
  });

  it('serves the /index.php/wp-json/ path', async () => {
    const res = await app.request({ path: '/index.php/wp-json/test/v1/echo' });
    expect(res.status).toBe(200);
  });

  it('builds REST URLs for its own mode in the index and Link header', async () => {
    const res = await app.request({ path: '/?rest_route=/' });
    const root = {
      pretty: 'http://example.org/wp-json/',
      index: 'http://example.org/index.php/wp-json/',
      plain: 'http://example.org/?rest_route=/',
    }[permalinks];
    expect(res.headers.link).toBe(`<${root}>; rel="https://api.w.org/"`);
    const routes = (res.json as { routes: Record<string, { _links?: { self: string } }> }).routes;
    expect(routes['/test/v1/echo']!._links!.self).toBe(`${root}test/v1/echo`);
  });
});

describe('request routing', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createInProcessApp({ plugins: [echoPlugin] });
  });
  afterAll(() => app.close());

  it('removes a trailing slash before dispatch', async () => {
    const res = await app.request({ path: '/wp-json/test/v1/echo/' });
    expect(res.json).toMatchObject({ route: '/test/v1/echo' });
  });

  it('matches routes case-insensitively', async () => {
    const res = await app.request({ path: '/wp-json/TEST/V1/Echo' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ route: '/TEST/V1/Echo' });
  });

  it('answers the index at the prefix root with and without slash', async () => {
    for (const path of ['/wp-json', '/wp-json/', '/?rest_route=/', '/index.php/wp-json/']) {
      const res = await app.request({ path });
      expect(res.status, path).toBe(200);
      expect(Object.keys(res.json as object)).toEqual([
        'name',
        'description',
        'url',
        'home',
        'namespaces',
        'authentication',
        'routes',
        '_links',
      ]);
    }
  });

  it('answers GET on a POST-only route with 404 rest_no_route', async () => {
    const res = await app.request({ path: '/wp-json/test/v1/post-only' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method',
      data: { status: 404 },
    });
  });

  it('answers an unknown route with 404 rest_no_route', async () => {
    const res = await app.request({ path: '/wp-json/nothing/here' });
    expect(res.status).toBe(404);
    expect((res.json as { code: string }).code).toBe('rest_no_route');
  });

  it('passes :name segments as URL parameters', async () => {
    const res = await app.request({ path: '/wp-json/test/v1/items/42' });
    expect(res.json).toEqual({ id: '42' });
  });

  it('passes (?P<name>…) groups as URL parameters and rejects non-matching segments', async () => {
    expect((await app.request({ path: '/wp-json/test/v1/things/a-b' })).json).toEqual({ slug: 'a-b' });
    expect((await app.request({ path: '/wp-json/test/v1/things/a_1' })).status).toBe(404);
  });

  it('overrides the method with ?_method= and X-HTTP-Method-Override', async () => {
    const a = await app.request({ method: 'POST', path: '/wp-json/test/v1/echo?_method=delete' });
    expect(a.json).toMatchObject({ method: 'DELETE' });
    const b = await app.request({ method: 'POST', path: '/wp-json/test/v1/echo', headers: { 'X-HTTP-Method-Override': 'PUT' } });
    expect(b.json).toMatchObject({ method: 'PUT' });
  });

  it('gives JSON body > form body > query > URL parameter precedence', async () => {
    const q = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo?a=query&b=query&c=query',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=form&b=form',
    });
    expect((q.json as { params: object }).params).toMatchObject({ a: 'form', b: 'form', c: 'query' });
    const j = await app.request({ method: 'PUT', path: '/wp-json/test/v1/echo?a=query&c=query', body: { a: 'json' } });
    expect((j.json as { params: object }).params).toMatchObject({ a: 'json', c: 'query' });
    const u = await app.request({ path: '/wp-json/test/v1/items/7?id=query' });
    expect(u.json).toEqual({ id: 'query' });
  });

  it('parses query strings PHP-style', async () => {
    const res = await app.request({ path: '/wp-json/test/v1/echo?a[]=1&a[]=2&b[x]=y&c=plain' });
    expect((res.json as { params: object }).params).toMatchObject({ a: ['1', '2'], b: { x: 'y' }, c: 'plain' });
  });

  it('reads JSON bodies on GET and DELETE', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await app.request({ method, path: '/wp-json/test/v1/echo', body: { fromJson: true } });
      expect((res.json as { params: object }).params, method).toMatchObject({ fromJson: true });
    }
  });

  it('accepts an empty body with a JSON content type on every method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await app.request({ method, path: '/wp-json/test/v1/echo', headers: { 'content-type': 'application/json' }, body: '' });
      expect(res.status, method).toBe(200);
    }
  });

  it('answers invalid JSON with 400 rest_invalid_json on every method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const res = await app.request({
        method,
        path: '/wp-json/test/v1/echo',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"a":',
      });
      expect(res.status, method).toBe(400);
      expect(res.json).toEqual({
        code: 'rest_invalid_json',
        message: 'Invalid JSON body passed.',
        data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
      });
    }
  });

  it('refuses a JSON body of whitespace only, as PHP cannot decode it', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'application/json' },
      body: '   ',
    });
    expect(res.status).toBe(400);
    expect((res.json as { code: string }).code).toBe('rest_invalid_json');
  });

  it('drops query keys nested deeper than PHP keeps (64) and survives absurd nesting', async () => {
    const res = await app.request({ path: `/wp-json/test/v1/echo?deep${'[]'.repeat(4000)}=1&ok[a][b]=2` });
    expect(res.status).toBe(200);
    expect((res.json as { params: Record<string, unknown> }).params).toMatchObject({ ok: { a: { b: '2' } } });
    expect((res.json as { params: Record<string, unknown> }).params).not.toHaveProperty('deep');
  });

  it('keeps at most 1000 input variables, as PHP does', async () => {
    const body = Array.from({ length: 10_000 }, () => 'a[]=1').join('&');
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect((res.json as { params: { a: unknown[] } }).params.a.length).toBe(1000);
  });

  it('ignores a body whose content type is not JSON', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'text/plain' },
      body: '{"a":',
    });
    expect(res.status).toBe(200);
  });

  it('treats a Content-Type Fastify cannot parse as a plain body', async () => {
    const res = await app.request({ method: 'POST', path: '/wp-json/test/v1/echo', headers: { 'content-type': 'not a type' }, body: 'x' });
    expect(res.status).toBe(200);
  });

  it('refuses JSON nested deeper than 512 levels as PHP does, and accepts 512', async () => {
    const deep = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
    const bad = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'application/json' },
      body: `{"a":${deep(600)}}`,
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' },
    });
    const ok = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'application/json' },
      body: `{"a":${deep(511)}}`,
    });
    expect(ok.status).toBe(200);
  });

  it('keeps a __proto__ key of a JSON body as plain data', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/test/v1/echo',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"polluted":true},"a":1}',
    });
    expect(res.status).toBe(200);
    expect((res.json as { params: Record<string, unknown> }).params.a).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('matching a path served before', () => {
  let app: TestApp;
  let late: SitewardApi;
  beforeAll(async () => {
    app = await createInProcessApp({
      plugins: [
        (api) => {
          late = api;
          api.registerRoute('memo/v1', '/items/(?P<id>\\d+)', {
            callback: (req) => {
              const seen = { ...req.urlParams };
              // A handler that scribbles on its parameters must not change the next request's.
              (req.urlParams as Record<string, string>).id = 'changed';
              return seen;
            },
          });
        },
      ],
    });
  });
  afterAll(() => app.close());

  it('gives every request its own URL parameters', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await app.request({ path: '/wp-json/memo/v1/items/7' });
      expect(res.json).toEqual({ id: '7' });
    }
  });

  it('finds a route registered after the same path was already answered 404', async () => {
    expect((await app.request({ path: '/wp-json/memo/v1/later' })).status).toBe(404);
    late.registerRoute('memo/v1', '/later', { callback: () => 'here now' });
    const res = await app.request({ path: '/wp-json/memo/v1/later' });
    expect(res.status).toBe(200);
    expect(res.json).toBe('here now');
  });
});

describe('request headers seen by a handler', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createInProcessApp({
      plugins: [
        (api) => {
          api.registerRoute('hdr/v1', '/echo', {
            callback: (req) => ({ test: req.header('X-Test') ?? null, constructor: req.header('constructor') ?? null }),
          });
        },
      ],
    });
  });
  afterAll(() => app.close());

  it('are found by any letter case and never come from the object prototype', async () => {
    const res = await app.request({ path: '/wp-json/hdr/v1/echo', headers: { 'x-TEST': 'yes' } });
    expect(res.json).toEqual({ test: 'yes', constructor: null });
  });
});
