/**
 * Documents drawn from the code must match it. `npm run docs:generate` rewrites them
 * (SITEWARD_WRITE_DOCS=1); otherwise a stale document fails here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { environmentOnly } from '../src/config/core-settings.js';
import { settingsMarkdown } from '../src/config/settings-doc.js';
import { builtInSettings } from '../src/settings.js';

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
