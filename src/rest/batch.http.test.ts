import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

type Json = Record<string, unknown>;
interface Envelope {
  body: Json;
  status: number;
  headers: Record<string, string>;
}

let t: TestApp;
let admin: LoggedIn;
let calls: string[];

beforeEach(async () => {
  calls = [];
  t = await createTestApp({
    env: { SITEWARD_BATCH_MAX_ITEMS: '3' },
    plugins: [
      (api) => {
        // A third-party route opts in through the plugin API, (WordPress's `allow_batch`).
        api.registerRoute('demo/v1', '/things/(?P<id>\\d+)', {
          methods: 'POST',
          allowBatch: { v1: true },
          args: { size: { type: 'integer', required: true } },
          permissionCallback: (req) => req.user.can('manage_options'),
          callback: (req) => {
            calls.push(`${String(req.params.id)}:${String(req.params.size)}`);
            return { id: Number(req.params.id), size: req.params.size, q: req.params.q ?? null };
          },
        });
        api.registerRoute('demo/v1', '/plain', { methods: 'POST', callback: () => 'ran' });
      },
    ],
  });
  admin = await t.loginAs('administrator', { login: 'root' });
});
afterEach(async () => t.close());

const batch = (user: LoggedIn | null, body: object) =>
  t.request({ method: 'POST', path: '/wp-json/batch/v1', headers: user ? t.auth(user) : {}, body });

describe('batch/v1', () => {
  it('runs each sub-request in order and answers 207 with status, headers and body of each', async () => {
    const res = await batch(admin, {
      requests: [
        { path: '/demo/v1/things/1?q=x', body: { size: 2 } },
        { path: '/wp/v2/users/me', method: 'PUT', body: { name: 'x' } },
        { path: `/wp/v2/users/${admin.userId}`, method: 'PUT', body: { name: 'Root Admin' } },
      ],
    });
    expect(res.status).toBe(207);
    const { responses } = res.json as { responses: Envelope[] };
    expect(responses[0]).toEqual({ status: 200, body: { id: 1, size: 2, q: 'x' }, headers: { Allow: 'POST' } });
    expect(responses[1]).toMatchObject({
      status: 400,
      body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.' },
    });
    expect(responses[2]).toMatchObject({ status: 200, body: { name: 'Root Admin' }, headers: { Allow: 'GET, POST, PUT, PATCH, DELETE' } });
    expect(calls).toEqual(['1:2']);
  });

  it("checks each sub-request's permission as alone: a subscriber gets 403 inside a 207", async () => {
    const sub = await t.loginAs('subscriber');
    const res = await batch(sub, {
      requests: [
        { path: '/demo/v1/things/1', body: { size: 1 } },
        { path: `/wp/v2/users/${admin.userId}`, method: 'PUT', body: { name: 'x' } },
      ],
    });
    const { responses } = res.json as { responses: Envelope[] };
    expect(responses.map((r) => [r.status, r.body.code])).toEqual([
      [403, 'rest_forbidden'],
      [403, 'rest_cannot_edit'],
    ]);
    expect(calls).toEqual([]);
  });

  it('require-all-validate runs nothing when one item fails validation, and says which', async () => {
    const res = await batch(admin, {
      validation: 'require-all-validate',
      requests: [
        { path: '/demo/v1/things/1', body: { size: 1 } },
        { path: '/demo/v1/things/2', body: { size: 'big' } },
        { path: '/nowhere' },
      ],
    });
    expect(res.status).toBe(207);
    const body = res.json as { failed: string; responses: (Envelope | null)[] };
    expect(body.failed).toBe('validation');
    expect(body.responses[0]).toBeNull();
    expect(body.responses[1]).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param', data: { params: { size: 'size is not of type integer.' } } },
    });
    expect(body.responses[2]).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
    expect(calls).toEqual([]);
  });

  it('normal validation runs the valid items and answers the invalid ones with their error', async () => {
    const res = await batch(admin, {
      requests: [{ path: '/demo/v1/things/1', body: { size: 1 } }, { path: '/demo/v1/things/2', body: {} }, { path: '/demo/v1/plain' }],
    });
    const { responses } = res.json as { responses: Envelope[] };
    expect(responses.map((r) => r.status)).toEqual([200, 400, 400]);
    expect(responses[1]!.body.code).toBe('rest_missing_callback_param');
    expect(responses[2]!.body.code).toBe('rest_batch_not_allowed');
    expect(calls).toEqual(['1:1']);
  });

  it('refuses GET items, too many items and an item without a path with rest_invalid_param', async () => {
    const get = await batch(admin, { requests: [{ path: '/wp/v2/users/me', method: 'GET' }] });
    expect(get.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.' } },
    });
    const many = await batch(admin, { requests: Array.from({ length: 4 }, () => ({ path: '/demo/v1/things/1', body: { size: 1 } })) });
    expect(many.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { requests: 'requests must contain at most 3 items.' } },
    });
    const noPath = await batch(admin, { requests: [{ body: {} }] });
    expect(noPath.json).toMatchObject({ data: { params: { requests: 'path is a required property of requests[0].' } } });
    expect((await batch(admin, {})).json).toMatchObject({ code: 'rest_missing_callback_param' });
    expect(calls).toEqual([]);
  });

  it('OPTIONS batch/v1 answers maxItems in endpoints[0] (core-data reads it), and the index lists batch/v1 and allow_batch', async () => {
    const options = await t.request({ method: 'OPTIONS', path: '/wp-json/batch/v1' });
    const endpoint = (options.json as { endpoints: { methods: string[]; args: { requests: Json } }[] }).endpoints[0]!;
    expect(endpoint.methods).toEqual(['POST']);
    expect(endpoint.args.requests).toMatchObject({ required: true, type: 'array', maxItems: 3 });
    const index = (await t.request({ path: '/wp-json/' })).json as { namespaces: string[]; routes: Record<string, { endpoints: Json[] }> };
    expect(index.namespaces).toEqual(expect.arrayContaining(['wp/v2', 'batch/v1']));
    expect(index.routes['/wp/v2/users']!.endpoints[0]).toMatchObject({ allow_batch: { v1: true } });
    expect(index.routes['/wp/v2/users/me']!.endpoints[0]).not.toHaveProperty('allow_batch');
    expect(index.routes['/demo/v1/things/(?P<id>\\d+)']!.endpoints[0]).toMatchObject({ allow_batch: { v1: true } });
    expect(index.routes['/wp/v2/settings']!.endpoints[0]).not.toHaveProperty('allow_batch');
  });
});
