/**
 * Which answers the REST layer lets the adapter give again (src/rest/replay.ts), with a policy
 * whose versions and clock the test moves. The adapter's side is src/http/replay.http.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { ReplayPolicy } from './replay.js';
import type { IncomingRestRequest, RestServer } from './rest-server.js';
import { createBareRestServer } from './testing/bare-rest-server.js';
import type { Identity, Principal } from './types.js';

const nobody: Principal = { id: 0, login: '', email: '', displayName: '', roles: [], can: () => false };
const admin: Principal = { id: 1, login: 'a', email: '', displayName: '', roles: ['administrator'], can: () => true };

/** A policy on a clock and versions the test sets; a login's session ends at `sessionEnd`, a tick at `tickEnd`. */
function testPolicy() {
  const state = { version: 'v1' as string | undefined, now: 1_000, tickEnd: 10_000, sessionEnd: 5_000 };
  const policy: ReplayPolicy = {
    stateVersion: () => state.version,
    expiry: (identity) =>
      identity.kind === 'cookie' ? Math.min(state.sessionEnd, state.tickEnd) : identity.kind === 'anonymous' ? state.tickEnd : 0,
    now: () => state.now,
  };
  return { state, policy };
}

/** The identity each request gets, by its `who` header. */
function identify(headers: Readonly<Record<string, string>>): Identity {
  if (headers.who === 'cookie') return { kind: 'cookie', principal: admin, sessionToken: 't', expiresAt: 5_000 };
  if (headers.who === 'app-password') return { kind: 'other', principal: admin };
  return { kind: 'anonymous' };
}

function server(policy: ReplayPolicy): RestServer {
  const rest = createBareRestServer(undefined, undefined, {
    replay: policy,
    authenticator: { identify, verifyNonce: () => 1, createNonce: () => 'fresh', anonymous: () => nobody },
  });
  rest.registerRoute('t/v1', '/pure', [
    { methods: 'GET', callback: () => ({ ok: true }), replayable: true },
    { methods: 'POST', callback: () => ({ ok: true }), permissionCallback: () => true, replayable: 'permission' },
  ]);
  rest.registerRoute('t/v1', '/checked-only', { methods: 'GET', callback: () => ({ ok: true }), replayable: 'permission' });
  // A write whose argument checks are declared: its refusals may be given again, never its answers.
  const positive = { n: { required: true, validateCallback: (value: unknown) => typeof value === 'number' && value > 0 } };
  rest.registerRoute('t/v1', '/write', [
    { methods: 'GET', callback: () => ({ ok: true }), replayable: 'permission' },
    {
      methods: 'POST',
      args: positive,
      callback: () => ({ written: true }),
      permissionCallback: (r) => r.user.id !== 0,
      replayable: 'arguments',
    },
  ]);
  // `true`: a GET's whole answer, and so its argument checks; on a write, its argument checks.
  rest.registerRoute('t/v1', '/checked-read', { methods: 'GET', args: positive, callback: () => ({ ok: true }), replayable: true });
  rest.registerRoute('t/v1', '/write-true', { methods: 'PUT', args: positive, callback: () => 1, replayable: true });
  rest.registerRoute('t/v1', '/write-permission-only', { methods: 'POST', args: positive, callback: () => 1, replayable: 'permission' });
  rest.registerRoute('t/v1', '/write-beside-undeclared', [
    { methods: 'POST', args: positive, callback: () => 1, replayable: 'arguments' },
    { methods: 'DELETE', callback: () => 1 },
  ]);
  rest.registerRoute('t/v1', '/write-throwing', {
    methods: 'POST',
    args: {
      n: {
        validateCallback: () => {
          throw new Error('validator broke');
        },
      },
    },
    callback: () => 1,
    replayable: 'arguments',
  });
  rest.registerRoute('t/v1', '/sometimes', { methods: 'GET', callback: () => ({ ok: true }), replayable: () => sometimes.value });
  rest.registerRoute('t/v1', '/undeclared', { methods: 'GET', callback: () => ({ ok: true }) });
  rest.registerRoute('t/v1', '/missing', { methods: 'GET', callback: () => null, replayable: true });
  rest.registerRoute(
    't/v1',
    '/with-schema',
    Object.assign([{ methods: 'GET', callback: () => 1, replayable: true }], { schema: () => ({}) }),
  );
  return rest;
}
const sometimes = { value: true };

