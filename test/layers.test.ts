/**
 * The module layers point one way. `allowed` is the "may import" column of docs/architecture.md's
 * folder table (a test below checks the two agree): a file in a folder may import its own folder
 * and the folders (or single files) listed; nothing in a folder imports the root files
 * (`compose.ts`, `cli.ts`, …), which wire everything. Every folder of src must have a row, so a
 * new folder cannot slip past. Tests and test kits are left out: they may wire whole apps.
 * Between feature folders, imports go through the other feature's `index.ts` (docs/architecture.md
 * "Between features"); that rule holds for the tests inside src/features too.
 * Import cycles are `npm run cycles` (madge).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

const allowed: Record<string, readonly string[]> = {
  core: [],
  config: ['core'],
  // `wire` is types only (checked below): the store and auth write audit events of its shape (src/wire/audit.ts).
  store: ['core', 'wire'],
  rest: ['core'],
  auth: ['core', 'store', 'rest', 'wire'],
  jobs: ['core', 'store'],
  plugins: ['core', 'config', 'store', 'rest', 'jobs', 'wire'],
  accounts: ['core', 'auth'],
  features: ['core', 'config', 'store', 'rest', 'auth', 'jobs', 'plugins', 'wire'],
  // The HTTP adapter serves what features declare, knowing only their contract's types.
  http: ['core', 'config', 'rest', 'features/contract.ts'],
  // Types only, shared by the server that builds the answers and the admin page that reads them.
  wire: [],
  // The admin page's browser app: bundled apart, it shares only the type-only wire module with the server,
  // and its build takes the design tokens from the file the server's pages use too.
  admin: ['wire', 'core/theme.ts'],
};

/**
 * Edges inside src/features that would run against `need`: a feature may not import the
 * internals of one that needs it. Shared vocabulary lives in a folder both import.
 */
const forbiddenInsideFeatures: Record<string, readonly string[]> = {
  // jetpack needs connection; both take the `jetpack/v4` vocabulary from features/jetpack-v4.
  'features/connection': ['features/jetpack/'],
};

/**
 * Folders of src/features that are no feature: vocabulary several features share (docs/architecture.md
 * "Between features"). Every other folder there is a feature.
 */
const SHARED_FEATURE_FOLDERS = new Set(['jetpack-v4', 'remote', 'db']);

/**
 * Imports through another feature's internals that wait for their owners (another branch works in
 * those folders); each entry must still exist, so the list can only shrink.
 */
const PENDING_SURFACE_IMPORTS: readonly string[] = [];

/** Test-only code outside `*.test.ts` files (kits that start real peers, test browsers): only in `testing/` folders. */
const isTestCode = (file: string) => file.endsWith('.test.ts') || file.endsWith('.test.tsx') || file.split(path.sep).includes('testing');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => (f.endsWith('.ts') || f.endsWith('.tsx')) && !isTestCode(f))
    .map((f) => path.join(dir, f));
}

/** The `src/`-relative paths (`.ts`) a file imports. */
function imports(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const targets = new Set<string>();
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)) {
    targets.add(
      path
        .relative(SRC, path.resolve(SRC, path.dirname(file), match[1]!))
        .replace(/\.js$/, '.ts')
        .split(path.sep)
        .join('/'),
    );
  }
  return [...targets];
}

function mayImport(folder: string, target: string): boolean {
  const top = target.split('/')[0]!;
  if (top === folder) return true;
  return allowed[folder]!.some((entry) => entry === top || entry === target);
}

