import { retryAfterOf, type RestError } from './errors.js';
import { RestResponse } from './types.js';

/** The Content-Type of every JSON error body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** An error as it goes on the wire: status, headers and the JSON body (`{code, message, data}`). */
export interface ErrorResponse {
  readonly status: number;
  /** `Content-Type`, `Content-Length`, `Retry-After` when the error asks for one, then the caller's `headers`. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * The headers an error itself asks for: `Retry-After` when it carries `data.retry_after`
 * (seconds). The REST server adds these to its own response; everyone else gets them from
 * {@link errorResponse}.
 */
export function errorHeaders(error: RestError): Record<string, string> {
  const retryAfter = retryAfterOf(error);
  return retryAfter === null ? {} : { 'Retry-After': String(retryAfter) };
}

/**
 * The one way an error becomes a response outside the REST layer's own pipeline (the HTTP
 * adapter's early answers, the shutdown gate, pages that answer JSON). `headers` are added
 * last (e.g. the REST layer's fixed headers, or `Connection: close`).
 *
 * @example
 * const { status, headers, body } = errorResponse(authError('invalid_login'));
 * return reply.code(status).headers(headers).send(body); // Fastify
 * res.writeHead(status, headers).end(body); // node:http
 * return { status, headers, body }; // a feature's page handler (ctx.addPage)
 */
export function errorResponse(
  error: RestError,
  headers?: Readonly<Record<string, string>>,
  /** `code-message`: the body WordPress's `json_error()` writes before dispatch (no `data`). */
  layout: 'full' | 'code-message' = 'full',
): ErrorResponse {
  const body = JSON.stringify(layout === 'full' ? error.toJSON() : { code: error.code, message: error.message });
  return {
    status: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(body)), ...errorHeaders(error), ...headers },
    body,
  };
}

/**
 * An error as the REST layer's pipeline carries an answer before encoding it (the `_envelope`
 * answer and batch envelopes wrap the body as a value): its status, the headers it asks for and
 * its JSON body as an object. Encoded, it is exactly {@link errorResponse}'s body.
 */
export function errorAsResponse(error: RestError): RestResponse {
  return new RestResponse(error.toJSON(), error.status, errorHeaders(error));
}