function request(route: string, extra: Partial<IncomingRestRequest> = {}): IncomingRestRequest {
  return { method: 'GET', route, query: {}, headers: {}, body: '', origin: { secure: false, hostname: 'example.org' }, ...extra };
}

describe('answers that may be given again', () => {
  test('a GET of a route whose endpoints all declare it is stamped, and stays replayable until the state version moves', async () => {
    const { state, policy } = testPolicy();
    const rest = server(policy);
    const out = await rest.serve(request('/t/v1/pure'));
    expect(out.status).toBe(200);
    expect(out.replay).toBeDefined();
    expect(rest.replayable(out.replay!)).toBe(true);
    state.version = 'v2';
    expect(rest.replayable(out.replay!)).toBe(false);
    // Unknown now (another process may have written): not replayable either.
    state.version = undefined;
    expect(rest.replayable(out.replay!)).toBe(false);
  });

  test('the index and a namespace document are stamped, and a route registered since ends their repeats', async () => {
    const { policy } = testPolicy();
    const rest = server(policy);
    const index = await rest.serve(request('/'));
    const namespace = await rest.serve(request('/t/v1'));
    expect([index.status, namespace.status]).toEqual([200, 200]);
    expect([rest.replayable(index.replay!), rest.replayable(namespace.replay!)]).toEqual([true, true]);
    rest.registerRoute('t/v1', '/later', { methods: 'GET', callback: () => 1 });
    expect([rest.replayable(index.replay!), rest.replayable(namespace.replay!)]).toEqual([false, false]);
  });

  test('ends with the nonce tick for anybody, and with the session for a login', async () => {
    const { state, policy } = testPolicy();
    const rest = server(policy);
    const anonymous = (await rest.serve(request('/t/v1/pure'))).replay!;
    const login = (await rest.serve(request('/t/v1/pure', { headers: { who: 'cookie', 'x-wp-nonce': 'sent' } }))).replay!;
    state.now = 4_999;
    expect([rest.replayable(anonymous), rest.replayable(login)]).toEqual([true, true]);
    state.now = 5_000;
    expect([rest.replayable(anonymous), rest.replayable(login)]).toEqual([true, false]);
    state.now = 10_000;
    expect(rest.replayable(anonymous)).toBe(false);
  });

  test('is not stamped when the state version is unknown as the answer is made', async () => {
    const { state, policy } = testPolicy();
    state.version = undefined;
    expect((await server(policy).serve(request('/t/v1/pure'))).replay).toBeUndefined();
  });

  test('OPTIONS is stamped when every endpoint declares at least its permission, but not with a schema callback', async () => {
    const { policy } = testPolicy();
    const rest = server(policy);
    expect((await rest.serve(request('/t/v1/checked-only', { method: 'OPTIONS' }))).replay).toBeDefined();
    expect((await rest.serve(request('/t/v1/pure', { method: 'OPTIONS' }))).replay).toBeDefined();
    expect((await rest.serve(request('/t/v1/with-schema', { method: 'OPTIONS' }))).replay).toBeUndefined();
    expect((await rest.serve(request('/t/v1/undeclared', { method: 'OPTIONS' }))).replay).toBeUndefined();
  });

  test.each([
    ['a GET whose endpoint declares only its permission', request('/t/v1/checked-only')],
    ['a route with an undeclared endpoint', request('/t/v1/undeclared')],
    ['an answer other than 200', request('/t/v1/nothing-here')],
    ['a method given by _method', request('/t/v1/pure', { method: 'POST', query: { _method: 'GET' } })],
    ['a POST', request('/t/v1/pure', { method: 'POST' })],
    ['a HEAD', request('/t/v1/pure', { method: 'HEAD' })],
    ['a GET with a body', request('/t/v1/pure', { body: '{"a":1}', headers: { 'content-type': 'application/json' } })],
    ['an application password (each use is noted)', request('/t/v1/pure', { headers: { who: 'app-password' } })],
  ])('is not stamped for %s', async (_what, incoming) => {
    const { policy } = testPolicy();
    expect((await server(policy).serve(incoming)).replay).toBeUndefined();
  });

  test('a write refused for its arguments by an endpoint that declares them is stamped, with the Allow of its route', async () => {
    const { state, policy } = testPolicy();
    const rest = server(policy);
    const body = (n: unknown) => ({ method: 'POST', body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } });
    const refused = await rest.serve(request('/t/v1/write', body('x')));
    expect(refused.status).toBe(400);
    expect(refused.replay).toBeDefined();
    const missing = await rest.serve(request('/t/v1/write', { method: 'POST' }));
    expect([missing.status, JSON.parse(String(missing.body)).code]).toEqual([400, 'rest_missing_callback_param']);
    expect(missing.replay).toBeDefined();
    const badJson = await rest.serve(request('/t/v1/write', { ...body(1), body: '{"n":' }));
    expect([badJson.status, badJson.replay !== undefined]).toEqual([400, true]);
    // A login's refusal too, until its session ends.
    const login = await rest.serve(
      request('/t/v1/write', { ...body(0), headers: { ...body(0).headers, who: 'cookie', 'x-wp-nonce': 'n' } }),
    );
    expect(login.headers).toContain('Allow');
    expect(rest.replayable(login.replay!)).toBe(true);
    state.now = 5_000;
    expect(rest.replayable(login.replay!)).toBe(false);
  });

  test('a GET refused for its arguments, and a write whose endpoint says true, are stamped too', async () => {
    const { policy } = testPolicy();
    const rest = server(policy);
    const read = await rest.serve(request('/t/v1/checked-read', { query: { n: '-1' } }));
    expect([read.status, read.replay !== undefined]).toEqual([400, true]);
    const write = await rest.serve(request('/t/v1/write-true', { method: 'PUT' }));
    expect([write.status, write.replay !== undefined]).toEqual([400, true]);
    // Its success is not: a write's callback is never given again.
    const json = { 'content-type': 'application/json' };
    const ok = await rest.serve(request('/t/v1/write-true', { method: 'PUT', body: '{"n":2}', headers: json }));
    expect([ok.status, ok.replay]).toEqual([200, undefined]);
  });

  test.each([
    [
      'a write that passes its checks (it wrote)',
      request('/t/v1/write', {
        method: 'POST',
        body: '{"n":1}',
        headers: { 'content-type': 'application/json', who: 'cookie', 'x-wp-nonce': 'n' },
      }),
    ],
    [
      'a write refused by its permission check',
      request('/t/v1/write', { method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' } }),
    ],
    ['a refusal by an endpoint that declares only its permission', request('/t/v1/write-permission-only', { method: 'POST' })],
    ['a refusal on a route with an undeclared endpoint (Allow asks it)', request('/t/v1/write-beside-undeclared', { method: 'POST' })],
    ['a validator that threw', request('/t/v1/write-throwing', { method: 'POST', query: { n: '1' } })],
    ['a refusal of a method given by _method', request('/t/v1/write', { method: 'GET', query: { _method: 'POST' } })],
    ['a refusal of an application password', request('/t/v1/write', { method: 'POST', headers: { who: 'app-password' } })],
  ])('is not stamped for %s', async (_what, incoming) => {
    const { policy } = testPolicy();
    expect((await server(policy).serve(incoming)).replay).toBeUndefined();
  });

  test('ends when a route is registered after the answer was made', async () => {
    const { policy } = testPolicy();
    const rest = server(policy);
    const stamp = (await rest.serve(request('/t/v1/pure'))).replay!;
    expect(rest.replayable(stamp)).toBe(true);
    rest.registerRoute('t/v1', '/pure', { methods: 'DELETE', callback: () => 1, replayable: 'permission' });
    expect(rest.replayable(stamp)).toBe(false);
  });

  test('asks a function flag at each answer', async () => {
    const { policy } = testPolicy();
    const rest = server(policy);
    sometimes.value = true;
    expect((await rest.serve(request('/t/v1/sometimes'))).replay).toBeDefined();
    sometimes.value = false;
    expect((await rest.serve(request('/t/v1/sometimes'))).replay).toBeUndefined();
  });

  test('without a policy nothing is stamped', async () => {
    const rest = createBareRestServer();
    rest.registerRoute('t/v1', '/pure', { methods: 'GET', callback: () => 1, replayable: true });
    expect((await rest.serve(request('/t/v1/pure'))).replay).toBeUndefined();
  });
});
