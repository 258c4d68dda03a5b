import path from 'node:path';
import type { OutgoingHttpHeaders } from 'node:http';
import send from '@fastify/send';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AssetDirectory, PageDefinition, PageRequest } from '../features/contract.js';
import { checkJsonBounds } from '../rest/json-bounds.js';
import { parsePhpQuery } from '../rest/php-query.js';
import { mediaType } from '../rest/request-body.js';
import type { RequestOrigin } from '../rest/rest-url.js';
import type { Identity } from '../rest/types.js';
import { flatHeaders } from './request-origin.js';
import { checkPagePost, formCookie, formCookieHeader, formTokenOf } from './form-guard.js';
import { errorResponse } from '../rest/error-response.js';
import { restError } from '../rest/errors.js';
import { escapeHtml } from '../core/html.js';
import { simplePage, withSiteName } from '../core/simple-page.js';
import { addHtmlSecurityHeaders } from './security-headers.js';

/** A form or JSON page body as an object ({} when none or unreadable). */
export function pageBody(req: FastifyRequest): Record<string, unknown> {
  const raw = req.body instanceof Buffer ? req.body.toString('utf8') : typeof req.body === 'string' ? req.body : '';
  if (mediaType(req.headers['content-type']) === 'application/json') {
    if (checkJsonBounds(raw) !== 'ok') return {};
    try {
      const parsed: unknown = JSON.parse(raw || '{}');
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return parsePhpQuery(raw);
}

/** What pages need from the adapter about a request's origin, and the form tokens' key. */
export interface PageHelpers {
  origin(req: FastifyRequest): RequestOrigin;
  restRoot(req: FastifyRequest): string;
  readonly homeUrl: string;
  readonly formKey: Uint8Array;
  /** The site's name for the pages' header (undefined when the store cannot say). */
  siteName(): Promise<string | undefined>;
}

function pageRequest(
  req: FastifyRequest,
  helpers: PageHelpers,
  identify: (headers: Readonly<Record<string, string>>, ip: string) => Promise<Identity>,
  onFreshFormCookie: (value: string) => void,
): PageRequest {
  const q = req.url.indexOf('?');
  const headers = flatHeaders(req.headers);
  let token: string | undefined;
  return {
    method: req.method,
    path: q === -1 ? req.url : req.url.slice(0, q),
    query: q === -1 ? {} : parsePhpQuery(req.url.slice(q + 1)),
    search: q === -1 ? '' : req.url.slice(q),
    headers,
    body: req.method === 'POST' ? pageBody(req) : {},
    ip: req.ip,
    origin: helpers.origin(req),
    restRoot: helpers.restRoot(req),
    identity: () => identify(headers, req.ip),
    formToken() {
      if (token === undefined) {
        const cookie = formCookie(headers.cookie);
        if (cookie.fresh) onFreshFormCookie(cookie.value);
        token = formTokenOf(helpers.formKey, cookie.value);
      }
      return token;
    },
  };
}

/** Serves the features' pages on Fastify. */
export function mountPages(
  app: FastifyInstance,
  pages: readonly (PageDefinition & { readonly owner?: string })[],
  helpers: PageHelpers,
  identify: (headers: Readonly<Record<string, string>>, ip: string) => Promise<Identity>,
): void {
  for (const page of pages) {
    app.route({
      method: page.method,
      url: page.path,
      // The route table's row: the page checks who may see it itself.
      config: { owner: page.owner ?? 'unknown', permission: 'page' },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const request = pageRequest(
          req,
          helpers,
          identify,
          (value) => void reply.header('Set-Cookie', formCookieHeader(value, helpers.origin(req).secure)),
        );
        if (page.method === 'POST' && page.crossSiteCheck !== 'page') {
          const check = checkPagePost({
            headers: request.headers,
            body: request.body,
            origin: request.origin,
            homeUrl: helpers.homeUrl,
            key: helpers.formKey,
          });
          if (check !== 'ok') return refuseCrossSite(reply, mediaType(req.headers['content-type']) === 'application/json');
        }
        const answer = await page.handle(request);
        if (answer.notFound) return reply.callNotFound();
        reply.code(answer.status);
        if (answer.headers) reply.headers(answer.headers);
        if (answer.stream !== undefined) return reply.send(answer.stream);
        if (answer.body === undefined) return reply.send();
        if (typeof answer.body !== 'string') return writeChunks(reply, answer.body);
        if (answer.body.includes('sw-site-default')) {
          const name = await helpers.siteName();
          return reply.send(name === undefined ? answer.body : withSiteName(answer.body, name));
        }
        return reply.send(answer.body);
      },
    });
  }
}

/**
 * A body of byte chunks, written without joining them. Fastify sends one string or Buffer, and
 * joining the admin page's 66 KB per response cost about as much CPU as the kernel's write of it
 * (issue 26), so the adapter takes the reply over and writes what Fastify would have: the same
 * headers in the same order (the HTML security headers its onSend hook adds, Content-Length
 * last), then the chunks, flushed together when `end` uncorks the socket. Fastify's onResponse
 * hook (the request log) still runs when the response finishes.
 */
function writeChunks(reply: FastifyReply, chunks: readonly Uint8Array[]): void {
  addHtmlSecurityHeaders(reply);
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  reply.header('Content-Length', String(length));
  reply.hijack();
  const res = reply.raw;
  res.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  res.cork();
  for (const chunk of chunks) if (chunk.byteLength > 0) res.write(chunk);
  res.end();
}

/** A POST from another site: JSON for JSON clients, otherwise a page saying what to do. */
function refuseCrossSite(reply: FastifyReply, json: boolean) {
  const error = restError('siteward_cross_site_form');
  if (json) {
    const response = errorResponse(error, { 'Cache-Control': 'no-store' });
    return reply.code(response.status).headers(response.headers).send(response.body);
  }
  reply.code(error.status).header('Cache-Control', 'no-store');
  return reply.header('Content-Type', 'text/html; charset=UTF-8').send(simplePage('Not sent', `<p>${escapeHtml(error.message)}</p>`));
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=UTF-8',
  '.mjs': 'text/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.html': 'text/html; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=UTF-8',
};

/**
 * Serves the features' static asset directories through @fastify/send (the file server of
 * @fastify/static): conditional requests (ETag, Last-Modified → 304), byte ranges (206/416),
 * and the path decoded exactly once and kept inside the directory. A path that cannot be
 * decoded is a 400; one outside the directory, a dotfile or a directory is a 404.
 */
export function mountAssets(app: FastifyInstance, directories: readonly (AssetDirectory & { readonly owner?: string })[]): void {
  for (const assets of directories) {
    const root = path.resolve(assets.dir);
    app.get(`${assets.urlPrefix}*`, { config: { owner: assets.owner ?? 'unknown' } }, async (req, reply) => {
      // The path as the client sent it, still percent-encoded: send decodes it once (the route's
      // parameter is decoded already, and decoding that again turned `%25E0` into an error).
      const target = (req.raw.url ?? '').split('?')[0]!;
      if (!target.startsWith(assets.urlPrefix)) return reply.callNotFound();
      const result = await send(req.raw, `/${target.slice(assets.urlPrefix.length)}`, {
        root,
        index: false,
        dotfiles: 'ignore',
        cacheControl: false,
      });
      if (result.type === 'error' && result.statusCode === 400) {
        const response = errorResponse(restError('rest_bad_request'));
        return reply.code(response.status).headers(response.headers).send(response.body);
      }
      if (result.type !== 'file') return reply.callNotFound();
      reply.code(result.statusCode).headers(result.headers);
      const type = CONTENT_TYPES[path.extname(result.metadata.path)];
      if (type !== undefined && reply.hasHeader('content-type')) reply.header('Content-Type', type);
      return reply
        .header('Cache-Control', assets.cacheControl ?? 'public, max-age=3600')
        .header('X-Content-Type-Options', 'nosniff')
        .send(result.stream);
    });
  }
}
