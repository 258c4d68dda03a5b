/** A REST server with no HTTP, store or auth behind it, for tests of the REST layer's own contracts. */
import { RestServer, type RestOutput, type RestServerOptions } from '../rest-server.js';
import type { RestUrlBuilder } from '../rest-url.js';
import type { Principal } from '../types.js';

const anonymous: Principal = { id: 0, login: '', email: '', displayName: '', roles: [], can: () => false };

/**
 * Anonymous requests only; URLs under http://example.org/wp-json unless `urls` says otherwise.
 * `warn` receives developer warnings; `more` replaces or adds options (e.g. `replay`, another authenticator).
 */
export function createBareRestServer(
  warn: (message: string) => void = () => undefined,
  urls: RestUrlBuilder = (p = '/') => `http://example.org/wp-json${p}`,
  more: Partial<RestServerOptions> = {},
): RestServer {
  return new RestServer({
    urls,
    authenticator: {
      identify: () => ({ kind: 'anonymous' }),
      verifyNonce: () => false,
      createNonce: () => 'n',
      anonymous: () => anonymous,
    },
    siteSummary: () => ({ name: 'Site', description: '', url: 'http://example.org', home: 'http://example.org' }),
    warn,
    ...more,
  });
}

/** Serves a request for `route` (no query, headers or body). */
export function get(rest: RestServer, route: string, method = 'GET'): Promise<RestOutput> {
  return rest.serve({ method, route, query: {}, headers: {}, body: '', origin: { secure: false, hostname: 'example.org' } });
}

/** A response header by case-insensitive name. */
export function header(out: RestOutput, name: string): string | undefined {
  for (let i = 0; i < out.headers.length; i += 2) if (out.headers[i]!.toLowerCase() === name.toLowerCase()) return out.headers[i + 1];
  return undefined;
}
