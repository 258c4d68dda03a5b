import { escUrlRaw } from './args/url.js';

/** Headers of every REST response (docs/spec/compat.md §5). */
export function fixedHeaders(restRoot: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    Link: `<${restRoot}>; rel="https://api.w.org/"`,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Type',
  };
}

/** Sent when a user is logged in. */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0',
});

/** Spec 4.4 rule 3: the origin echoed after URL sanitizing (`null` stays `null`). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin === 'null' ? 'null' : escUrlRaw(origin),
    'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  };
}
