/**
 * The module layers point one way. `allowed` is the "may import" column of docs/architecture.md's
 * folder table (a test below checks the two agree): a file in a folder may import its own folder
 * and the folders (or single files) listed; nothing in a folder imports the root files
 * (`compose.ts`, `cli.ts`, …), which wire everything. Every folder of src must have a row, so a
 * new folder cannot slip past. Tests and test kits are left out: they may wire whole apps.
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
