/**
 * The module layers point one way (docs/architecture.md): src/core at the bottom imports nothing of
 * ours; src/store does not know the REST layer; the generic REST layer knows no adapter,
 * feature, plugin API, store, auth or jobs; the configuration knows no REST layer.
 * Tests are left out: they may wire whole apps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => (f.endsWith('.ts') || f.endsWith('.tsx')) && !f.endsWith('.test.ts') && !f.split(path.sep).includes('testing'))
    .map((f) => path.join(dir, f));
}

/** `src/`-relative folders (first segment, or the file name for root files) a file imports from. */
function importedLayers(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const layers = new Set<string>();
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)) {
    const target = path.relative(SRC, path.resolve(SRC, path.dirname(file), match[1]!));
    layers.add(target.split(path.sep)[0]!);
  }
  return [...layers];
}

/** A root file (`app.ts`, the wiring files) is the composition: nothing below may import it. */
const isRootFile = (layer: string) => layer.endsWith('.js') || layer.endsWith('.ts');

const rules: [folder: string, forbidden: (layer: string) => boolean][] = [
  ['core', (layer) => layer !== 'core'],
  ['store', (layer) => layer === 'rest' || isRootFile(layer)],
  ['rest', (layer) => ['http', 'features', 'plugins', 'store', 'auth', 'jobs'].includes(layer) || isRootFile(layer)],
  ['config', (layer) => layer === 'rest' || isRootFile(layer)],
  // The HTTP adapter serves what features declare; the login pages are a feature, not the adapter's.
  ['http', (layer) => ['store', 'auth', 'jobs', 'plugins'].includes(layer) || isRootFile(layer)],
  ['features', (layer) => layer === 'http' || layer === 'cli' || isRootFile(layer)],
  // The admin page's browser app: bundled apart, it shares no module with the server.
  ['admin', (layer) => layer !== 'admin'],
];

describe('layers', () => {
  test.each(rules)('src/%s imports only what lies below it', (folder, forbidden) => {
    const offending = sourceFiles(folder).flatMap((file) => importedLayers(file).filter((l) => forbidden(l)).map((l) => `${file} → ${l}`));
    expect(offending).toEqual([]);
  });
});

test('no server module imports the admin app', () => {
  const folders = readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'admin').map((d) => d.name);
  const offending = folders.flatMap((folder) => sourceFiles(folder).filter((file) => importedLayers(file).includes('admin')));
  expect(offending).toEqual([]);
});
