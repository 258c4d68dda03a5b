import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit } from '../core/concurrency-limit.js';

/**
 * Each argon2 hash or verification fills its memory cost (7 MiB; 12 or 19 MiB for a hash made
 * before 2026-12-02 or 2026-11-27) on a libuv thread; four at once (the thread pool's size) would
 * add up to 76 MiB to the process, and a burst of logins could keep it there. One at a time bounds
 * it to one run's; the rest wait their turn in arrival order.
 */
export const passwordWork = concurrencyLimit(1);

/**
 * argon2id at 7 MiB, 5 passes, 1 lane: one of the five settings the OWASP Password Storage Cheat
 * Sheet lists as equally strong (12 MiB with 3 passes, which Siteward used until 2026-12-02, and
 * 19 MiB with 2, the library's default, used until 2026-11-27, are two others). The same CPU per
 * hash (7–15 ms either way on the 2-core test VM), 5 MiB less memory at every login and user
 * creation: each run's memory is on top of everything else a worker holds, and set its peak
 * against the 110 MB budget (issue 44, docs/performance.md). A stored hash carries its own cost,
 * so one made at 12 or 19 MiB still verifies at that cost until its password changes; it is not
 * re-hashed at login, since the login cookies' signature covers the hash and a new hash would end
 * the user's other sessions.
 */
export const PASSWORD_HASH_COST = { memoryCost: 7 * 1024, timeCost: 5, parallelism: 1 } as const;

/** Login passwords: argon2id (the library's default algorithm) at PASSWORD_HASH_COST, as a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => hash(password, PASSWORD_HASH_COST));
}

/** True when `password` matches `passHash`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(passHash: string, password: string): Promise<boolean> {
  try {
    return await passwordWork.run(() => verify(passHash, password));
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification without a user, so that an unknown login takes as long
 * to refuse as a wrong password.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword('siteward timing equalizer');
  await verifyPassword(await dummy, password);
  return false;
}
