/**
 * Documents drawn from the code must match it. `npm run docs:generate` rewrites them
 * (SITEWARD_WRITE_DOCS=1); otherwise a stale document fails here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { environmentOnly } from '../src/config/core-settings.js';
import { settingsMarkdown } from '../src/config/settings-doc.js';
import { builtInSettings, loadConfig } from '../src/settings.js';
import { createApp } from '../src/compose.js';
import { routesDocument } from '../src/core/route-table.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const write = process.env.SITEWARD_WRITE_DOCS === '1';

function expectDocument(relative: string, generated: string): void {
  const file = path.join(ROOT, relative);
  if (write) writeFileSync(file, generated);
  expect(readFileSync(file, 'utf8'), `${relative} is stale: run npm run docs:generate`).toBe(generated);
}

test('docs/configuration.md lists every declared setting as declared', () => {
  expectDocument('docs/configuration.md', settingsMarkdown(builtInSettings, environmentOnly));
});

test('docs/routes.md shows every route, page and asset mount the code registers, with its owner', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-routes-'));
  const app = await createApp(loadConfig({ env: { SITEWARD_DATA_DIR: dir }, cwd: dir, configFile: null }), {
    logger: false,
    startJobs: false,
  });
  try {
    expectDocument('docs/routes.md', routesDocument(app.routes()));
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
