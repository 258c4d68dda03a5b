/**
 * Byte-identical repeats answered again by the HTTP adapter (src/rest/replay.ts), over real
 * sockets: only while nothing the answer was made from has changed, in this process or another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedIn, TestApp } from '../../test/helpers/test-app.js';
import { createTestApp } from '../../test/helpers/test-app.js';
import { pairStores, startWorkerPair, type WorkerPair } from '../../test/helpers/worker-pair.js';
import { connect } from 'node:net';
import type { SitewardApi } from '../plugins/api.js';
import { RestError } from '../rest/errors.js';

/**
 * Two routes whose answers count their calls. `/count` claims to be replayable although it is
 * not, so that a replay shows: the count then stays the same.
 */
function counting(api: SitewardApi): void {
  let calls = 0;
  api.registerRoute('test/v1', '/count', { methods: 'GET', callback: () => ({ calls: ++calls }), replayable: true });
  api.registerRoute('test/v1', '/count-undeclared', { methods: 'GET', callback: () => ({ calls: ++calls }) });
  // A write whose refusal says how many times its check ran (so a replay shows), and whose success counts too.
  api.registerRoute('test/v1', '/refuse', {
    methods: 'POST',
    args: {
      n: { validateCallback: (value) => (typeof value === 'number' ? true : new RestError('bad_n', `check ${++calls}`, { status: 400 })) },
    },
    callback: () => ({ calls: ++calls }),
    replayable: 'arguments',
  });
}

const calls = (res: { json: unknown }) => (res.json as { calls: number }).calls;
/** The refusal's count, from `data.params.n` ("check N"). */
const checks = (res: { json: unknown }) => Number((res.json as { data: { params: { n: string } } }).data.params.n.slice(6));
const REFUSE = '/wp-json/test/v1/refuse';
const SETTINGS = '/wp-json/jetpack/v4/settings';

