import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/free-port.js';
import { makePluginSite } from '../../../test/helpers/plugin-site.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { builtInFeatures } from '../index.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { createUpdatesFeature } from './index.js';
import { FakeRegistry } from '../../../test/helpers/fake-registry.js';

const HOUR = 3_600_000;
const PLUGINS = 'sw-gallery,@acme/sw-forms,./plugins/local.js';

/** Two installed packages (one scoped) and a local file. */
const makeSite = () =>
  makePluginSite({ 'sw-gallery': '1.2.0', '@acme/sw-forms': '2.0.0' }, { 'plugins/local.js': 'export default () => {};' });

/** A URL nobody listens on. */
const closedPortUrl = async () => `http://127.0.0.1:${await freePort()}`;

const registry = new FakeRegistry();
let registryUrl: string;
const sites: string[] = [];
let apps: TestApp[] = [];
let now = 1_700_000_000_000;

beforeAll(async () => {
  registryUrl = await registry.start();
});
afterAll(async () => {
  await registry.stop();
  for (const site of sites) rmSync(site, { recursive: true, force: true });
});
afterEach(async () => {
  registry.mode = 'normal';
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const site = makeSite();
  sites.push(site);
  // A short timeout so the slow registry is given up on quickly (production: 5 s).
  const features = builtInFeatures.map((f) => (f.name === 'updates' ? createUpdatesFeature({ timeoutMs: 300 }) : f));
  const t = await createTestApp({
    dataDir: site,
    env: { SITEWARD_PLUGINS: PLUGINS, SITEWARD_NPM_REGISTRY: registryUrl, ...env },
    features,
    clock: () => now,
    startJobs: false,
  });
  apps.push(t);
  return t;
}

async function updatesAs(t: TestApp) {
  const res = await call(t, 'GET', '/updates/plugins', { as: await t.loginAs('administrator') });
  return [res.status, res.json];
}

const CHECK_FAILED = [404, { code: 'not_found', message: 'Could not check updates for plugins on this site.', data: { status: 404 } }];

describe('GET updates/plugins', () => {
  it('is 401 anonymous and, in dev mode, 403 for a subscriber', async () => {
    const t = await app();
    expect((await call(t, 'GET', '/updates/plugins')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
    const offline = await app({ SITEWARD_OFFLINE: '1' });
    expect((await call(offline, 'GET', '/updates/plugins', { as: await offline.loginAs('subscriber') })).json).toEqual(
      permissionBody('invalid_user_permission_view_admin', 403),
    );
  });

  it('counts the installed plugin packages with a newer latest, in the reference wording', async () => {
    registry.packages.set('sw-gallery', '1.2.0');
    registry.packages.set('@acme/sw-forms', '2.0.0');
    expect(await updatesAs(await app())).toEqual([
      200,
      { code: 'success', message: 'All plugins are up-to-date. Keep up the good work!', count: 0 },
    ]);
    registry.packages.set('sw-gallery', '1.3.0');
    expect(await updatesAs(await app())).toEqual([200, { code: 'updates-available', message: '1 plugin need updating.', count: 1 }]);
    registry.packages.set('@acme/sw-forms', '3.0.0-rc.1');
    expect(await updatesAs(await app())).toEqual([200, { code: 'updates-available', message: '2 plugins need updating.', count: 2 }]);
    // The local file is never asked about; the scoped name goes with its slash encoded.
    expect(registry.requests.map((r) => r.url)).not.toContain('/my-site');
    expect(registry.requests.map((r) => r.url)).toContain('/@acme%2fsw-forms');
  });

  it('answers the reference error when the registry is unreachable', async () => {
    expect(await updatesAs(await app({ SITEWARD_NPM_REGISTRY: await closedPortUrl() }))).toEqual(CHECK_FAILED);
  });

  it.each([
    ['slow', 'slow' as const],
    ['rate-limiting (429)', 'rate-limited' as const],
  ])('answers the reference error when the registry is %s and nothing is cached', async (_, how) => {
    const t = await app();
    registry.mode = how;
    expect(await updatesAs(t)).toEqual(CHECK_FAILED);
  });

  it('answers from its 12-hour cache, and from the expired answers while the registry rate-limits', async () => {
    registry.packages.set('sw-gallery', '1.3.0');
    registry.packages.set('@acme/sw-forms', '2.0.0');
    const t = await app();
    expect(await updatesAs(t)).toEqual([200, { code: 'updates-available', message: '1 plugin need updating.', count: 1 }]);
    const asked = registry.requests.length;
    registry.packages.set('@acme/sw-forms', '2.0.1');
    now += 12 * HOUR - 1;
    expect(await updatesAs(t)).toEqual([200, { code: 'updates-available', message: '1 plugin need updating.', count: 1 }]);
    expect(registry.requests.length).toBe(asked);
    now += 2;
    registry.mode = 'rate-limited';
    expect(await updatesAs(t)).toEqual([200, { code: 'updates-available', message: '1 plugin need updating.', count: 1 }]);
    registry.mode = 'normal';
    // Retry-After: 30 s has not passed: still the old answers, without asking.
    expect(await updatesAs(t)).toEqual([200, { code: 'updates-available', message: '1 plugin need updating.', count: 1 }]);
    now += 31_000;
    expect(await updatesAs(t)).toEqual([200, { code: 'updates-available', message: '2 plugins need updating.', count: 2 }]);
  });
});
