import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPluginPackage } from './plugin-packages.js';
import { pluginUpdatesAnswer, updatesBody } from './plugin-updates.js';
import { RegistryClient } from './registry-client.js';
import { FakeRegistry } from '../../../test/helpers/fake-registry.js';

/** A site project with plugins of every kind. */
function makeSite(): string {
  const site = mkdtempSync(join(tmpdir(), 'siteward-site-'));
  const put = (path: string, json: unknown) => {
    mkdirSync(join(site, path, '..'), { recursive: true });
    writeFileSync(join(site, path), typeof json === 'string' ? json : JSON.stringify(json));
  };
  put('package.json', { name: 'my-site', version: '1.0.0' });
  put('plugins/local.js', 'export default () => {}');
  put('node_modules/siteward-plugin-seo/package.json', { name: 'siteward-plugin-seo', version: '2.0.0' });
  put('node_modules/siteward-plugin-seo/dist/package.json', { type: 'module' });
  put('node_modules/siteward-plugin-seo/dist/index.js', 'export default () => {}');
  put('node_modules/@acme/siteward-forms/package.json', { name: '@acme/siteward-forms', version: '1.0.0' });
  put('node_modules/siteward-plugin-old/package.json', { name: 'siteward-plugin-old', version: '0.9.0-beta.1' });
  put('node_modules/internal-plugin/package.json', { name: 'internal-plugin', version: '1.0.0', private: true });
  put('node_modules/unpublished-plugin/package.json', { name: 'unpublished-plugin', version: '1.0.0' });
  return site;
}

describe('plugin updates', () => {
  const registry = new FakeRegistry();
  let baseUrl: string;
  let site: string;

  beforeAll(async () => {
    baseUrl = await registry.start();
    registry.packages.set('siteward-plugin-seo', '2.1.0');
    registry.packages.set('@acme/siteward-forms', '1.0.0');
    registry.packages.set('siteward-plugin-old', '0.9.0');
    site = makeSite();
  });
  afterAll(async () => {
    await registry.stop();
    rmSync(site, { recursive: true, force: true });
  });

  it('finds the package of a path entry past a type-only package.json', async () => {
    const found = await findPluginPackage('./node_modules/siteward-plugin-seo/dist/index.js', site);
    expect(found).toMatchObject({ kind: 'package', pkg: { name: 'siteward-plugin-seo', version: '2.0.0' } });
  });

  it('does not count local files of the site project, private or missing packages', async () => {
    expect(await findPluginPackage('./plugins/local.js', site)).toMatchObject({ kind: 'not-counted', reason: 'site-project' });
    expect(await findPluginPackage('internal-plugin', site)).toMatchObject({ kind: 'not-counted', reason: 'private' });
    expect(await findPluginPackage('not-installed', site)).toMatchObject({ kind: 'not-counted', reason: 'no-package-json' });
  });

  it('counts the plugins with a newer latest, pre-releases included', async () => {
    const client = new RegistryClient({ baseUrl });
    const entries = [
      'siteward-plugin-seo',
      '@acme/siteward-forms/extra',
      'siteward-plugin-old',
      'internal-plugin',
      './plugins/local.js',
      'unpublished-plugin',
    ];
    const answer = await pluginUpdatesAnswer(entries, site, client);
    expect(answer).toMatchObject({
      ok: true,
      status: 200,
      body: { code: 'updates-available', message: '2 plugins need updating.', count: 2 },
    });
  });

  it('uses the reference messages for none, one and several', () => {
    expect(updatesBody(0)).toEqual({ code: 'success', message: 'All plugins are up-to-date. Keep up the good work!', count: 0 });
    expect(updatesBody(1)).toEqual({ code: 'updates-available', message: '1 plugin need updating.', count: 1 });
    expect(updatesBody(3).message).toBe('3 plugins need updating.');
  });

  it('answers not_found when the registry could not be asked about any plugin', async () => {
    registry.mode = 'rate-limited';
    registry.requests.length = 0;
    try {
      const answer = await pluginUpdatesAnswer(['siteward-plugin-seo', 'siteward-plugin-old'], site, new RegistryClient({ baseUrl }));
      expect(answer.ok).toBe(false);
      // After the first 429 the second package was not asked at all.
      expect(registry.requests.filter((r) => r.url === '/siteward-plugin-old')).toHaveLength(0);
    } finally {
      registry.mode = 'normal';
    }
  });
});
