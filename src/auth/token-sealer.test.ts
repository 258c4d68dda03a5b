import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SealError, TokenSealer } from './token-sealer.js';

describe('TokenSealer', () => {
  const sealer = new TokenSealer(randomBytes(32));

  it('round-trips with a fresh IV per value and no plaintext in the output', () => {
    const a = sealer.seal('token-text', 'ctx');
    const b = sealer.seal('token-text', 'ctx');
    expect(a).not.toBe(b);
    expect(a).not.toContain('token-text');
    expect(a).toMatch(/^v1\.[\w-]+$/);
    expect(sealer.open(a, 'ctx')).toBe('token-text');
  });

  it('reads a tampered value, another context or another key as an error', () => {
    const sealed = sealer.seal('token-text', 'ctx');
    const flipped = `${sealed.slice(0, 10)}${sealed[10] === 'A' ? 'B' : 'A'}${sealed.slice(11)}`;
    expect(() => sealer.open(flipped, 'ctx')).toThrow(SealError);
    expect(() => sealer.open(sealed, 'other ctx')).toThrow(SealError);
    expect(() => new TokenSealer(randomBytes(32)).open(sealed, 'ctx')).toThrow(SealError);
    expect(() => sealer.open('v1.abc', 'ctx')).toThrow(SealError);
    expect(() => sealer.open(42, 'ctx')).toThrow(SealError);
  });

  it('refuses a short master secret and never prints its key', () => {
    expect(() => new TokenSealer(randomBytes(16))).toThrow(SealError);
    expect(inspect(sealer)).toBe('TokenSealer [redacted]');
    expect(JSON.stringify({ sealer })).toBe('{"sealer":"[redacted]"}');
  });
});