// Two instances on one store behave as two workers of `siteward start`, each with its own caches.
// On PostgreSQL another worker's write is known once its notification has arrived (as for every
// cache there), so the tests wait for that before asking.
describe.each(pairStores)('answers given again to byte-identical repeats, on %s', (backend) => {
  let pair: WorkerPair;
  let t: TestApp;
  let other: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    pair = await startWorkerPair(backend, { plugins: [counting], startJobs: false });
    ({ first: t, second: other } = pair);
    admin = await t.loginAs('administrator');
  });
  afterAll(() => pair.close());
  const notified = () => pair.notified();
  /** Until this worker's change listener has brought the credentials version the store holds now (PostgreSQL). */
  const knownHere = async () => {
    const current = await t.store.sessions.credentialsVersion();
    for (let i = 0; i < 2000 && (t.store.sessions.knownCredentialsVersion?.() ?? current) < current; i++)
      await new Promise((r) => setTimeout(r, 5));
  };

  it('repeats the first answer of a replayable route, and runs it again for a request that differs in any header byte', async () => {
    const first = await t.request({ path: '/wp-json/test/v1/count' });
    const repeat = await t.request({ path: '/wp-json/test/v1/count' });
    expect(repeat.status).toBe(200);
    expect(calls(repeat)).toBe(calls(first));
    const differing = await t.request({ path: '/wp-json/test/v1/count', headers: { 'X-Anything': '1' } });
    expect(calls(differing)).toBe(calls(first) + 1);
  });

  it('runs a route that does not declare itself replayable every time', async () => {
    const a = await t.request({ path: '/wp-json/test/v1/count-undeclared' });
    const b = await t.request({ path: '/wp-json/test/v1/count-undeclared' });
    expect(calls(b)).toBe(calls(a) + 1);
  });

  it('stops repeating once an option is written here', async () => {
    const first = await t.request({ path: '/wp-json/test/v1/count?here' });
    expect(calls(await t.request({ path: '/wp-json/test/v1/count?here' }))).toBe(calls(first));
    await t.store.options.set('replay_test_here', 1);
    expect(calls(await t.request({ path: '/wp-json/test/v1/count?here' }))).not.toBe(calls(first));
  });

  it('stops repeating once another process sharing the store writes', async () => {
    const first = await t.request({ path: '/wp-json/test/v1/count?there' });
    expect(calls(await t.request({ path: '/wp-json/test/v1/count?there' }))).toBe(calls(first));
    await other.store.options.set('replay_test_there', 1);
    await notified();
    expect(calls(await t.request({ path: '/wp-json/test/v1/count?there' }))).not.toBe(calls(first));
  });

  it('shows a settings write made by another process to the next GET settings', async () => {
    const before = await t.request({ path: SETTINGS, headers: t.auth(admin) });
    expect(before.json).toEqual({ jetpack_holiday_snow_enabled: false });
    expect((await t.request({ path: SETTINGS, headers: t.auth(admin) })).json).toEqual(before.json);
    const otherAdmin = await other.loginAs('administrator');
    const write = await other.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/settings/update',
      headers: other.auth(otherAdmin),
      body: { jetpack_holiday_snow_enabled: true },
    });
    expect(write.status).toBe(200);
    await notified();
    expect((await t.request({ path: SETTINGS, headers: t.auth(admin) })).json).toEqual({ jetpack_holiday_snow_enabled: true });
  });

  it('repeats the index, and shows the site name written by another process and a route registered since', async () => {
    const first = await t.request({ path: '/wp-json/?replay-index' });
    expect(first.status).toBe(200);
    const repeat = await t.request({ path: '/wp-json/?replay-index' });
    expect(repeat.text).toBe(first.text);
    await other.store.options.set('blogname', 'Renamed elsewhere');
    await notified();
    const renamed = await t.request({ path: '/wp-json/?replay-index' });
    expect((renamed.json as { name: string }).name).toBe('Renamed elsewhere');
    t.app.rest.registerRoute('late/v1', '/added', { methods: 'GET', callback: () => ({}) });
    const routes = (await t.request({ path: '/wp-json/?replay-index' })).json as { namespaces: string[]; routes: Record<string, unknown> };
    expect(routes.namespaces).toContain('late/v1');
    expect(Object.keys(routes.routes)).toContain('/late/v1/added');
  });

  it('repeats a namespace document until a route is registered in it', async () => {
    const first = await t.request({ path: '/wp-json/test/v1' });
    expect(first.status).toBe(200);
    expect((await t.request({ path: '/wp-json/test/v1' })).text).toBe(first.text);
    t.app.rest.registerRoute('test/v1', '/added-later', { methods: 'GET', callback: () => ({}) });
    const after = (await t.request({ path: '/wp-json/test/v1' })).json as { routes: Record<string, unknown> };
    expect(Object.keys(after.routes)).toContain('/test/v1/added-later');
  });

  it('stops repeating the answers of a login once its session is ended', async () => {
    const user = await t.loginAs('administrator');
    const me = await t.request({ path: '/wp-json/wp/v2/users/me', headers: t.auth(user) });
    expect(me.status).toBe(200);
    expect((await t.request({ path: '/wp-json/wp/v2/users/me', headers: t.auth(user) })).text).toBe(me.text);
    await other.store.sessions.destroyForUser(user.userId);
    await notified();
    const after = await t.request({ path: '/wp-json/wp/v2/users/me', headers: t.auth(user) });
    expect(after.status).not.toBe(200);
  });

  it('repeats the answers of an application password (Basic) and stops once it is revoked on another worker', async () => {
    const created = await t.app.authenticator.appPasswords.create(admin.login, 'replayed script');
    if (!created.ok) throw new Error(created.message);
    const basic = { Authorization: `Basic ${Buffer.from(`${admin.login}:${created.password}`).toString('base64')}` };
    // The creation is a credentials write: known everywhere once its notification has arrived.
    await notified();
    await knownHere();
    const first = await t.request({ path: '/wp-json/test/v1/count?basic', headers: basic });
    expect(first.status).toBe(200);
    expect(calls(await t.request({ path: '/wp-json/test/v1/count?basic', headers: basic }))).toBe(calls(first));
    expect(await other.app.authenticator.appPasswords.revoke(admin.login, created.info.uuid)).toBe(true);
    await notified();
    const after = await t.request({ path: '/wp-json/test/v1/count?basic', headers: basic });
    expect(after.status).toBe(401);
    // The tests after this one count on answers stamped with the version now in force.
    await knownHere();
  });

  it('repeats the refusal of a write whose arguments failed their checks, only for the same body, and never its success', async () => {
    const first = await t.request({ method: 'POST', path: REFUSE, body: { n: 'x' } });
    expect(first.status).toBe(400);
    // A refused body's answer is kept the second time the body comes, and given from the third on.
    const second = await t.request({ method: 'POST', path: REFUSE, body: { n: 'x' } });
    expect(checks(second)).toBe(checks(first) + 1);
    const repeat = await t.request({ method: 'POST', path: REFUSE, body: { n: 'x' } });
    expect([repeat.status, checks(repeat)]).toEqual([400, checks(second)]);
    expect(repeat.text).toBe(second.text);
    // One byte more or less is another request.
    const other = await t.request({ method: 'POST', path: REFUSE, body: { n: 'y' } });
    expect(checks(other)).toBe(checks(second) + 1);
    const ok = await t.request({ method: 'POST', path: REFUSE, body: { n: 1 } });
    await t.request({ method: 'POST', path: REFUSE, body: { n: 1 } });
    const okAgain = await t.request({ method: 'POST', path: REFUSE, body: { n: 1 } });
    expect([ok.status, okAgain.status]).toEqual([200, 200]);
    expect(calls(okAgain)).toBe(calls(ok) + 2);
  });

  it('checks the arguments again once an option is written, and for a body larger than the kept ones', async () => {
    await t.request({ method: 'POST', path: REFUSE, body: { n: 'z' } });
    const first = await t.request({ method: 'POST', path: REFUSE, body: { n: 'z' } });
    expect(checks(await t.request({ method: 'POST', path: REFUSE, body: { n: 'z' } }))).toBe(checks(first));
    await other.store.options.set('replay_test_refusal', 1);
    await notified();
    expect(checks(await t.request({ method: 'POST', path: REFUSE, body: { n: 'z' } }))).toBeGreaterThan(checks(first));
    const large = { n: 'big', pad: 'p'.repeat(5000) };
    const a = await t.request({ method: 'POST', path: REFUSE, body: large });
    const b = await t.request({ method: 'POST', path: REFUSE, body: large });
    expect([a.status, checks(b)]).toEqual([400, checks(a) + 1]);
  });

  it('answers a repeat whose body comes in pieces, and keeps serving after a repeat whose sender leaves mid-body', async () => {
    const port = (t.app.http.server.address() as { port: number }).port;
    const body = '{"n":"pieces"}';
    const head = `POST ${REFUSE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    /** Sends the head and then the body in the given pieces, each once the one before is written; the raw answer, or '' when `leave` closes early. */
    const send = (pieces: string[], leave = false) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (c) => {
          answer += c.toString('latin1');
          if (answer.includes('}}}')) socket.end();
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        void (async () => {
          for (const piece of [head, ...pieces]) {
            await new Promise<void>((written) => socket.write(piece, () => written()));
            // The next piece in a later turn of the event loop, after the server read this one.
            await new Promise((turn) => setImmediate(turn));
          }
          if (leave) socket.destroy();
        })();
      });
    await send([body]);
    const whole = await send([body]);
    expect(whole).toMatch(/^HTTP\/1\.1 400 /);
    const bodyOf = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n') + 4);
    // The head matches the kept answer's: the body is read on the repeat path, in three pieces.
    expect(bodyOf(await send([body.slice(0, 3), body.slice(3, 9), body.slice(9)]))).toBe(bodyOf(whole));
    expect(await send([body.slice(0, 4)], true)).toBe('');
    // Same head, another body of the same length: checked again.
    const changed = await send([body.replace('pieces', 'piecez')]);
    expect(checks({ json: JSON.parse(bodyOf(changed)) })).toBe(checks({ json: JSON.parse(bodyOf(whole)) }) + 1);
  });

  it('sends a repeat with the headers of the first answer and its own Date', async () => {
    const first = await t.request({ method: 'OPTIONS', path: '/wp-json/jetpack/v4/module/markdown' });
    const repeat = await t.request({ method: 'OPTIONS', path: '/wp-json/jetpack/v4/module/markdown' });
    const { date: _d1, ...firstHeaders } = first.headers;
    const { date: _d2, ...repeatHeaders } = repeat.headers;
    expect(repeat.status).toBe(first.status);
    expect(repeatHeaders).toEqual(firstHeaders);
    expect(repeat.text).toBe(first.text);
    expect(repeat.headers.date).toBeDefined();
  });
});

describe('a kept refusal whose body is over the anonymous limit', () => {
  it('is never answered before the credentials are checked again: once the login ended, the repeat gets the anonymous limit', async () => {
    const t = await createTestApp({ plugins: [counting], startJobs: false, env: { SITEWARD_ANONYMOUS_BODY_LIMIT: '1024' } });
    try {
      const admin = await t.loginAs('administrator');
      const body = { n: 'x', pad: 'p'.repeat(2000) };
      const first = await t.request({ method: 'POST', path: REFUSE, headers: t.auth(admin), body });
      expect(first.status).toBe(400);
      await t.store.sessions.destroyForUser(admin.userId);
      const after = await t.request({ method: 'POST', path: REFUSE, headers: t.auth(admin), body });
      expect([after.status, (after.json as { code: string }).code]).toEqual([413, 'rest_body_too_large']);
    } finally {
      await t.close();
    }
  });
});
