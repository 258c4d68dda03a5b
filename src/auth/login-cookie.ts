import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the login cookie. */
export const LOGIN_COOKIE_NAME = 'siteward_logged_in';

/** The parts of `<login>|<expiration>|<session token>|<hmac>`. */
export interface LoginCookie {
  readonly login: string;
  /** Unix time in seconds, as in WordPress. */
  readonly expiration: number;
  readonly token: string;
  readonly hmac: string;
}

/** Splits a cookie value; null when it does not have the four parts (WordPress: "malformed"). */
export function parseLoginCookie(value: string): LoginCookie | null {
  const parts = value.split('|');
  if (parts.length !== 4) return null;
  const [login, expirationText, token, hmac] = parts;
  // A NUL would reach the store's lookup (PostgreSQL refuses it with an error): malformed instead.
  if (value.includes('\0')) return null;
  if (login === '' || token === '' || !/^\d{1,12}$/.test(expirationText) || !/^[0-9a-f]{64}$/.test(hmac)) return null;
  return { login, expiration: Number(expirationText), token, hmac };
}

/**
 * The cookie's HMAC. As in WordPress's `wp_generate_auth_cookie`, the HMAC key is itself derived
 * from a fragment of the password hash, so changing the password invalidates every cookie.
 */
function cookieHmac(authKey: Uint8Array, login: string, expiration: number, token: string, passHash: string): string {
  const fragment = passHash.slice(-8);
  const key = createHmac('sha256', authKey).update(`${login}|${fragment}|${expiration}|${token}`).digest();
  return createHmac('sha256', key).update(`${login}|${expiration}|${token}`).digest('hex');
}

/** Builds a signed cookie value. */
export function signLoginCookie(
  authKey: Uint8Array,
  parts: { login: string; expiration: number; token: string },
  passHash: string,
): string {
  const hmac = cookieHmac(authKey, parts.login, parts.expiration, parts.token, passHash);
  return `${parts.login}|${parts.expiration}|${parts.token}|${hmac}`;
}

/** Constant-time check of a parsed cookie's HMAC against the user's current password hash. */
export function loginCookieHmacValid(authKey: Uint8Array, cookie: LoginCookie, passHash: string): boolean {
  const expected = cookieHmac(authKey, cookie.login, cookie.expiration, cookie.token, passHash);
  return timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(cookie.hmac, 'latin1'));
}

export { readCookie } from '../core/cookies.js';

/**
 * A `Set-Cookie` value for the login cookie: HttpOnly, SameSite=Lax, path `/`. With `remember`
 * it persists until `expiresAt`, otherwise it is a browser-session cookie (as in WordPress).
 */
export function loginCookieHeader(value: string, options: { expiresAt: number; remember: boolean; secure: boolean }): string {
  const parts = [`${LOGIN_COOKIE_NAME}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.remember) parts.push(`Expires=${new Date(options.expiresAt).toUTCString()}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** A `Set-Cookie` value that removes the login cookie. */
export function clearLoginCookieHeader(options: { secure: boolean }): string {
  const parts = [`${LOGIN_COOKIE_NAME}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Max-Age=0'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
