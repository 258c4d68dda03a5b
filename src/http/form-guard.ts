/**
 * Cross-site request forgery on the page forms (`/login`, `/setup`, the password-reset forms,
 * any POST page a feature declares): a form another site posts must not log a browser into
 * someone's account or change anything (login CSRF).
 *
 * The rule, checked by the adapter on every POST page before the feature sees it:
 * 1. An `Origin` header (every current browser sends one on a POST) must name this site, as
 *    OWASP's CSRF cheat sheet advises ("verifying origin with standard headers"); `/logout`
 *    already refused a foreign one.
 * 2. Without `Origin` (or with `Origin: null`), a form body must carry the form token: the
 *    HMAC of a random pre-session cookie (`siteward_form`, HttpOnly, SameSite=Lax) that the
 *    form's page set — OWASP's "signed double-submit cookie", the pre-session token it
 *    recommends against login CSRF. WordPress's `wp-login.php` only checks that a test cookie
 *    came back, which another site's form gets too; the signed token does not.
 * 3. A JSON body without `Origin` passes: no other site can send one (a cross-site
 *    `Content-Type: application/json` needs a CORS preflight, which pages never grant), and
 *    scripts and `curl` log in that way.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readCookie } from '../core/cookies.js';
import { FORM_TOKEN_FIELD } from '../features/contract.js';
import { mediaType } from '../rest/request-body.js';
import type { RequestOrigin } from '../rest/rest-url.js';
import { isSameOrigin } from '../rest/same-origin.js';

export const FORM_COOKIE = 'siteward_form';

const COOKIE_VALUE = /^[A-Za-z0-9_-]{24}$/;

/** The token of a pre-session cookie value. */
export function formTokenOf(key: Uint8Array, cookie: string): string {
  return createHmac('sha256', key).update(`siteward form|${cookie}`).digest('base64url');
}

/** The request's pre-session cookie, or a new one to set (`fresh`). */
export function formCookie(cookieHeader: string | undefined): { value: string; fresh: boolean } {
  const value = readCookie(cookieHeader, FORM_COOKIE);
  if (value !== undefined && COOKIE_VALUE.test(value)) return { value, fresh: false };
  return { value: randomBytes(18).toString('base64url'), fresh: true };
}

/** The `Set-Cookie` of a new pre-session cookie (a browser-session cookie). */
export function formCookieHeader(value: string, secure: boolean): string {
  return `${FORM_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export type FormCheck = 'ok' | 'foreign-origin' | 'no-form-token';

/** Applies the rule above to a POST to a page. */
export function checkPagePost(input: {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, unknown>>;
  readonly origin: RequestOrigin;
  readonly homeUrl: string;
  readonly key: Uint8Array;
}): FormCheck {
  const { headers } = input;
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null') return isSameOrigin(origin, input.origin, input.homeUrl) ? 'ok' : 'foreign-origin';
  if (origin === undefined && mediaType(headers['content-type']) === 'application/json') return 'ok';
  const cookie = readCookie(headers.cookie, FORM_COOKIE);
  const token = input.body[FORM_TOKEN_FIELD];
  if (cookie === undefined || !COOKIE_VALUE.test(cookie) || typeof token !== 'string') return 'no-form-token';
  const expected = Buffer.from(formTokenOf(input.key, cookie));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'ok' : 'no-form-token';
}
