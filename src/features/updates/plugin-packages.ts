import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A loaded plugin that is a published npm package: it can be checked for updates. */
export interface PluginPackage {
  /** The plugin entry as configured (a path or a package name). */
  readonly entry: string;
  readonly name: string;
  readonly version: string;
  /** The package.json it was read from. */
  readonly packageJson: string;
}

export type PluginPackageLookup =
  | { readonly kind: 'package'; readonly pkg: PluginPackage }
  | {
      readonly kind: 'not-counted';
      readonly entry: string;
      readonly reason: 'no-package-json' | 'private' | 'no-name-or-version' | 'site-project';
    };

/** Same rule as the plugin loader: these entries are files, everything else a package name. */
function isPath(entry: string): boolean {
  return entry.startsWith('.') || entry.startsWith('/') || isAbsolute(entry) || /\.(c|m)?js$/.test(entry);
}

/** `@scope/name/sub/path.js` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(entry: string): string {
  const parts = entry.split('/');
  return entry.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

type Json = Record<string, unknown>;

async function readJson(file: string): Promise<Json | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/** `dir` is `base` or inside it. */
function within(dir: string, base: string): boolean {
  const rel = relative(base, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The nearest package.json above a file that names a package. A package.json without `name`
 * is skipped: packages put `{"type":"module"}` markers in subfolders, and those are not roots.
 */
async function nearestPackageJson(start: string): Promise<{ file: string; json: Json } | null> {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    const json = await readJson(file);
    if (json !== null && json.name !== undefined) return { file, json };
    if (dirname(dir) === dir) return null;
  }
}

/** Node's lookup of an installed package: `node_modules/<name>` in each folder upward. */
async function installedPackageJson(name: string, from: string): Promise<{ file: string; json: Json } | null> {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    const json = await readJson(file);
    if (json !== null) return { file, json };
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Finds the package a plugin entry belongs to. It counts when its package.json has a `name`
 * and a `version` and is not `private`. For a path entry the package root must lie below the
 * site's own project directory (`cwd`): a plugin file that is part of the site's project
 * would otherwise be checked under the project's name, which on the registry may be someone
 * else's package. A name entry is looked up like the plugin loader imports it: from `cwd`
 * first, then from where Siteward itself is installed.
 */
export async function findPluginPackage(entry: string, cwd: string): Promise<PluginPackageLookup> {
  const notCounted = (reason: 'no-package-json' | 'private' | 'no-name-or-version' | 'site-project'): PluginPackageLookup => ({
    kind: 'not-counted',
    entry,
    reason,
  });
  let found: { file: string; json: Json } | null;
  if (isPath(entry)) {
    const target = resolve(cwd, entry);
    const isDir = await stat(target).then(
      (s) => s.isDirectory(),
      () => false,
    );
    found = await nearestPackageJson(isDir ? target : dirname(target));
    if (found !== null && within(resolve(cwd), dirname(found.file))) return notCounted('site-project');
  } else {
    const name = packageNameOf(entry);
    found = (await installedPackageJson(name, resolve(cwd))) ?? (await installedPackageJson(name, dirname(fileURLToPath(import.meta.url))));
  }
  if (found === null) return notCounted('no-package-json');
  const { name, version } = found.json;
  if (found.json.private === true) return notCounted('private');
  if (typeof name !== 'string' || name === '' || typeof version !== 'string' || version === '') return notCounted('no-name-or-version');
  return { kind: 'package', pkg: { entry, name, version, packageJson: found.file } };
}