describe('layers', () => {
  test('test kits live in testing/ folders, which the build leaves out, and no product code imports one', () => {
    const all = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'));
    const misnamed = all.filter((f) => !isTestCode(f) && /^test-|test-kit|-kit\.ts$/.test(path.basename(f)));
    expect(misnamed).toEqual([]);
    const build = JSON.parse(readFileSync(path.join(SRC, '..', 'tsconfig.build.json'), 'utf8')) as { exclude: string[] };
    expect(build.exclude).toContain('src/**/testing/**');
    const product = all.filter((f) => !isTestCode(f) && !f.startsWith(`admin${path.sep}`));
    const intoKits = product.flatMap((file) =>
      imports(file)
        .filter((target) => target.split('/').includes('testing'))
        .map((t) => `${file} → ${t}`),
    );
    expect(intoKits).toEqual([]);
  });

  test('every folder of src has a row', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.filter((f) => !(f in allowed))).toEqual([]);
  });

  test.each(Object.keys(allowed))('src/%s imports only what it may', (folder) => {
    const offending = sourceFiles(folder).flatMap((file) =>
      imports(file)
        .filter((target) => !mayImport(folder, target))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  test.each(Object.entries(forbiddenInsideFeatures))('src/%s imports nothing of %j', (folder, forbidden) => {
    const offending = sourceFiles(folder).flatMap((file) =>
      imports(file)
        .filter((target) => forbidden.some((prefix) => target.startsWith(prefix)))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  test('a feature imports another only through its declared surface: its index.ts (and a test, its testing/ kits)', () => {
    const featureFiles = readdirSync(path.join(SRC, 'features'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'))
      .map((f) => path.join('features', f));
    const folderOf = (file: string): string | null => {
      const parts = file.split(/[\\/]/);
      return parts[0] === 'features' && parts.length > 2 ? parts[1]! : null;
    };
    const found = featureFiles.flatMap((file) => {
      const from = folderOf(file);
      // The loose files of src/features (the contract, the registration list, shared helpers) sit above the features.
      if (from === null) return [];
      return imports(file)
        .filter((target) => {
          const to = folderOf(target);
          if (to === null || to === from || SHARED_FEATURE_FOLDERS.has(to)) return false;
          // Shared folders are common ground: they import no feature at all.
          if (SHARED_FEATURE_FOLDERS.has(from)) return true;
          if (target === `features/${to}/index.ts`) return false;
          return !(isTestCode(file) && target.startsWith(`features/${to}/testing/`));
        })
        .map((target) => `${file.split(path.sep).join('/')} → ${target}`);
    });
    const offending = found.filter((edge) => !PENDING_SURFACE_IMPORTS.includes(edge));
    expect(
      offending,
      `Import these through the other feature's index.ts (add the names to its export list) or take a handle with ` +
        `need() (docs/architecture.md "Between features"):\n${offending.join('\n')}`,
    ).toEqual([]);
    expect(
      PENDING_SURFACE_IMPORTS.filter((edge) => !found.includes(edge)),
      'pending entries no longer found: remove them',
    ).toEqual([]);
  });

  test('the registration list takes each feature from its index.ts, or the file beside it that holds its Feature', () => {
    const offending = imports(path.join('features', 'index.ts')).filter(
      (target) => target !== 'features/contract.ts' && !/^features\/[a-z0-9-]+\/(index|feature)\.ts$/.test(target),
    );
    expect(offending).toEqual([]);
  });

  test('docs/architecture.md\'s "may import" column says the same', () => {
    const doc = readFileSync(path.resolve(SRC, '../docs/architecture.md'), 'utf8');
    const documented: Record<string, string[]> = {};
    for (const row of doc.matchAll(/^\| `src\/([a-z]+)` \|[^|]*\| ([^|]*) \|$/gm)) {
      documented[row[1]!] = [...row[2]!.matchAll(/`([a-z/.]+)`/g)].map((m) => m[1]!).sort();
    }
    const expected = Object.fromEntries(Object.entries(allowed).map(([folder, list]) => [folder, [...list].sort()]));
    expect(documented).toEqual(expected);
  });
});

test('src/wire holds types only: nothing of it exists at run time', () => {
  const code = sourceFiles('wire').flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
    return source.statements
      .filter(
        (s) =>
          !ts.isInterfaceDeclaration(s) &&
          !ts.isTypeAliasDeclaration(s) &&
          !(ts.isImportDeclaration(s) && s.importClause?.isTypeOnly) &&
          !(ts.isExportDeclaration(s) && s.isTypeOnly),
      )
      .map((s) => `${file}: ${s.getText().slice(0, 60)}`);
  });
  expect(sourceFiles('wire').length).toBeGreaterThan(0);
  expect(code).toEqual([]);
});

test('no server module imports the admin app', () => {
  const folders = readdirSync(SRC, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'admin')
    .map((d) => d.name);
  const offending = folders.flatMap((folder) =>
    sourceFiles(folder).filter((file) => imports(file).some((target) => target.startsWith('admin/'))),
  );
  expect(offending).toEqual([]);
});
