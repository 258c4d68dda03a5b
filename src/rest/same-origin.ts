import type { RequestOrigin } from './rest-url.js';

/**
 * True when an `Origin` header names this site: the request's own origin or the home URL's.
 * An origin is scheme, host and port (RFC 6454, as browsers compare them): `http://host:8081`
 * is another site than `http://host:8080`, though cookies are shared across ports. Used by the
 * page forms' cross-site checks (login, logout, setup, …).
 */
export function isSameOrigin(origin: string, request: RequestOrigin, homeUrl: string): boolean {
  try {
    const url = new URL(origin);
    if (url.origin === new URL(homeUrl).origin) return true;
    // URL gives '' for the scheme's default port, as requestOrigin does.
    return (
      url.hostname.toLowerCase() === request.hostname &&
      url.protocol === (request.secure ? 'https:' : 'http:') &&
      url.port === (request.port ?? '')
    );
  } catch {
    return false;
  }
}
