import { describe, expect, test } from 'vitest';
import type { Principal } from '../rest/types.js';
import type { Store } from '../store/types.js';
import { NONCE_LIFE_SECONDS, nonceTick } from './nonce.js';
import { createReplayPolicy } from './replay-policy.js';

const TICK_MS = (NONCE_LIFE_SECONDS / 2) * 1000;
const admin = { id: 1 } as Principal;

/** A store whose known versions the test sets (undefined: unknown without a query). */
function fakeStore(now?: { options: number; credentials: number }) {
  const known = { options: 1 as number | undefined, credentials: 1 as number | undefined };
  const store = {
    options: { knownVersion: () => known.options },
    sessions: { knownCredentialsVersion: () => known.credentials },
    ...(now ? { readStateVersionsNow: () => now } : {}),
  } as unknown as Store;
  return { known, store };
}

describe('the replay policy of the store and the authenticator', () => {
  test('names the state by both versions, and moves when either does', () => {
    const { known, store } = fakeStore();
    const policy = createReplayPolicy({ store });
    const first = policy.stateVersion();
    known.options = 2;
    const second = policy.stateVersion();
    known.credentials = 2;
    const third = policy.stateVersion();
    expect(new Set([first, second, third]).size).toBe(3);
    known.credentials = undefined;
    expect(policy.stateVersion()).toBeUndefined();
  });

  test('reads the versions now when they are not known and the store can', () => {
    const { known, store } = fakeStore({ options: 7, credentials: 9 });
    known.options = undefined;
    const policy = createReplayPolicy({ store });
    const read = policy.stateVersion();
    known.options = 7;
    known.credentials = 9;
    expect(read).toBe(policy.stateVersion());
  });

  test('gives an anonymous answer until the nonce tick ends, a login until its session ends if that is sooner, and others never', () => {
    let now = 5 * TICK_MS - 1000;
    const { store } = fakeStore();
    const policy = createReplayPolicy({ store, clock: () => now });
    const tickEnd = policy.expiry({ kind: 'anonymous' });
    // The last millisecond of the tick is still in it; the next is not.
    expect(nonceTick(tickEnd - 1)).toBe(nonceTick(now));
    expect(nonceTick(tickEnd)).toBe(nonceTick(now) + 1);
    expect(policy.expiry({ kind: 'cookie', principal: admin, sessionToken: 't', expiresAt: now + 10 })).toBe(now + 10);
    expect(policy.expiry({ kind: 'cookie', principal: admin, sessionToken: 't', expiresAt: now + 2 * TICK_MS })).toBe(tickEnd);
    expect(policy.expiry({ kind: 'cookie', principal: admin, sessionToken: 't' })).toBe(0);
    expect(policy.expiry({ kind: 'other', principal: admin })).toBe(0);
    now += 2000;
    expect(policy.expiry({ kind: 'anonymous' })).toBeGreaterThan(tickEnd);
  });
});
