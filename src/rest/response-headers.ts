import { escUrlRaw } from './args/url.js';
import type { HeaderList } from './header-list.js';

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

/**
 * Fresh copies of the fixed headers per REST root. Speed: one template per root, copied as a flat
 * list with slice (see header-list.ts): no per-request object whose hidden class V8 rebuilds.
 */
export class HeaderTemplates {
  private readonly templates = new Map<string, Readonly<HeaderList>>();

  /** A copy of the fixed headers for `restRoot`, for the caller to add to. */
  copy(restRoot: string): HeaderList {
    let template = this.templates.get(restRoot);
    if (!template) {
      template = Object.entries(fixedHeaders(restRoot)).flat();
      // Roots differ only by scheme; the bound guards against unexpected growth.
      if (this.templates.size < 16) this.templates.set(restRoot, template);
    }
    return template.slice();
  }
}
