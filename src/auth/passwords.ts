import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit } from '../core/concurrency-limit.js';

/**
 * Each argon2 hash or verification fills 19 MiB of memory on a libuv thread; four at once (the
 * thread pool's size) would add 76 MiB to the process, and a burst of logins could keep it
 * there. One at a time bounds it to 19 MiB; the rest wait their turn in arrival order.
 */
export const passwordWork = concurrencyLimit(1);

/**
 * Login passwords: argon2id (the library's default algorithm) with its default cost
 * (19 MiB, 2 passes, 1 lane: the OWASP recommendation), encoded as a PHC string.
 */
export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => hash(password));
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
