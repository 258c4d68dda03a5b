/**
 * `defineRoute`: one declaration gives WordPress's `args` (checked exactly as hand-written ones),
 * the documents, the handler's typed input, the named permission and the guards. Served by the
 * REST layer itself, without a socket.
 */
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { answers, checkedByHandler, defineRoute, permission, PUBLIC } from './define-route.js';
import { RestError } from './errors.js';
import type { RestServer } from './rest-server.js';
import { createBareRestServer } from './testing/bare-rest-server.js';
import type { ArgDefinition } from './types.js';

const origin = { secure: false, hostname: 'example.org' };

async function call(rest: RestServer, method: string, route: string, query: Record<string, unknown> = {}, json?: unknown) {
  const body = json === undefined ? '' : JSON.stringify(json);
  const headers: Record<string, string> = json === undefined ? {} : { 'content-type': 'application/json' };
  const out = await rest.serve({ method, route, query, headers, body, origin });
  return { status: out.status, json: JSON.parse(String(out.body)) as unknown };
}

const handWritten: Record<string, ArgDefinition> = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'Current page of the collection.' },
  per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Maximum number of items.' },
  order: { type: 'string', enum: ['asc', 'desc'], description: 'Order.' },
  active: { type: 'boolean', default: false },
  name: { type: 'string', required: true },
};

const declared = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1, description: 'Current page of the collection.' }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Maximum number of items.' }),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Order.' })),
  active: Type.Boolean({ default: false }),
  name: Type.String(),
});

function server(): RestServer {
  const rest = createBareRestServer();
  rest.registerRoute('t/v1', '/hand', { methods: 'POST', callback: (r) => r.params, args: handWritten });
  rest.registerRoute(
    't/v1',
    '/typed/(?P<id>\\d+)',
    defineRoute({
      methods: 'POST',
      params: Type.Object({ id: Type.Integer() }),
      body: declared,
      response: answers<{ id: number; page: number; active: boolean; name: string }>(),
      permission: PUBLIC,
      handler: ({ params, body }) => ({ id: params.id, page: body.page, active: body.active, name: body.name }),
    }),
  );
  return rest;
}

