import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { builtInFeatures } from '../index.js';
import { call, permissionBody } from '../jetpack/testing/http-client.js';
import { createStatsFeature } from './index.js';

const GOOD_KEY = 'goodkey12345';
const HOUR = 3_600_000;
const stats = (spam: number) => ({ spam, ham: 56, missed_spam: 0, false_positives: 1, accuracy: 99.92, time_saved: 7200, breakdown: {} });

/** An Akismet speaking the REST protocol on a real socket; `mode` makes it misbehave. */
let mode: 'normal' | 'down' | 'slow' | 'rate-limited' = 'normal';
let spam = 1234;
const server: Server = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => {
    if (mode === 'slow') return;
    if (mode === 'down') return void res.writeHead(503).end('Service Unavailable');
    if (mode === 'rate-limited') return void res.writeHead(429, { 'retry-after': '60' }).end('Too Many Requests');
    const params = new URLSearchParams(text);
    const valid = params.get('key') === GOOD_KEY && params.get('blog') === 'http://example.org';
    if (req.url === '/1.1/verify-key') res.writeHead(200).end(valid ? 'valid' : 'invalid');
    else if (req.url === '/1.1/get-stats') res.writeHead(200, { 'content-type': 'application/json' }).end(valid ? JSON.stringify(stats(params.get('from') === 'all' ? spam : 40)) : 'invalid');
    else res.writeHead(404).end();
  });
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let apps: TestApp[] = [];
afterEach(async () => {
  mode = 'normal';
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
    expect((await call(offline, 'GET', '/akismet/stats/get', { as: await offline.loginAs('subscriber') })).json).toEqual(permissionBody('invalid_user_permission_view_admin', 403));
  });

  it('answers the bare string "not_installed" without a key', async () => {
    expect(await statsAs(await app({}))).toEqual([200, 'not_installed']);
  });

  it('answers both intervals for a valid key, and the bare string "invalid_key" for a refused one', async () => {
    expect(await statsAs(await app({ SITEWARD_AKISMET_KEY: GOOD_KEY }))).toEqual([200, { '6-months': stats(40), all: stats(1234) }]);
    expect(await statsAs(await app({ SITEWARD_AKISMET_KEY: 'wrongkey9999' }))).toEqual([200, 'invalid_key']);
  });

  it.each([
    ['down (503)', 'down' as const],
    ['slow', 'slow' as const],
    ['rate-limiting (429)', 'rate-limited' as const],
  ])('is a 502 naming the service when it is %s and nothing is cached', async (_, how) => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    mode = how;
    const host = new URL(url).host;
    expect(await statsAs(t)).toEqual([
      502,
      { code: 'service_unavailable', message: `The Akismet service at ${host} could not be reached. Try again later.`, data: { status: 502, service: 'Akismet' } },
    ]);
  });

  it('serves the cached stats for an hour, and the expired ones while the service is down', async () => {
    const t = await app({ SITEWARD_AKISMET_KEY: GOOD_KEY });
    expect(await statsAs(t)).toEqual([200, { '6-months': stats(40), all: stats(1234) }]);
    spam = 2000;
    now += HOUR - 1;
    expect(await statsAs(t)).toEqual([200, { '6-months': stats(40), all: stats(1234) }]);
    now += 2;
    mode = 'down';
    expect(await statsAs(t)).toEqual([200, { '6-months': stats(40), all: stats(1234) }]);
    mode = 'normal';
    expect(await statsAs(t)).toEqual([200, { '6-months': stats(40), all: stats(2000) }]);
  });
});
