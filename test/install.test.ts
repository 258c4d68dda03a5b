import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  overrides?: Record<string, string | Record<string, string>>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, LockEntry> };

/**
 * The oldest Node.js release our `engines` range admits, and the first release of each later
 * LTS line: a clean `npm install` on any of them must not warn EBADENGINE (npm prints one for
 * every installed package whose own `engines.node` excludes the running Node).
 */
const promised = [semver.minVersion(pkg.engines.node)?.version ?? '', '22.13.0', '24.11.0'];

describe('a clean install', () => {
  it('promises Node.js 20.19 as the oldest supported release', () => {
    expect(promised[0]).toBe('20.19.0');
  });

  it('installs no package whose engines exclude a Node.js release we support (no EBADENGINE warning)', () => {
    const excluded: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (where === '' || range === undefined) continue;
      for (const node of promised) {
        if (!semver.satisfies(node, range)) excluded.push(`${where} (node ${range}) excludes ${node}`);
      }
    }
    expect(excluded).toEqual([]);
  });
});

/** The lockfile path npm resolves `name` to from the package at `from` (nearest node_modules up). */
function resolveFrom(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/**
 * A package whose peer range npm overrides with our own version (`"pkg": { "react": "$react" }`
 * in package.json): a decision written down, not a conflict npm has to guess about.
 */
function peerOverridden(where: string, peer: string): boolean {
  const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const rule = pkg.overrides?.[name];
  return typeof rule === 'object' && rule[peer] === `$${peer}`;
}

describe('a clean install', () => {
  it('resolves every peer dependency inside its range or by a written override (no ERESOLVE warning)', () => {
    const conflicts: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      for (const [peer, range] of Object.entries(entry.peerDependencies ?? {})) {
        const resolved = resolveFrom(where, peer);
        if (resolved === undefined) continue; // an absent optional peer, or one npm reported as missing
        const version = lock.packages[resolved]?.version ?? '';
        if (semver.satisfies(version, range, { includePrerelease: true })) continue;
        if (peerOverridden(where, peer)) continue;
        conflicts.push(`${where} wants ${peer}@${range}, gets ${version}`);
      }
    }
    expect(conflicts).toEqual([]);
  });
});

/**
 * AWS SDK v3 releases published after January 2027 need Node.js 22 (the SDK follows Node's
 * end of life): a caret range would let a fresh `npm install` of Siteward pull one onto the
 * Node 20 we still support. Pinned exactly until `engines` moves to 22; bump both together
 * (lib-storage's peer range is the same client version).
 */
const PINNED = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'];

describe('dependencies that must not float', () => {
  it.each(PINNED)('pins %s to one exact version, the one the lockfile installs', (name) => {
    const spec = pkg.dependencies[name] ?? '';
    expect(semver.valid(spec), `${name}@${spec} is a range`).toBe(spec);
    expect(lock.packages[`node_modules/${name}`]?.version).toBe(spec);
  });

  it('pins both AWS SDK packages to the same release', () => {
    expect(new Set(PINNED.map((name) => pkg.dependencies[name])).size).toBe(1);
  });
});
