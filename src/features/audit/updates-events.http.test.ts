/**
 * Plugin updates seen: the first check that finds a newer version of a plugin records
 * `update.available` (who checked, the version before → after), once per version, through
 * `GET jetpack/v4/updates/plugins` against a registry served in the test.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeRegistry } from '../../../test/helpers/fake-registry.js';
import { makePluginSite } from '../../../test/helpers/plugin-site.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let now = 1_700_000_000_000;
/** Past the registry answers' cache. */
const later = () => void (now += 13 * 3_600_000);

describe('audit events of plugin updates seen', () => {
  const registry = new FakeRegistry();
  const site = makePluginSite({ 'sw-gallery': '1.2.0', '@acme/sw-forms': '2.0.0' }, {});
  let t: TestApp;

  beforeAll(async () => {
    const url = await registry.start();
    t = await createTestApp({
      dataDir: site,
      env: { SITEWARD_PLUGINS: 'sw-gallery,@acme/sw-forms', SITEWARD_NPM_REGISTRY: url },
      startJobs: false,
      clock: () => now,
    });
  });
  afterAll(async () => {
    await t.close();
    await registry.stop();
    rmSync(site, { recursive: true, force: true });
  });

  it('records each newer version once, by who checked', async () => {
    // A fresh login per check: the clock jumps past the registry cache (12 h), and nonces last 24 h.
    const check = async () => {
      const admin = await t.loginAs('administrator');
      return (await t.request({ path: '/wp-json/jetpack/v4/updates/plugins', headers: t.auth(admin) })).json as { count: number };
    };
    registry.packages.set('sw-gallery', '1.2.0');
    registry.packages.set('@acme/sw-forms', '2.0.0');
    expect((await check()).count).toBe(0);
    registry.packages.set('sw-gallery', '1.3.0');
    later();
    expect((await check()).count).toBe(1);
    later();
    expect((await check()).count).toBe(1);
    registry.packages.set('sw-gallery', '1.4.0');
    registry.packages.set('@acme/sw-forms', '2.1.0');
    later();
    expect((await check()).count).toBe(2);

    const seen = await t.store.auditLog.list({ action: 'update.available' }, { limit: 10, offset: 0, order: 'asc' });
    expect(seen.map((e) => [e.object?.id, e.changes.version])).toEqual([
      ['sw-gallery', { before: '1.2.0', after: '1.3.0' }],
      ['sw-gallery', { before: '1.2.0', after: '1.4.0' }],
      ['@acme/sw-forms', { before: '2.0.0', after: '2.1.0' }],
    ]);
    for (const e of seen) expect(e.actor).toMatchObject({ kind: 'user', login: expect.stringMatching(/^administrator/) });
  });
});
