import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { isServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS, type ServiceUnavailableError } from '../core/unavailable.js';
import { errorResponse } from '../rest/error-response.js';
import { restError, storeUnavailable, type RestError } from '../rest/errors.js';
import { setHeader, type HeaderList } from '../rest/header-list.js';
import { fixedHeaders } from '../rest/response-headers.js';
import type { RestServer } from '../rest/rest-server.js';
import { restBasePaths, type RestUrlBuilder } from '../rest/rest-url.js';
import type { Identity } from '../rest/types.js';
import { BodyAbortedError, BodyTooLargeError, readRawBody, streamRawBody } from './raw-body.js';
import { ReplayCache, type ReplayEntry } from './replay-cache.js';
import { extractRestRoute } from './rest-route.js';
import { clientAddress, flatHeaders, requestOrigin } from './request-origin.js';

export interface RestHandlerOptions {
  rest: RestServer;
  restUrl: RestUrlBuilder;
  restPrefix: string;
  trustProxy: boolean;
  bodyLimit: number;
  /** The limit for requests that are not authenticated or match no route. */
  anonymousBodyLimit: number;
  /** One line per request; null when request lines are not logged (nothing is then built for them). */
  logRequest: ((line: { method: string; url: string; status: number; ms: number }) => void) | null;
  logError: (error: unknown) => void;
  /** The store is down or not answering (logged apart from bugs, without a stack per request). */
  logUnavailable: (error: ServiceUnavailableError) => void;
  /** The client went away in the middle of its body. */
  logAborted: (line: { method: string; url: string }) => void;
}

/** One empty body for every request without one (no allocation per request). */
const EMPTY = Buffer.alloc(0);

/** Whether a body may follow: checked first so that body-less requests skip readRawBody's promise. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Whether the body may be larger than `limit`: a larger declared length, or no length (chunked). */
function mayExceed(req: IncomingMessage, limit: number): boolean {
  const length = req.headers['content-length'];
  return length === undefined || !(Number(length) <= limit);
}

/**
 * Writes a streamed answer chunked: the next chunk is asked for only once the socket took the
 * last one (`drain`), so a slow client holds one chunk in memory, not the export. A client that
 * goes away ends the iteration (its generator's `finally` runs); a chunk that fails after the
 * head was sent cuts the connection, so the client sees a truncated body, never a complete-looking one.
 */
async function writeStream(
  res: ServerResponse,
  status: number,
  headers: HeaderList,
  chunks: AsyncIterable<string | Buffer>,
): Promise<void> {
  res.writeHead(status, headers);
  const iterator = chunks[Symbol.asyncIterator]();
  let gone = false;
  let wake: (() => void) | null = null;
  const onGone = () => {
    gone = true;
    wake?.();
  };
  res.on('close', onGone);
  try {
    for (;;) {
      if (gone) {
        await iterator.return?.();
        return;
      }
      const next = await iterator.next();
      if (next.done === true) break;
      if (!res.write(next.value) && !gone)
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            wake = null;
            resolve();
          };
          wake = done;
          res.once('drain', done);
        });
    }
    res.end();
  } finally {
    res.off('close', onGone);
  }
}

/** A request target that could not be read (already answered 400). */
const FAILED = Symbol('failed');

/** What `replay` did: answered the request, or the target its answer may be kept under (undefined: not kept). */
export const REPLAYED = Symbol('replayed');

/** The REST layer's entry on node:http. */
export interface RestHandler {
  /**
   * Answers a byte-identical repeat of a request whose kept answer may still be given
   * (src/rest/replay.ts); otherwise returns the request target (as it arrived) when its answer
   * may be kept. Called first, on the request as it arrived.
   */
  replay(req: IncomingMessage, res: ServerResponse): typeof REPLAYED | string | undefined;
  /** Serves the request when it is for the REST layer (returns true), else leaves it alone. */
  tryHandle(req: IncomingMessage, res: ServerResponse, replayTarget: string | undefined): boolean;
}

/**
 * The REST entry points served straight on node:http: REST requests are most of the traffic
 * and the REST layer does its own body, header and error handling, so the framework's routing,
 * hooks and reply machinery would only add cost (about a quarter of the throughput on small
 * responses). Pages stay on Fastify.
 */
