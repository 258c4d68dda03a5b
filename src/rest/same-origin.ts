import type { RequestOrigin } from './rest-url.js';

/**
 * True when an `Origin` header names this site: the request's own scheme and host, or the
 * home URL's origin. Used by the page forms' cross-site checks (login, logout, setup, …).
 */
export function isSameOrigin(origin: string, request: RequestOrigin, homeUrl: string): boolean {
  try {
    const url = new URL(origin);
    if (url.origin === new URL(homeUrl).origin) return true;
    return url.hostname.toLowerCase() === request.hostname && url.protocol === (request.secure ? 'https:' : 'http:');
  } catch {
    return false;
  }
}
