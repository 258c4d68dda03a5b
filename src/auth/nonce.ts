import { createHmac } from 'node:crypto';
import { systemClock, type Clock } from './clock.js';

/** WordPress's `nonce_life`: a nonce is valid for 12 to 24 hours. */
export const NONCE_LIFE_SECONDS = 86_400;

/** The nonce tick: changes every half lifetime (12 h). `ceil(now / 43200)`. */
export function nonceTick(nowMs: number): number {
  return Math.ceil(nowMs / 1000 / (NONCE_LIFE_SECONDS / 2));
}

export interface NonceService {
  /** A 10-hex-character nonce for `action`, tied to the user id (0 when logged out) and session token ('' when none). */
  create(action: string, uid: number, sessionToken: string): string;
  /** 1 when made in the current tick, 2 when made in the previous one, otherwise false. */
  verify(nonce: string, action: string, uid: number, sessionToken: string): 1 | 2 | false;
}

/** A remembered nonce of one session token. */
interface MemoEntry {
  readonly tick: number;
  readonly action: string;
  readonly uid: number;
  readonly nonce: string;
}

/**
 * WordPress nonces (docs/spec/compat.md §6, docs/spec/wp-rest-reference.md §7) with HMAC-SHA256 under the nonce key
 * instead of HMAC-MD5: characters −12…−3 of the hex digest of `tick|action|uid|token`.
 *
 * @example
 * const nonces = createNonceService({ key: secrets.nonceKey });
 * const n = nonces.create('wp_rest', user.id, sessionToken);
 * nonces.verify(n, 'wp_rest', user.id, sessionToken); // 1
 */
export function createNonceService(options: { key: Uint8Array; clock?: Clock }): NonceService {
  const { key } = options;
  const clock = options.clock ?? systemClock;
  // Every authenticated request verifies one nonce and creates a fresh one: remember the
  // HMACs of the current and previous tick instead of recomputing them (bounded; dropped when
  // the tick moves on). Speed: the memo is keyed by the session token alone, the same string
  // object on every request of a cached session (V8 keeps its hash), with the few nonces of
  // that token in a short list; a key string built per call (`tick|action|uid|token`) had to be
  // hashed anew each time.
  let memoTick = -1;
  let memo = new Map<string, MemoEntry[]>();
  let memoSize = 0;
  const MEMO_LIMIT = 50_000;
  const MEMO_PER_TOKEN = 16;
  const make = (current: number, tick: number, action: string, uid: number, token: string): string => {
    if (current !== memoTick) {
      memoTick = current;
      memo = new Map();
      memoSize = 0;
    }
    const cacheable = tick === current || tick === current - 1;
    const entries = cacheable ? memo.get(token) : undefined;
    if (entries !== undefined) {
      for (const e of entries) if (e.tick === tick && e.uid === uid && e.action === action) return e.nonce;
    }
    const digest = createHmac('sha256', key).update(`${tick}|${action}|${uid}|${token}`).digest('hex');
    const nonce = digest.slice(-12, -2);
    if (cacheable) {
      if (memoSize >= MEMO_LIMIT) {
        memo.clear();
        memoSize = 0;
      }
      const entry = { tick, action, uid, nonce };
      const list = memo.get(token);
      if (list === undefined) memo.set(token, [entry]);
      // A short list: the token '' is shared by every logged-out nonce and every user's page-form nonces.
      else if (list.length >= MEMO_PER_TOKEN) list.splice(0, list.length, entry);
      else list.push(entry);
      memoSize += 1;
    }
    return nonce;
  };
  // Constant-time for equal lengths (the only case compared: nonces are 10 characters), without
  // the two Buffers per comparison that timingSafeEqual needs.
  const same = (a: string, b: string): boolean => {
    if (a.length !== b.length) return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
  };

  return {
    create(action, uid, sessionToken) {
      const tick = nonceTick(clock());
      return make(tick, tick, action, uid, sessionToken);
    },
    verify(nonce, action, uid, sessionToken) {
      // Length check first also keeps timingSafeEqual's equal-length requirement; 10 is public.
      if (typeof nonce !== 'string' || nonce.length !== 10) return false;
      const tick = nonceTick(clock());
      if (same(make(tick, tick, action, uid, sessionToken), nonce)) return 1;
      if (same(make(tick, tick - 1, action, uid, sessionToken), nonce)) return 2;
      return false;
    },
  };
}
