import { hash, verify } from '@node-rs/argon2';

/**
 * Login passwords: argon2id (the library's default algorithm) with its default cost
 * (19 MiB, 2 passes, 1 lane: the OWASP recommendation), encoded as a PHC string.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches `passHash`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(passHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passHash, password);
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
