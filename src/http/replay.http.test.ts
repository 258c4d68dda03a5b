/**
 * Byte-identical repeats answered again by the HTTP adapter (src/rest/replay.ts), over real
 * sockets: only while nothing the answer was made from has changed, in this process or another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedIn, TestApp } from '../../test/helpers/test-app.js';
import { pairStores, startWorkerPair, type WorkerPair } from '../../test/helpers/worker-pair.js';
import type { SitewardApi } from '../plugins/api.js';

/**
 * Two routes whose answers count their calls. `/count` claims to be replayable although it is
 * not, so that a replay shows: the count then stays the same.
 */
function counting(api: SitewardApi): void {
  let calls = 0;
  api.registerRoute('test/v1', '/count', { methods: 'GET', callback: () => ({ calls: ++calls }), replayable: true });
  api.registerRoute('test/v1', '/count-undeclared', { methods: 'GET', callback: () => ({ calls: ++calls }) });
}

const calls = (res: { json: unknown }) => (res.json as { calls: number }).calls;
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
