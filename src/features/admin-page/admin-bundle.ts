/**
 * Where the built admin app is (dist/admin, made by `npm run build` with src/admin/vite.config.ts)
 * and which files the page links: the entry script, its stylesheets and the chunks it imports,
 * read from Vite's manifest. File names carry a content hash, so they are served with long
 * immutable caching.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** URL prefix of the built files. */
export const ADMIN_ASSETS_PREFIX = '/admin/assets/';

/** The built app's directory: `<package root>/dist/admin` (this file is at the same depth in src/ and dist/). */
export const ADMIN_BUILD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/admin');

export interface AdminBundle {
  /** Absolute URL paths, e.g. `/admin/assets/main-3f2a1b9c.js`. */
  readonly script: string;
  readonly styles: readonly string[];
  readonly preloads: readonly string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** Reads the manifest; null when the app was not built (the page then says so). */
export function readAdminBundle(dir: string = ADMIN_BUILD_DIR): AdminBundle | null {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return null;
  }
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) return null;
  const url = (file: string) => `/admin/${file}`;
  const styles = new Set<string>(entry.css ?? []);
  const preloads = new Set<string>();
  const seen = new Set<string>();
  const walk = (keys: readonly string[] | undefined) => {
    for (const key of keys ?? []) {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) continue;
      seen.add(key);
      preloads.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      walk(chunk.imports);
    }
  };
  walk(entry.imports);
  return { script: url(entry.file), styles: [...styles].map(url), preloads: [...preloads].map(url) };
}

/**
 * The bundle, read once it exists. A missing build is checked again at most every few seconds
 * (a `npm run build` while the server runs is then picked up without a restart).
 */
export function adminBundleSource(dir: string = ADMIN_BUILD_DIR, now: () => number = Date.now): () => AdminBundle | null {
  let bundle: AdminBundle | null = null;
  let checkedAt = -Infinity;
  let manifestTime = 0;
  return () => {
    if (bundle && now() - checkedAt < 5_000) return bundle;
    checkedAt = now();
    let mtime = 0;
    try {
      mtime = statSync(path.join(dir, 'manifest.json')).mtimeMs;
    } catch {
      bundle = null;
      return null;
    }
    if (!bundle || mtime !== manifestTime) {
      bundle = readAdminBundle(dir);
      manifestTime = mtime;
    }
    return bundle;
  };
}
