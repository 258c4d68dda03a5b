/**
 * Length limits on stored text, counted as WordPress counts them (`mb_strlen`: characters, i.e.
 * code points, not UTF-16 units or bytes), and the one place their numbers live: the REST
 * routes, the CLI and the docs (docs/api.md "Limits") use these.
 */

/** WordPress's own limits (`wp_insert_user`) and its `wp_users` column sizes. */
export const USER_LIMITS = Object.freeze({
  login: 60,
  nicename: 50,
  url: 100,
  email: 100,
  displayName: 250,
  /** first_name, last_name, nickname: user meta in WordPress (no limit there); as long as a display name. */
  name: 250,
  /** `description` (biographical info): MySQL's TEXT size. */
  description: 65_535,
  /** `meta.persisted_preferences` as JSON, in bytes. */
  preferencesBytes: 64 * 1024,
});

/** Application passwords: WordPress has no limits; these keep one user from filling the store. */
export const APP_PASSWORD_LIMITS = Object.freeze({ name: 100, perUser: 100 });

/**
 * Whether `text` has more than `max` characters. Cheap for long text: a string of at most `max`
 * UTF-16 units has at most `max` characters, and counting stops at `max + 1`.
 */
export function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
    if (count > max) return true;
  }
  return false;
}

/** WordPress 5.5's `maxLength` message: `name must be at most 100 characters long.` */
export function atMostMessage(param: string, max: number): string {
  return `${param} must be at most ${max} ${max === 1 ? 'character' : 'characters'} long.`;
}
