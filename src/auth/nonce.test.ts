import { describe, expect, it } from 'vitest';
import { createNonceService, nonceTick } from './nonce.js';

const HALF_DAY_MS = 43_200_000;
const key = Buffer.alloc(32, 7);

function servicesAt(start: number) {
  let now = start;
  const nonces = createNonceService({ key, clock: () => now });
  return { nonces, advance: (ms: number) => (now += ms) };
}

describe('nonces', () => {
  it('computes the tick as ceil(now / 43200 s)', () => {
    expect(nonceTick(0)).toBe(0);
    expect(nonceTick(1)).toBe(1);
    expect(nonceTick(HALF_DAY_MS)).toBe(1);
    expect(nonceTick(HALF_DAY_MS + 1)).toBe(2);
  });

  it('is 10 lowercase hex characters', () => {
    const { nonces } = servicesAt(1_700_000_000_000);
    expect(nonces.create('wp_rest', 1, 'token')).toMatch(/^[0-9a-f]{10}$/);
  });

  it('verifies as 1 in the tick it was made, 2 in the next, false two ticks later', () => {
    const start = 40 * HALF_DAY_MS + 1; // the first millisecond of a tick
    const { nonces, advance } = servicesAt(start);
    const nonce = nonces.create('wp_rest', 5, 'session');
    expect(nonces.verify(nonce, 'wp_rest', 5, 'session')).toBe(1);
    advance(HALF_DAY_MS - 1); // last millisecond of the same tick
    expect(nonces.verify(nonce, 'wp_rest', 5, 'session')).toBe(1);
    advance(1);
    expect(nonces.verify(nonce, 'wp_rest', 5, 'session')).toBe(2);
    advance(HALF_DAY_MS - 1);
    expect(nonces.verify(nonce, 'wp_rest', 5, 'session')).toBe(2);
    advance(1);
    expect(nonces.verify(nonce, 'wp_rest', 5, 'session')).toBe(false);
  });

  it.each([
    ['another user', 'wp_rest', 6, 'session'],
    ['the logged-out user', 'wp_rest', 0, 'session'],
    ['another session', 'wp_rest', 5, 'other-session'],
    ['no session', 'wp_rest', 5, ''],
    ['another action', 'other_action', 5, 'session'],
  ] as const)('is refused for %s', (_label, action, uid, token) => {
    const { nonces } = servicesAt(1_700_000_000_000);
    const nonce = nonces.create('wp_rest', 5, 'session');
    expect(nonces.verify(nonce, action, uid, token)).toBe(false);
  });

  it('is refused under another key', () => {
    const a = createNonceService({ key, clock: () => 1_700_000_000_000 });
    const b = createNonceService({ key: Buffer.alloc(32, 8), clock: () => 1_700_000_000_000 });
    expect(b.verify(a.create('wp_rest', 1, 't'), 'wp_rest', 1, 't')).toBe(false);
  });

  it.each(['', '0', 'abcdefghij', 'ABCDEF0123', '0123456789a'])('refuses the malformed nonce %j', (nonce) => {
    const { nonces } = servicesAt(1_700_000_000_000);
    expect(nonces.verify(nonce, 'wp_rest', 0, '')).toBe(false);
  });

  it('makes a valid nonce for the logged-out user (uid 0, no token)', () => {
    const { nonces } = servicesAt(1_700_000_000_000);
    const nonce = nonces.create('wp_rest', 0, '');
    expect(nonces.verify(nonce, 'wp_rest', 0, '')).toBe(1);
  });

  it("remembers nonces without mixing users, actions, tokens or ticks (each equals a fresh service's)", () => {
    const start = 40 * HALF_DAY_MS + 1;
    const { nonces, advance } = servicesAt(start);
    let now = start;
    const fresh = (action: string, uid: number, token: string) => createNonceService({ key, clock: () => now }).create(action, uid, token);
    // 40 users under the shared token '' (past the per-token list's length) and two sessions, asked twice each.
    const subjects: [string, number, string][] = [];
    for (let uid = 0; uid < 40; uid++) for (const action of ['wp_rest', 'page_form']) subjects.push([action, uid, '']);
    subjects.push(['wp_rest', 1, 'session-a'], ['wp_rest', 1, 'session-b']);
    for (let round = 0; round < 2; round++) {
      for (const [action, uid, token] of subjects) {
        const made = nonces.create(action, uid, token);
        expect(made).toBe(fresh(action, uid, token));
        expect(nonces.verify(made, action, uid, token)).toBe(1);
      }
      // The next tick: the memo's entries of the previous one count as 2, and new ones differ.
      const before = subjects.map(([action, uid, token]) => nonces.create(action, uid, token));
      advance(HALF_DAY_MS);
      now += HALF_DAY_MS;
      subjects.forEach(([action, uid, token], i) => {
        expect(nonces.verify(before[i]!, action, uid, token)).toBe(2);
        expect(nonces.create(action, uid, token)).toBe(fresh(action, uid, token));
      });
    }
  });
});
