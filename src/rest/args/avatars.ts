/**
 * Avatar URLs (docs/spec/site-management-api.md §4.8): Gravatar URLs keyed by pixel size, as WordPress's
 * `rest_get_avatar_urls` returns them over HTTPS.
 */
import { DEFAULT_AVATAR_SIZES, gravatarHash, gravatarUrlOfHash } from '../../core/gravatar.js';
import { toInt } from './php.js';

export { DEFAULT_AVATAR_SIZES, parseAvatarSizes } from '../../core/gravatar.js';

/**
 * Gravatar URLs for an e-mail address (or a user's), keyed by size:
 * `https://secure.gravatar.com/avatar/<md5 of PHP strtolower(trim(address))>?s=<size>&d=mm&r=g` (src/core/gravatar.ts).
 * Keys are size strings; a JS object lists integer keys in ascending order whatever the input order.
 *
 * @example
 * avatarUrls('Bob@Example.com ', [24])['24'] // 'https://secure.gravatar.com/avatar/4b9bb80620f03eb3719e0a061c14283d?s=24&d=mm&r=g'
 */
export function avatarUrls(
  emailOrUser: string | { readonly email: string },
  sizes: readonly number[] = DEFAULT_AVATAR_SIZES,
): Record<string, string> {
  const email = typeof emailOrUser === 'string' ? emailOrUser : emailOrUser.email;
  const hash = gravatarHash(email);
  const urls: Record<string, string> = {};
  for (const size of sizes) {
    // get_avatar_data: absint(size), and 96 when that is 0.
    const pixels = Math.abs(toInt(size)) || 96;
    urls[String(size)] = gravatarUrlOfHash(hash, pixels);
  }
  return urls;
}
