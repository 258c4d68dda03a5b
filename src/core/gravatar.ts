/**
 * Gravatar URLs and the avatar-size setting, as WordPress builds them: the hash is
 * `md5(strtolower(trim($email)))` with PHP's `trim` (space, \t, \n, \r, \0, \v only) and PHP's
 * ASCII-only `strtolower`, so `"ÄNNE@x"` hashes as `"Änne@x"` and a trailing form feed stays.
 */
import { createHash } from 'node:crypto';
import { asciiLower, phpTrim } from './php.js';

/** The sizes WordPress uses when the operator has not changed them. */
export const DEFAULT_AVATAR_SIZES: readonly number[] = [24, 48, 96];

/** The largest avatar size the configuration accepts. */
export const MAX_AVATAR_SIZE = 2048;

/** The Gravatar hash of an address: md5 of PHP `strtolower(trim($email))`. */
export function gravatarHash(email: string): string {
  return createHash('md5')
    .update(asciiLower(phpTrim(email)), 'utf8')
    .digest('hex');
}

/**
 * The HTTPS Gravatar URL of an address at a pixel size (mystery-man default, G rating).
 *
 * @example
 * gravatarUrl('Bob@Example.com ', 24) // 'https://secure.gravatar.com/avatar/4b9bb80620f03eb3719e0a061c14283d?s=24&d=mm&r=g'
 */
export function gravatarUrl(email: string, size: number): string {
  return gravatarUrlOfHash(gravatarHash(email), size);
}

/** `gravatarUrl` for an already computed `gravatarHash` (one hash for several sizes). */
export function gravatarUrlOfHash(hash: string, size: number): string {
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

/**
 * Reads an avatar-size setting, e.g. `"24,48,96"` (spaces around items allowed). Throws an Error
 * naming the bad item unless every item is an integer from 1 to `max` and none repeats.
 *
 * @example
 * parseAvatarSizes('24, 48,96') // [24, 48, 96]
 */
export function parseAvatarSizes(text: string, max = Number.MAX_SAFE_INTEGER): number[] {
  const sizes: number[] = [];
  for (const item of text.split(',').map((s) => s.trim())) {
    const size = /^\d+$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(size) || size <= 0 || size > max) {
      throw new Error(`Invalid avatar size "${item}" in "${text}": expected comma-separated positive integers such as "24,48,96".`);
    }
    if (sizes.includes(size)) throw new Error(`Avatar size ${size} is listed twice in "${text}".`);
    sizes.push(size);
  }
  return sizes;
}
