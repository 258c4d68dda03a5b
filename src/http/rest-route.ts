import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingRestRequest, RestServer } from '../rest/rest-server.js';
import { parsePhpQuery } from '../rest/php-query.js';
import { flatHeaders, requestOrigin } from './request-origin.js';
import { readRawBody } from './raw-body.js';

export interface RestRouteOptions {
  rest: RestServer;
  restPrefix: string;
  tls: boolean;
  trustProxy: boolean;
  bodyLimit: number;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** `/a/b/` → `/a/b`; '' and '/' → '/' (the index). */
function normalizeRoute(route: string): string {
  const trimmed = route.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/**
 * The REST route of a request (spec 4.3): `?rest_route=` in any mode, else the path after the
 * prefix (pretty) or after `/index.php/<prefix>` (index). Null when the request is not for the REST layer.
 */
export function extractRestRoute(url: string, restPrefix: string): { route: string; query: Record<string, unknown> } | null {
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? {} : parsePhpQuery(url.slice(q + 1));
  const restRoute = query.rest_route;
  if (typeof restRoute === 'string') return { route: normalizeRoute(restRoute), query };
  const path = decodePath(pathname);
  for (const base of [`/${restPrefix}`, `/index.php/${restPrefix}`]) {
    if (path === base || path === `${base}/`) return { route: '/', query };
    if (path.startsWith(`${base}/`)) return { route: normalizeRoute(path.slice(base.length)), query };
  }
  return null;
}

/** Hands a request to the REST layer and writes its answer. */
export async function serveRest(options: RestRouteOptions, req: FastifyRequest, reply: FastifyReply, route: string, query: Record<string, unknown>): Promise<void> {
  const body = req.body instanceof Buffer ? req.body : await readRawBody(req.raw, options.bodyLimit);
  const incoming: IncomingRestRequest = {
    method: req.method,
    route,
    query,
    headers: flatHeaders(req.headers),
    body,
    origin: requestOrigin(req.headers, options.tls, options.trustProxy),
  };
  const out = await options.rest.serve(incoming);
  reply.code(out.status).headers(out.headers);
  if (out.body === null) {
    await reply.send();
  } else {
    await reply.send(out.body);
  }
}

/** Registers the REST entry points: `/<prefix>/…`, `/index.php/<prefix>/…` and `/?rest_route=…`. */
export function registerRestRoutes(app: FastifyInstance, options: RestRouteOptions): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const target = extractRestRoute(req.url, options.restPrefix);
    if (!target) return reply.callNotFound();
    return serveRest(options, req, reply, target.route, target.query);
  };
  for (const base of [`/${options.restPrefix}`, `/index.php/${options.restPrefix}`]) {
    app.route({ method: [...METHODS], url: base, handler });
    app.route({ method: [...METHODS], url: `${base}/*`, handler });
  }
}
