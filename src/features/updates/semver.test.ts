import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSemVer, parseSemVer, type SemVer } from './semver.js';

function cmp(a: string, b: string): number {
  const x = parseSemVer(a);
  const y = parseSemVer(b);
  if (x === null || y === null) throw new Error(`bad version ${x === null ? a : b}`);
  return compareSemVer(x, y);
}

describe('semver', () => {
  it('orders the SemVer 2.0 specification example chain', () => {
    const chain = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '2.0.0', '10.0.0'];
    for (let i = 0; i < chain.length - 1; i++) {
      expect(cmp(chain[i], chain[i + 1])).toBe(-1);
      expect(cmp(chain[i + 1], chain[i])).toBe(1);
    }
  });

  it('ignores build metadata and a leading v', () => {
    expect(cmp('1.2.3+build.7', '1.2.3')).toBe(0);
    expect(cmp('v1.2.3', '1.2.3')).toBe(0);
  });

  it('refuses what is not x.y.z', () => {
    for (const bad of ['1.2', '1.2.3.4', '01.2.3', '1.2.3-01', '1.2.3-', 'latest', '', '^1.2.3']) expect(parseSemVer(bad)).toBeNull();
  });

  it('is a total order consistent with itself (antisymmetric and transitive)', () => {
    const id = fc.oneof(fc.nat(20), fc.constantFrom('alpha', 'beta', 'rc', 'x-1'));
    const version = fc.record({
      major: fc.nat(3),
      minor: fc.nat(3),
      patch: fc.nat(3),
      prerelease: fc.array(id, { maxLength: 3 }),
    }) as fc.Arbitrary<SemVer>;
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(compareSemVer(a, b)).toBe(-compareSemVer(b, a) || 0);
        if (compareSemVer(a, b) <= 0 && compareSemVer(b, c) <= 0) expect(compareSemVer(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
});
