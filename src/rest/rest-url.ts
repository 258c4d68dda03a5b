/**
 * The one function that builds every REST URL (index, Link header, RSD, admin page),
 * as WordPress's `get_rest_url()` does for the three permalink modes (docs/spec/wp-rest-reference.md §8).
 */

import type { Permalinks } from '../core/permalinks.js';

/** The permalink modes; defined in src/core/permalinks.ts (the configuration needs them too). */
export type { Permalinks };

export interface RestUrlConfig {
  homeUrl: string;
  restPrefix: string;
  permalinks: Permalinks;
}

/** What is known about the current request, for docs/spec/site-management-api.md §4.3 rule 3. */
export interface RequestOrigin {
  /** HTTPS, known from TLS or (with a trusted proxy) `X-Forwarded-Proto`. */
  secure: boolean;
  /** The request's host name (without port). */
  hostname: string;
  /**
   * The port the client named in `Host` (or, behind a trusted proxy, `X-Forwarded-Host`), '' when
   * it named none or the scheme's default: with the scheme and host name, the request's origin as
   * browsers define it (RFC 6454), which the page forms' `Origin` check compares.
   */
  port?: string;
}

export type RestUrlBuilder = (path?: string, origin?: RequestOrigin) => string;

/** The two REST base paths of a prefix: pretty first, then index. */
export interface RestBasePaths {
  /** `/<prefix>` (pretty permalinks). */
  readonly pretty: string;
  /** `/index.php/<prefix>` (index permalinks). */
  readonly index: string;
  /** Both, pretty first: the paths under which a request is for the REST layer (besides `?rest_route=`). */
  readonly all: readonly string[];
}

const basePathsByPrefix = new Map<string, RestBasePaths>();

/**
 * The REST base paths of a prefix, built once per prefix (they are read on every request).
 *
 * @example
 * restBasePaths('wp-json').all // ['/wp-json', '/index.php/wp-json']
 */
export function restBasePaths(restPrefix: string): RestBasePaths {
  let paths = basePathsByPrefix.get(restPrefix);
  if (!paths) {
    const pretty = `/${restPrefix}`;
    const index = `/index.php/${restPrefix}`;
    paths = Object.freeze({ pretty, index, all: Object.freeze([pretty, index]) });
    basePathsByPrefix.set(restPrefix, paths);
  }
  return paths;
}

/**
 * Creates the REST URL builder.
 *
 * @example
 * const restUrl = createRestUrlBuilder({ homeUrl: 'http://example.org', restPrefix: 'wp-json', permalinks: 'pretty' });
 * restUrl('/jetpack/v4/module/all') // 'http://example.org/wp-json/jetpack/v4/module/all'
 */
export function createRestUrlBuilder(config: RestUrlConfig): RestUrlBuilder {
  const home = config.homeUrl.replace(/\/+$/, '');
  const homeHost = new URL(config.homeUrl).hostname.toLowerCase();
  const paths = restBasePaths(config.restPrefix);
  const base =
    config.permalinks === 'pretty'
      ? `${home}${paths.pretty}/`
      : config.permalinks === 'index'
        ? `${home}${paths.index}/`
        : `${home}/?rest_route=/`;
  const secureBase = base.replace(/^http:/i, 'https:');
  return (path = '/', origin) => {
    const rel = path.replace(/^\/+/, '');
    const forceHttps = origin?.secure === true && origin.hostname.toLowerCase() === homeHost;
    return (forceHttps ? secureBase : base) + rel;
  };
}
