/**
 * Avatar URLs (spec Part 4.8): Gravatar URLs keyed by pixel size, as WordPress's
 * `rest_get_avatar_urls` returns them over HTTPS.
 */
import { createHash } from 'node:crypto';
import { asciiLower, phpTrim, toInt } from './php.js';

/** The sizes WordPress uses when the operator has not changed them. */
export const DEFAULT_AVATAR_SIZES: readonly number[] = [24, 48, 96];

/**
 * Gravatar URLs for an e-mail address (or a user's), keyed by size:
 * `https://secure.gravatar.com/avatar/<md5 of the trimmed, lower-cased address>?s=<size>&d=mm&r=g`.
 * Keys are size strings; a JS object lists integer keys in ascending order whatever the input order.
 *
 * @example
 * avatarUrls('Bob@Example.com ', [24])['24'] // 'https://secure.gravatar.com/avatar/4b9bb80620f03eb3719e0a061c14283d?s=24&d=mm&r=g'
 */
export function avatarUrls(emailOrUser: string | { readonly email: string }, sizes: readonly number[] = DEFAULT_AVATAR_SIZES): Record<string, string> {
  const email = typeof emailOrUser === 'string' ? emailOrUser : emailOrUser.email;
  const hash = createHash('md5').update(asciiLower(phpTrim(email)), 'utf8').digest('hex');
  const urls: Record<string, string> = {};
  for (const size of sizes) {
    // get_avatar_data: absint(size), and 96 when that is 0.
    const pixels = Math.abs(toInt(size)) || 96;
    urls[String(size)] = `https://secure.gravatar.com/avatar/${hash}?s=${pixels}&d=mm&r=g`;
  }
  return urls;
}

/**
 * Reads the operator's avatar-size setting, e.g. `"24,48,96"` (spaces around items allowed).
 * Throws an Error naming the bad item unless every item is a positive integer and none repeats.
 *
 * @example
 * parseAvatarSizes('24, 48,96') // [24, 48, 96]
 */
export function parseAvatarSizes(text: string): number[] {
  const items = text.split(',').map((item) => item.trim());
  const sizes: number[] = [];
  for (const item of items) {
    const size = /^\d+$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(size) || size <= 0) {
      throw new Error(`Invalid avatar size "${item}" in "${text}": expected comma-separated positive integers such as "24,48,96".`);
    }
    if (sizes.includes(size)) throw new Error(`Avatar size ${size} is listed twice in "${text}".`);
    sizes.push(size);
  }
  return sizes;
}
