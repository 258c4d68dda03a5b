/**
 * A site project directory whose plugins really load: a private `package.json` of its own, an
 * installed, public package under `node_modules/` for each of `packages` (name → version, scoped
 * names included), each exporting a no-op plugin, and any `files` (path → content). The caller
 * removes it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function makePluginSite(packages: Record<string, string>, files: Record<string, string> = {}): string {
  const site = mkdtempSync(join(tmpdir(), 'siteward-plugin-site-'));
  const put = (path: string, content: unknown) => {
    mkdirSync(join(site, path, '..'), { recursive: true });
    writeFileSync(join(site, path), typeof content === 'string' ? content : JSON.stringify(content));
  };
  put('package.json', { name: 'my-site', version: '1.0.0', private: true });
  for (const [path, content] of Object.entries(files)) put(path, content);
  for (const [name, version] of Object.entries(packages)) {
    put(`node_modules/${name}/package.json`, { name, version, type: 'module', main: 'index.js' });
    put(`node_modules/${name}/index.js`, 'export default () => {};');
  }
  return site;
}
