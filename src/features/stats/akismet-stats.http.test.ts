import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeAkismet, fakeAkismetStats } from '../../../test/helpers/fake-akismet.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { builtInFeatures } from '../index.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { createStatsFeature } from './index.js';

const GOOD_KEY = 'goodkey12345';
const HOUR = 3_600_000;
/** The answer for a valid key: both intervals, `spam` all-time. */
const both = (spam: number) => ({ '6-months': fakeAkismetStats('6-months'), all: fakeAkismetStats('all', spam) });

const akismet = new FakeAkismet(GOOD_KEY, 'http://example.org');
let url: string;
beforeAll(async () => {
  url = await akismet.start();
});
afterAll(() => akismet.stop());

let apps: TestApp[] = [];
afterEach(async () => {
  akismet.mode = 'normal';
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

let now = 1_700_000_000_000;
async function app(env: Record<string, string>): Promise<TestApp> {
  // A short timeout so the slow service is given up on quickly (production: 5 s).
  const features = builtInFeatures.map((f) => (f.name === 'stats' ? createStatsFeature({ timeoutMs: 300 }) : f));
  const t = await createTestApp({ env: { SITEWARD_AKISMET_URL: url, ...env }, features, clock: () => now, startJobs: false });
  apps.push(t);
  return t;
}

async function statsAs(t: TestApp) {
  const res = await call(t, 'GET', '/akismet/stats/get', { as: await t.loginAs('administrator') });
  return [res.status, res.json];
}

describe('GET akismet/stats/get', () => {
  it('is 401 anonymous and, in dev mode, 403 for a subscriber', async () => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    expect((await call(t, 'GET', '/akismet/stats/get')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
    const offline = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY, SITEWARD_OFFLINE: '1' });
    expect((await call(offline, 'GET', '/akismet/stats/get', { as: await offline.loginAs('subscriber') })).json).toEqual(
      permissionBody('invalid_user_permission_view_admin', 403),
    );
  });

  it('answers the bare string "not_installed" without a key', async () => {
    expect(await statsAs(await app({}))).toEqual([200, 'not_installed']);
  });

  it('answers both intervals for a valid key, and the bare string "invalid_key" for a refused one', async () => {
    expect(await statsAs(await app({ SITEWARD_AKISMET_KEY: GOOD_KEY }))).toEqual([200, both(1234)]);
    expect(await statsAs(await app({ SITEWARD_AKISMET_KEY: 'wrongkey9999' }))).toEqual([200, 'invalid_key']);
  });

  it.each([
    ['down (503)', 'down' as const],
    ['slow', 'slow' as const],
    ['rate-limiting (429)', 'rate-limited' as const],
  ])('is a 502 naming the service when it is %s and nothing is cached', async (_, how) => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    akismet.mode = how;
    const host = new URL(url).host;
    expect(await statsAs(t)).toEqual([
      502,
      {
        code: 'service_unavailable',
        message: `The Akismet service at ${host} could not be reached. Try again later.`,
        data: { status: 502, service: 'Akismet' },
      },
    ]);
  });

  it('serves the cached stats for an hour, and the expired ones while the service is down', async () => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    expect(await statsAs(t)).toEqual([200, both(1234)]);
    akismet.spam = 2000;
    now += HOUR - 1;
    expect(await statsAs(t)).toEqual([200, both(1234)]);
    now += 2;
    akismet.mode = 'down';
    expect(await statsAs(t)).toEqual([200, both(1234)]);
    akismet.mode = 'normal';
    expect(await statsAs(t)).toEqual([200, both(2000)]);
  });
});

describe('GET module/akismet/data (the 4.3+ name, docs/spec/current-clients.md A.6)', () => {
  it('answers the all-time spam count as a bare integer, and the same bare code strings', async () => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    const as = await t.loginAs('administrator');
    // The fake service's count is whatever the tests before set: compare with the 2016 route's.
    const stats = (await call(t, 'GET', '/akismet/stats/get', { as })).json as { all: { spam: number } };
    const res = await call(t, 'GET', '/module/akismet/data', { as });
    expect([res.status, res.text]).toEqual([200, String(stats.all.spam)]);
    expect(stats.all.spam).toBeGreaterThan(0);
    const refused = await app({ SITEWARD_AKISMET_KEY: 'wrongkey9999' });
    expect((await call(refused, 'GET', '/module/akismet/data', { as: await refused.loginAs('administrator') })).json).toBe('invalid_key');
  });
});