describe('defineRoute', () => {
  it('declares the same arguments as the hand-written args, in the index and on OPTIONS', async () => {
    const rest = server();
    const index = (await call(rest, 'GET', '/t/v1')).json as { routes: Record<string, { endpoints: { args: unknown }[] }> };
    expect(index.routes['/t/v1/typed/(?P<id>\\d+)']!.endpoints[0]!.args).toEqual(index.routes['/t/v1/hand']!.endpoints[0]!.args);
    const options = (await call(rest, 'OPTIONS', '/t/v1/typed/7')).json as { endpoints: { args: Record<string, unknown> }[] };
    expect(Object.keys(options.endpoints[0]!.args)).toEqual(['page', 'per_page', 'order', 'active', 'name']);
  });

  it('refuses bad arguments with exactly the hand-written args’ status and body', async () => {
    const rest = server();
    for (const body of [{}, { name: 'x', per_page: 0 }, { name: 'x', order: 'up', active: 'maybe' }, { name: ['x'], page: 'two' }]) {
      const hand = await call(rest, 'POST', '/t/v1/hand', {}, body);
      const typed = await call(rest, 'POST', '/t/v1/typed/7', {}, body);
      expect(hand.status).toBe(400);
      expect(typed).toEqual(hand);
    }
  });

  it('hands the handler sanitized, typed values: the URL parameter as a number, defaults filled', async () => {
    const rest = server();
    const res = await call(rest, 'POST', '/t/v1/typed/42', { page: '3' }, { name: 'n', active: 'true' });
    expect(res).toEqual({ status: 200, json: { id: 42, page: 3, active: true, name: 'n' } });
  });

  it('reads the URL parameter from the URL even when the body has a member of the same name', async () => {
    const rest = server();
    const res = await call(rest, 'POST', '/t/v1/typed/42', {}, { name: 'n', id: 9 });
    expect(res.json).toMatchObject({ id: 42 });
  });

  it('reads a URL parameter marked wordpressOrder as WordPress does: a body or query member wins, validated; hands over the sent names', async () => {
    const rest = createBareRestServer();
    rest.registerRoute(
      't/v1',
      '/wp/(?P<id>\\d+)',
      defineRoute({
        methods: 'POST',
        params: Type.Object({ id: Type.Integer({ description: 'Which.', asArgument: true, wordpressOrder: true }) }),
        body: Type.Object({ note: Type.Optional(Type.String()) }),
        permission: PUBLIC,
        handler: ({ params, sent }) => ({ id: params.id, sent: [...sent].sort() }),
      }),
    );
    expect((await call(rest, 'POST', '/t/v1/wp/42')).json).toEqual({ id: 42, sent: ['id'] });
    expect((await call(rest, 'POST', '/t/v1/wp/42', { id: '7' })).json).toEqual({ id: 7, sent: ['id'] });
    expect((await call(rest, 'POST', '/t/v1/wp/42', { id: '7' }, { id: 9, note: 'n', other: 1 })).json).toEqual({
      id: 9,
      sent: ['id', 'note', 'other'],
    });
    const refused = await call(rest, 'POST', '/t/v1/wp/42', { id: 'abc' });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([400, 'rest_invalid_param']);
  });

  it('runs the guards in order after the permission check; the first refusal answers', async () => {
    const rest = createBareRestServer();
    const seen: string[] = [];
    const refusal = new RestError('off', 'The thing is off.', { status: 404 });
    rest.registerRoute(
      't/v1',
      '/guarded',
      defineRoute({
        permission: permission('asks', () => {
          seen.push('permission');
          return true;
        }),
        guards: [
          () => {
            seen.push('first');
            return null;
          },
          async () => {
            seen.push('second');
            return refusal;
          },
          () => {
            seen.push('third');
            return null;
          },
        ],
        handler: () => {
          seen.push('handler');
          return 'ran';
        },
      }),
    );
    const res = await call(rest, 'GET', '/t/v1/guarded');
    expect(res).toEqual({ status: 404, json: { code: 'off', message: 'The thing is off.', data: { status: 404 } } });
    expect(seen).toEqual(['permission', 'first', 'second']);
    expect(rest.routeTable('wp-json').find((row) => row.path === '/wp-json/t/v1/guarded')?.permission).toBe('asks');
  });

  it('leaves a member the handler checks unchecked, shows it with its type, and hands it over as sent', async () => {
    const rest = createBareRestServer();
    rest.registerRoute(
      't/v1',
      '/loose',
      defineRoute({
        methods: 'POST',
        body: Type.Object({
          slowMs: Type.Optional(checkedByHandler('integer', 'Milliseconds.')),
          other: Type.Optional(checkedByHandler('string', 'x')),
        }),
        permission: PUBLIC,
        handler: ({ body }) => ({ got: body, has: 'other' in body }),
      }),
    );
    const res = await call(rest, 'POST', '/t/v1/loose', { other: 'from-query' }, { slowMs: 'fast' });
    expect(res).toEqual({ status: 200, json: { got: { slowMs: 'fast' }, has: false } });
    const options = (await call(rest, 'OPTIONS', '/t/v1/loose')).json as { endpoints: { args: Record<string, unknown> }[] };
    expect(options.endpoints[0]!.args.slowMs).toEqual({ required: false, description: 'Milliseconds.', type: 'integer' });
  });

  it('types the handler’s answer by the declared response, and only by it', () => {
    const typed = defineRoute({
      response: answers<{ a: number }>(),
      permission: PUBLIC,
      // @ts-expect-error the answer must be the declared wire type
      handler: () => ({ a: 'text' }),
    });
    const untyped = defineRoute({ permission: PUBLIC, handler: () => (Math.random() > 2 ? { a: 1 } : 'other') });
    expect([typed.methods, untyped.methods]).toEqual(['GET', 'GET']);
  });
});
