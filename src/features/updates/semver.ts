/**
 * Semantic Versioning 2.0.0 for the one question the updates check asks: is the registry's
 * `latest` newer than the installed version? Ranges are not needed: `dist-tags.latest` is
 * already the registry's pick (docs/spec/services-facts.md §4), so a strict x.y.z[-pre][+build] parser and
 * the precedence rules of SemVer §11 are enough.
 */
export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated identifiers; numeric ones as numbers. Empty for a release. */
  readonly prerelease: readonly (string | number)[];
}

const NUMBER = '0|[1-9]\\d*';
const PRE_ID = `(?:${NUMBER}|\\d*[a-zA-Z-][0-9a-zA-Z-]*)`;
const VERSION = new RegExp(`^v?(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*)?$`);

/** Parses `1.2.3`, `1.2.3-beta.1`, `1.2.3+build.5` (a leading `v` is tolerated); null otherwise. */
export function parseSemVer(text: string): SemVer | null {
  const match = VERSION.exec(text.trim());
  if (!match) return null;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  if (![major, minor, patch].every(Number.isSafeInteger)) return null;
  const prerelease = match[4] === undefined ? [] : match[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id));
  return { major, minor, patch, prerelease };
}

function compareIdentifiers(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  // Numeric identifiers have lower precedence than alphanumeric ones.
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  // ASCII order, not locale order.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Precedence: negative when a < b, 0 when equal (build metadata ignored), positive when a > b. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  const core = Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch);
  if (core !== 0) return core;
  // A pre-release is lower than the release itself.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.min(a.prerelease.length, b.prerelease.length); i++) {
    const c = compareIdentifiers(a.prerelease[i], b.prerelease[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}
