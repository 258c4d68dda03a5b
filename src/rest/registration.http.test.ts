/** Loading third-party plugins at start-up (the REST layer's registration rules: registration.test.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('plugins from SITEWARD_PLUGINS', () => {
  it('loads a plugin module from a path given in SITEWARD_PLUGINS', async () => {
    app = await createTestApp({ env: { SITEWARD_PLUGINS: new URL('../../test/fixtures/hello-plugin.js', import.meta.url).pathname } });
    expect((await app.request({ path: '/wp-json/hello/v1/greet/Ann' })).json).toEqual({ hello: 'Ann' });
  });

  it('loads a plugin given as the name of an installed npm package', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-pkg-'));
    try {
      const pkg = path.join(dataDir, 'node_modules', 'siteward-plugin-hello');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'siteward-plugin-hello', type: 'module', main: 'index.js' }));
      writeFileSync(
        path.join(pkg, 'index.js'),
        "export default async (api) => { api.registerRoute('pkg/v1', '/ping', { callback: () => 'pong' }); };",
      );
      app = await createTestApp({ dataDir, env: { SITEWARD_PLUGINS: 'siteward-plugin-hello' } });
      expect((await app.request({ path: '/wp-json/pkg/v1/ping' })).json).toBe('pong');
      await app.close();
      app = undefined;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops start-up with a clear message when a plugin cannot be loaded', async () => {
    await expect(createTestApp({ env: { SITEWARD_PLUGINS: '/nonexistent/plugin.js' } })).rejects.toThrow(
      /Plugin "\/nonexistent\/plugin.js" could not be loaded/,
    );
    await expect(
      createTestApp({ env: { SITEWARD_PLUGINS: new URL('../../test/fixtures/not-a-plugin.js', import.meta.url).pathname } }),
    ).rejects.toThrow(/must default-export a register\(api\) function/);
  });
});