export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const prefixes = restBasePaths(options.restPrefix).all;
  const kept = new ReplayCache();
  // Speed (issue 44): an indexed loop (neither `prefixes.some` with an arrow made per call nor an
  // array iterator), and the prefixes before the scan for `rest_route=`, which REST URLs under a
  // prefix then skip.
  const mayBeRest = (url: string): boolean => {
    for (let i = 0; i < prefixes.length; i++) {
      const p = prefixes[i]!;
      if (!url.startsWith(p)) continue;
      if (url.length === p.length) return true;
      const next = url.charCodeAt(p.length);
      if (next === 0x2f || next === 0x3f) return true; // '/' or '?'
    }
    return url.includes('rest_route=');
  };

  const fail = (req: IncomingMessage, res: ServerResponse, error: RestError, started: number) => {
    const origin = requestOrigin(req.headers, (req.socket as TLSSocket | null)?.encrypted === true, options.trustProxy);
    const { status, headers, body } = errorResponse(error, fixedHeaders(options.restUrl('/', origin)));
    res.writeHead(status, headers);
    res.end(body);
    options.logRequest?.({ method: req.method ?? '', url: req.url ?? '', status: error.status, ms: performance.now() - started });
  };

  const serve = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    query: Record<string, unknown>,
    started: number,
    replayTarget: string | undefined,
    preread: Buffer | undefined,
  ) => {
    const headers = flatHeaders(req.headers);
    const clientIp = clientAddress(req.headers, req.socket?.remoteAddress, options.trustProxy);
    let identity: Identity | undefined;
    let body: Buffer = preread ?? EMPTY;
    if (preread === undefined && hasBody(req)) {
      let limit = options.anonymousBodyLimit;
      // Credentials and the route are decided before more than the anonymous limit is read.
      if (mayExceed(req, limit)) {
        const overridden = query._method !== undefined || headers['x-http-method-override'] !== undefined;
        const method = overridden ? null : (req.method ?? 'GET').toUpperCase();
        const preflight = await options.rest.preflight(route, headers, clientIp, method);
        identity = preflight.identity;
        // Up to what the route takes (SITEWARD_BODY_LIMIT at most); dispatch holds the body to
        // its endpoint's own limit, which may be smaller than the anonymous one.
        if (preflight.trusted) limit = Math.min(options.bodyLimit, preflight.routeLimit);
      }
      body = await readRawBody(req, limit);
    }
    const out = await options.rest.serve({
      method: req.method ?? 'GET',
      route,
      query,
      headers,
      body,
      origin: requestOrigin(req.headers, (req.socket as TLSSocket | null)?.encrypted === true, options.trustProxy),
      clientIp,
      identity,
    });
    if (out.stream !== undefined) {
      // A HEAD's generator is never started: nothing is read for an answer without a body.
      if (req.method === 'HEAD') res.writeHead(out.status, out.headers).end();
      else await writeStream(res, out.status, out.headers, out.stream);
      options.logRequest?.({ method: req.method ?? '', url: req.url ?? '', status: out.status, ms: performance.now() - started });
      return;
    }
    const payload = out.body ?? EMPTY;
    setHeader(out.headers, 'Content-Length', String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length));
    // (A body over the anonymous limit is never answered from the cache: see tryHandle.)
    if (replayTarget !== undefined && out.replay !== undefined && body.length <= options.anonymousBodyLimit) {
      kept.set(req, replayTarget, out.status, out.headers, typeof payload === 'string' ? Buffer.from(payload) : payload, out.replay, body);
    }
    res.writeHead(out.status, out.headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
    options.logRequest?.({ method: req.method ?? '', url: req.url ?? '', status: out.status, ms: performance.now() - started });
  };

  /** Answers a request whose serving failed: nobody (aborted), 413, 503 or 500. */
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown, started: number) => {
    if (error instanceof BodyAbortedError) {
      // Nobody is left to answer: an everyday event, not an error with a stack.
      options.logAborted({ method: req.method ?? '', url: req.url ?? '' });
      res.destroy();
      return;
    }
    if (res.headersSent) {
      // A streamed answer failed half-way: the cut connection tells the client.
      options.logError(error);
      res.destroy();
      return;
    }
    if (error instanceof BodyTooLargeError) {
      // Stop reading the rest of an oversized body; the client gets its answer at once.
      res.setHeader('Connection', 'close');
      fail(req, res, restError('rest_body_too_large'), started);
      return;
    }
    if (isServiceUnavailable(error)) {
      // Credentials are checked against the store before dispatch: an outage surfaces here too.
      options.logUnavailable(error);
      fail(req, res, storeUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS), started);
      return;
    }
    options.logError(error);
    fail(req, res, restError('rest_internal_error'), started);
  };

  const handle = (
    req: IncomingMessage,
    res: ServerResponse,
    route: string,
    query: Record<string, unknown>,
    replayTarget: string | undefined,
    preread?: Buffer,
  ) => {
    const started = performance.now();
    serve(req, res, route, query, started, replayTarget, preread).catch((error: unknown) => failed(req, res, error, started));
  };

  /**
   * The REST route and query of `url`; null when it is not for the REST layer; FAILED when the
   * URL could not be read (answered 400 here).
   */
  const restTarget = (req: IncomingMessage, res: ServerResponse, url: string): ReturnType<typeof extractRestRoute> | typeof FAILED => {
    try {
      return extractRestRoute(url, options.restPrefix);
    } catch (error) {
      // Never let one odd URL take the process down.
      options.logError(error);
      fail(req, res, restError('rest_bad_request_url'), performance.now());
      return FAILED;
    }
  };

  /**
   * Answers `req` with the answer kept for it (target, head and `body`) when that may still be
   * given; false otherwise. `sameHead`: a kept entry whose head `req` is known to match, whose
   * body is compared first (speed: its headers are not compared twice).
   */
  const answerKept = (req: IncomingMessage, res: ServerResponse, target: string, body?: Buffer, sameHead?: ReplayEntry): boolean => {
    const entry = kept.find(req, target, body, sameHead);
    if (entry === undefined) return false;
    if (!options.rest.replayable(entry.stamp)) {
      kept.delete(entry);
      return false;
    }
    const started = options.logRequest === null ? 0 : performance.now();
    res.writeHead(entry.status, entry.headers);
    res.end(entry.body);
    options.logRequest?.({ method: req.method ?? '', url: req.url ?? '', status: entry.status, ms: performance.now() - started });
    return true;
  };

  return {
    replay(req, res) {
      const url = req.url ?? '/';
      if (!mayBeRest(url)) return undefined;
      const keepable = ReplayCache.keepable(req);
      if (keepable === null) return undefined;
      // A body is compared once read (tryHandle); a request without one is answered here.
      if (keepable === 'body' || !answerKept(req, res, url)) return url;
      return REPLAYED;
    },

    tryHandle(req, res, replayTarget) {
      const url = req.url ?? '/';
      // `replay` found this URL may be REST when it gave it back as the target (speed: not asked
      // twice), unless the URL was rewritten from absolute form since.
      if (replayTarget !== url && !mayBeRest(url)) return false;
      // A write whose head matches a kept answer: its body is read here and a match answered at
      // once (speed: no promise, and nothing built for the REST layer, on a repeat).
      const sameHead = replayTarget === undefined ? undefined : kept.findHead(req, replayTarget);
      // A body over the anonymous limit waits for the credentials check of the usual path: the
      // kept answer's login may have ended since.
      if (replayTarget === undefined || sameHead === undefined || sameHead.requestBody.length > options.anonymousBodyLimit) {
        const target = restTarget(req, res, url);
        if (target === null) return false;
        if (target !== FAILED) handle(req, res, target.route, target.query, replayTarget);
        return true;
      }
      // Speed (issue 44): the route is taken from the URL only when the body does not match, not
      // on every repeat. An answer is kept only for a request the REST layer served, so this
      // URL's route was found then, and the same URL gives the same route (null never comes).
      // The same head declares the same length.
      streamRawBody(req, sameHead.requestBody.length, (error, body) => {
        if (error !== null) failed(req, res, error, performance.now());
        else if (!answerKept(req, res, replayTarget, body, sameHead)) {
          const target = restTarget(req, res, url);
          if (target === null)
            failed(req, res, new Error(`No REST route for ${url} although an answer was kept for it`), performance.now());
          else if (target !== FAILED) handle(req, res, target.route, target.query, replayTarget, body);
        }
      });
      return true;
    },
  };
}
