import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  engines?: { node?: string } | string[];
}

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
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
