import { parsePhpQuery } from '../rest/php-query.js';
import { restBasePaths } from '../rest/rest-url.js';

function decodePath(p: string): string {
  if (!p.includes('%')) return p; // nothing to decode: the common case, on every request
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** `/a/b/` → `/a/b`; '' and '/' → '/' (the index). */
function normalizeRoute(route: string): string {
  // The regular expression runs only when there is a slash to trim: most routes have none.
  const trimmed = route.endsWith('/') ? route.replace(/\/+$/, '') : route;
  return trimmed === '' ? '/' : trimmed;
}

/**
 * The REST route of a request (docs/spec/site-management-api.md §4.3): `?rest_route=` in any mode, else the path after the
 * prefix (pretty) or after `/index.php/<prefix>` (index). Null when the request is not for the REST layer.
 */
export function extractRestRoute(url: string, restPrefix: string): { route: string; query: Record<string, unknown> } | null {
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? {} : parsePhpQuery(url.slice(q + 1));
  const restRoute = query.rest_route;
  // An empty `rest_route` is no REST request (WordPress's rest_api_loaded returns early).
  if (typeof restRoute === 'string' && restRoute !== '') return { route: normalizeRoute(restRoute), query };
  const path = decodePath(pathname);
  for (const base of restBasePaths(restPrefix).all) {
    if (path === base || path === `${base}/`) return { route: '/', query };
    if (path.startsWith(`${base}/`)) return { route: normalizeRoute(path.slice(base.length)), query };
  }
  return null;
}
