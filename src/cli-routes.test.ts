import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { builtInFeatures } from './features/index.js';
import { htmlPage, type Feature } from './features/contract.js';
import type { RouteRow } from './core/route-table.js';

const dir = mkdtempSync(path.join(tmpdir(), 'siteward-routes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plugin = path.join(dir, 'demo-plugin.mjs');
writeFileSync(
  plugin,
  `export default function register(api) {
    api.registerRoute('demo/v1', '/things', { methods: 'POST', allowBatch: { v1: true }, permissionCallback: () => true, callback: () => ({}) });
    api.registerRoute('demo/v1', '/open', { callback: () => 'hi' });
  }`,
);
const configFile = path.join(dir, 'siteward.config.json');
writeFileSync(configFile, JSON.stringify({ dataDir: path.join(dir, 'data'), plugins: [plugin] }));

const helloFeature: Feature = {
  name: 'hello',
  register(ctx) {
    ctx.addPage({ method: 'GET', path: '/hello', handle: async () => htmlPage(200, '<p>Hello</p>') });
  },
};

async function run(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['routes', ...args, '--config', configFile],
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    { features: [...builtInFeatures, helloFeature] },
  );
  return { code, out, err };
}

describe('siteward routes', () => {
  it('prints every REST route, page and asset mount with its owner, permission and batchable flag', async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^method\s+path\s+owner\s+permission\s+batchable$/);
    const rows = out.slice(1).map((line) => line.split(/\s{2,}/));
    expect(rows).toContainEqual(['GET', '/wp-json/jetpack/v4/module/all', 'jetpack', 'view_admin', 'no']);
    expect(rows).toContainEqual(['GET', '/login', 'login', 'page', 'no']);
    expect(rows).toContainEqual(['GET', '/favicon.ico', 'http', 'none', 'no']);
    expect(rows).toContainEqual(['GET', '/admin/assets/*', 'admin-page', 'none', 'no']);
    expect(rows).toContainEqual(['*', '(no match)', 'http', 'none', 'no']);
  });

  it('names the plugin or feature that registered each route, and whether batch/v1 may call it', async () => {
    const { code, out } = await run('--format', 'json');
    expect(code).toBe(0);
    const rows = JSON.parse(out.join('\n')) as RouteRow[];
    expect(rows).toContainEqual({
      method: 'POST',
      path: '/wp-json/demo/v1/things',
      owner: `plugin:${plugin}`,
      permission: 'custom',
      batchable: 'v1',
    });
    expect(rows).toContainEqual({
      method: 'GET',
      path: '/wp-json/demo/v1/open',
      owner: `plugin:${plugin}`,
      permission: 'none',
      batchable: 'no',
    });
    expect(rows).toContainEqual({ method: 'GET', path: '/hello', owner: 'hello', permission: 'page', batchable: 'no' });
  });

  it('refuses an unknown format with exit code 2', async () => {
    const { code, err } = await run('--format', 'yaml');
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('unknown format "yaml"');
  });
});
