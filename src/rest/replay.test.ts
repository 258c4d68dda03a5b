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
