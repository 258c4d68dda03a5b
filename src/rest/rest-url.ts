/**
 * The one function that builds every REST URL (index, Link header, RSD, admin page),
 * as WordPress's `get_rest_url()` does for the three permalink modes (wp-rest-reference §8).
 */

export type Permalinks = 'pretty' | 'index' | 'plain';

export interface RestUrlConfig {
  homeUrl: string;
  restPrefix: string;
  permalinks: Permalinks;
}

/** What is known about the current request, for spec 4.3 rule 3. */
export interface RequestOrigin {
  /** HTTPS, known from TLS or (with a trusted proxy) `X-Forwarded-Proto`. */
  secure: boolean;
  /** The request's host name (without port). */
  hostname: string;
}

export type RestUrlBuilder = (path?: string, origin?: RequestOrigin) => string;

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
  const base =
    config.permalinks === 'pretty'
      ? `${home}/${config.restPrefix}/`
      : config.permalinks === 'index'
        ? `${home}/index.php/${config.restPrefix}/`
        : `${home}/?rest_route=/`;
  const secureBase = base.replace(/^http:/i, 'https:');
  return (path = '/', origin) => {
    const rel = path.replace(/^\/+/, '');
    const forceHttps = origin?.secure === true && origin.hostname.toLowerCase() === homeHost;
    return (forceHttps ? secureBase : base) + rel;
  };
}
