import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from '../config/config.js';
import { requestArrived } from '../core/request-batch.js';
import { isServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/unavailable.js';
import { errorResponse } from '../rest/error-response.js';
import { restError, storeUnavailable, type RestError } from '../rest/errors.js';
import { fixedHeaders } from '../rest/response-headers.js';
import type { RestServer } from '../rest/rest-server.js';
import type { RestUrlBuilder } from '../rest/rest-url.js';
import { createRestHandler, REPLAYED } from './rest-handler.js';
import { extractRestRoute } from './rest-route.js';
import { requestOrigin } from './request-origin.js';
import { homePage, rsdDocument } from './site-pages.js';
import { mountAssets, mountPages, type PageHelpers } from './feature-pages.js';
import { addHtmlSecurityHeaders } from './security-headers.js';
import { ShutdownGate } from './shutdown-gate.js';
import { toOriginForm } from './request-target.js';
import { notFoundPage, registerBrowserPaths, wantsHtml } from './browser-paths.js';
import { redactUrl } from './log-redaction.js';
import { errorKey, type LogThrottle } from '../core/log-throttle.js';
import type { AssetDirectory, PageDefinition } from '../features/contract.js';
import type { Identity } from '../rest/types.js';
import type { RouteRow } from '../core/route-table.js';

export interface HttpServerDeps {
  config: Config;
  rest: RestServer;
  restUrl: RestUrlBuilder;
  logger: FastifyBaseLogger | false;
  /** Site name and extra `<head>` tags (e.g. site-verification meta tags) for the home page. */
  homeHead: () => Promise<{ name: string; description: string; headTags: string[] }>;
  /** Pages and asset directories declared by features. */
  pages: readonly Owned<PageDefinition>[];
  assets: readonly Owned<AssetDirectory>[];
  identify(headers: Readonly<Record<string, string>>, ip: string): Promise<Identity>;
  /** HMAC key of the page forms' anti-CSRF tokens. */
  formKey: Uint8Array;
  /** Shared with the rest of the process, so one failure is logged once per window everywhere. */
  logThrottle: LogThrottle;
  /** Told of every page and asset mount as it is registered (the route table); pages name their owner. */
  recordRoute?: (row: RouteRow) => void;
  /**
   * On close, resolves once no process accepts connections for this server any more (under
   * node:cluster, once the primary closed the socket it shares with the workers); the 503
   * window waits for it (src/http/shutdown-gate.ts). Without it, closing the server's own
   * listening socket suffices.
   */
  listenerClosed?: () => Promise<void>;
}

/** Each server's first closing step (see stopListening). */
const listenerStops = new WeakMap<FastifyInstance, () => Promise<void>>();

/**
 * Stops the server listening and waits until no process accepts connections for it (the
 * shutdown gate's first step). Call it before the server's `close()`: Fastify's close marks its
 * own routes' answers `Connection: close` at once, which under node:cluster must wait for this.
 */
export function stopListening(app: FastifyInstance): Promise<void> {
  return listenerStops.get(app)?.() ?? Promise.resolve();
}

/** Pages and asset directories with the name of the feature that declared them. */
export type Owned<T> = T & { readonly owner?: string };

function isRestPath(url: string, prefix: string): boolean {
  return extractRestRoute(url, prefix) !== null;
}

/** Builds the Fastify server: REST entry points, site pages and JSON errors for every failure. */
export async function buildHttpServer(deps: HttpServerDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const tls = config.tlsCert !== null && config.tlsKey !== null;
  const log = deps.logger === false ? null : deps.logger;
  /** Logs an error unless the same one was logged within the throttle's window. */
  const throttled = (err: unknown, context: string, write: (extra: { suppressed?: number }) => void) => {
    const verdict = deps.logThrottle.admit(errorKey(context, err));
    if (verdict.log) write(verdict.suppressed > 0 ? { suppressed: verdict.suppressed } : {});
  };
  // The anonymous limit never exceeds the general one.
  const anonymousLimit = Math.min(config.anonymousBodyLimit, config.bodyLimit);
  const restHandler = createRestHandler({
    rest: deps.rest,
    restUrl: deps.restUrl,
    restPrefix: config.restPrefix,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    anonymousBodyLimit: anonymousLimit,
    logRequest:
      log && ['trace', 'debug', 'info'].includes(log.level)
        ? (line) =>
            log.info({ method: line.method, url: redactUrl(line.url), status: line.status, ms: Number(line.ms.toFixed(1)) }, 'request')
        : null,
    logError: (err) => throttled(err, 'unhandled error', (extra) => log?.error({ err, ...extra }, 'unhandled error')),
    logUnavailable: (err) =>
      throttled(err, 'store unavailable', (extra) => log?.warn({ reason: err.reason, ...extra }, 'store unavailable')),
    logAborted: (line) => log?.debug({ method: line.method, url: redactUrl(line.url) }, 'client aborted the request body'),
  });
  const tlsOptions = tls ? { cert: readFileSync(config.tlsCert!), key: readFileSync(config.tlsKey!) } : null;
  const hsts = config.hstsMaxAge > 0 ? `max-age=${config.hstsMaxAge}` : null;
  // REST requests go straight to the REST handler; everything else to Fastify.
  const gate = new ShutdownGate();
  const serverFactory = (fastifyHandler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const handler = gate.wrap((req: IncomingMessage, res: ServerResponse) => {
      // Marks the poll phase's request batch, within which the store's cached state versions are fresh.
      requestArrived();
      // HSTS (RFC 6797) on every answer that travels over HTTPS, never over plain HTTP: browsers
      // then refuse to reach the site (and its login cookie) without TLS for max-age seconds.
      if (hsts !== null && (tls || (config.trustProxy && requestOrigin(req.headers, false, true).secure)))
        res.setHeader('Strict-Transport-Security', hsts);
      // A byte-identical repeat of a REST answer that may be given again is answered at once.
      const replayTarget = restHandler.replay(req, res);
      if (replayTarget === REPLAYED) return;
      if (!toOriginForm(req)) {
        const { status, headers, body } = errorResponse(restError('rest_bad_request_url'));
        res.writeHead(status, headers);
        res.end(body);
        return;
      }
      if (!restHandler.tryHandle(req, res, replayTarget)) fastifyHandler(req, res);
    });
    const server = tlsOptions ? createHttpsServer(tlsOptions, handler) : createHttpServer(handler);
    gate.watch(server, tlsOptions !== null);
    return server;
  };
  // Malformed requests (bad header lines, oversized headers) get the JSON error layout too.
  const clientErrorHandler = (err: Error & { code?: string }, socket: Socket) => {
    if (socket.destroyed || !socket.writable) return;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const error = status === 431 ? restError('rest_headers_too_large') : restError('rest_bad_request', { status });
    const response = errorResponse(error, { Connection: 'close' });
    const head = Object.entries(response.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}\r\n${head}\r\n${response.body}`);
  };
  const app = Fastify({
    serverFactory,
    clientErrorHandler,
    ...(deps.logger === false ? { logger: false } : { loggerInstance: deps.logger }),
    // One line per request is logged by the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    // Pages (login, setup, logout, features' forms) are small forms, read before anyone is known.
    bodyLimit: anonymousLimit,
    // Only the immediate peer (our proxy) is trusted: `req.ip` is the address it appended, as
    // clientAddress() takes on REST requests. `true` would trust client-written entries too.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 2048 },
    // A path the router cannot decode (`/admin/assets/%E0`) gets the JSON error layout too.
    frameworkErrors: (_error: Error, _req: FastifyRequest, reply: FastifyReply) => {
      const { status, headers, body } = errorResponse(restError('rest_bad_request'));
      void reply.code(status).headers(headers).send(body);
    },
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;

  // The route table learns of each page as Fastify registers it; the adapter's own are `http`'s.
  app.addHook('onRoute', (route) => {
    const { owner = 'http', permission = 'none' } = (route.config ?? {}) as { owner?: string; permission?: string };
    const method = Array.isArray(route.method) ? route.method.join(',') : String(route.method);
    deps.recordRoute?.({ method, path: route.url, owner, permission, batchable: 'no' });
  });

  listenerStops.set(app, () => gate.stopListening(app.server, config.shutdownTimeoutMs, deps.listenerClosed));
  app.addHook('preClose', async () => gate.begin(app.server, config.shutdownTimeoutMs, deps.listenerClosed));
  app.addHook('onClose', async () => gate.end());

  // The REST layer reads every body itself (JSON on any method, PHP-style forms), so Fastify
  // must never answer a parsing error of its own.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // Every HTML answer, whichever part built it, leaves with the security headers.
  // (A page body of byte chunks skips onSend: feature-pages.ts adds them there with the same function.)
  app.addHook('onSend', async (_req, reply, payload) => {
    addHtmlSecurityHeaders(reply);
    return payload;
  });

  app.addHook('onResponse', async (req, reply) => {
    // REST requests are logged by the REST handler.
    if (isRestPath(req.url, config.restPrefix)) return;
    req.log.info(
      { method: req.method, url: redactUrl(req.url), status: reply.statusCode, ms: Number(reply.elapsedTime.toFixed(1)) },
      'request',
    );
  });

  const origin = (req: FastifyRequest) => requestOrigin(req.headers, tls, config.trustProxy);
  const restRoot = (req: FastifyRequest) => deps.restUrl('/', origin(req));
  // The 404 page and the features' pages name the site; a store that cannot answer leaves "Siteward".
  const siteName = () =>
    deps.homeHead().then(
      (head) => head.name,
      () => undefined,
    );

  const sendError = (req: FastifyRequest, reply: FastifyReply, error: RestError) => {
    const response = errorResponse(error, isRestPath(req.url, config.restPrefix) ? fixedHeaders(restRoot(req)) : undefined);
    return reply.code(response.status).headers(response.headers).send(response.body);
  };

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    const status = err.statusCode ?? 500;
    let error: RestError;
    if (status === 413) error = restError('rest_body_too_large');
    else if (isServiceUnavailable(err)) {
      throttled(err, 'store unavailable', (extra) => req.log.warn({ reason: err.reason, ...extra }, 'store unavailable'));
      error = storeUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS);
    } else if (status >= 500) {
      throttled(err, 'unhandled error', (extra) => req.log.error({ err, ...extra }, 'unhandled error'));
      error = restError('rest_internal_error');
    } else error = restError('rest_bad_request_detail', { detail: err.message }, { status });
    return sendError(req, reply, error);
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (!isRestPath(req.url, config.restPrefix) && wantsHtml(req)) {
      const name = await siteName();
      return reply
        .code(404)
        .header('Content-Type', 'text/html; charset=UTF-8')
        .header('Cache-Control', 'no-store')
        .send(notFoundPage(name));
    }
    const error = isRestPath(req.url, config.restPrefix) ? restError('rest_no_route') : restError('rest_not_found');
    return sendError(req, reply, error);
  });

  // `/?rest_route=…` never gets here: the REST handler takes it before Fastify (plain permalinks).
  const home = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.callNotFound();
    const root = restRoot(req);
    const head = await deps.homeHead();
    return reply
      .code(200)
      .header('Content-Type', 'text/html; charset=UTF-8')
      .header('Link', `<${root}>; rel="https://api.w.org/"`)
      .send(req.method === 'HEAD' ? undefined : homePage({ ...head, restRoot: root }));
  };
  for (const url of ['/', '/index.php']) {
    app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url, handler: home });
  }

  app.get('/xmlrpc.php', async (req, reply) => {
    if (!('rsd' in (req.query as Record<string, unknown>))) {
      return sendError(req, reply, restError('xmlrpc_not_supported'));
    }
    const head = await deps.homeHead();
    return reply
      .code(200)
      .header('Content-Type', 'text/xml; charset=UTF-8')
      .send(rsdDocument({ name: head.name, homeUrl: config.homeUrl, restRoot: restRoot(req) }));
  });

  const helpers: PageHelpers = { origin, restRoot, homeUrl: config.homeUrl, formKey: deps.formKey, siteName };
  registerBrowserPaths(app);
  mountPages(app, deps.pages, helpers, deps.identify);
  mountAssets(app, deps.assets);
  deps.recordRoute?.({ method: '*', path: '(no match)', owner: 'http', permission: 'none', batchable: 'no' });
  return app;
}
