import { describe, expect, it } from 'vitest';
import { cspNonce } from './csp-nonce.js';

describe('cspNonce', () => {
  it('gives 16 bytes in base64, a different value every time, across refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const nonce = cspNonce();
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(1000);
  });
});
