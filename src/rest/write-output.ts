/**
 * The last steps of `RestServer.serve`: the answer as the response to send, then written as the
 * output's bytes; and the JSONP callback's check that comes before anything else
 * (docs/spec/wp-rest-reference.md §5).
 */
import type { Answer } from './endpoint-steps.js';
import { errorAsResponse, errorResponse } from './error-response.js';
import { isRestError, restError } from './errors.js';
import { setHeader, setHeaders, type HeaderList } from './header-list.js';
import { withNonceHint } from './nonce-hint.js';
import { withFields } from './response-fields.js';
import type { DispatchRequest } from './rest-request.js';
import type { RestOutput } from './incoming.js';
import type { JsonEncoder } from './json-encoder.js';
import type { ReplayStamp } from './replay.js';
import { RestResponse, StreamedResponse } from './types.js';

const JSONP_CALLBACK = /^[\w.]+$/;
const JSONP_CONTENT_TYPE = 'application/javascript; charset=UTF-8';

/** A `_jsonp` callback that is not a plain name: 400 `rest_callback_invalid`, as JavaScript; null when absent or fine. */
export function refusedCallback(jsonp: unknown, headers: HeaderList): RestOutput | null {
  if (jsonp === undefined || (typeof jsonp === 'string' && JSONP_CALLBACK.test(jsonp))) return null;
  setHeader(headers, 'Content-Type', JSONP_CONTENT_TYPE);
  const { status, body } = errorResponse(restError('rest_callback_invalid'), undefined, 'code-message');
  return { status, headers, body };
}

/**
 * The answer as the response to send: an error with its nonce hint, a success with `_fields`
 * applied, then `Allow`. Its headers go into `headers`, or with `_envelope` into the body
 * (answered 200).
 */
export function responseOf(
  handled: { readonly answer: Answer; readonly request: DispatchRequest | null; readonly allow: string | null },
  nonceMissing: boolean,
  envelope: boolean,
  headers: HeaderList,
): RestResponse | StreamedResponse {
  const { answer, request } = handled;
  const response = isRestError(answer)
    ? errorAsResponse(withNonceHint(answer, nonceMissing))
    : answer instanceof StreamedResponse
      ? answer
      : withFields(answer, request);
  if (handled.allow) response.headers.Allow = handled.allow;
  if (!envelope || response instanceof StreamedResponse) {
    setHeaders(headers, response.headers);
    return response;
  }
  // An empty PHP array prints as [] (docs/spec/wp-rest-reference.md §12).
  const envelopeHeaders = Object.keys(response.headers).length > 0 ? response.headers : [];
  return new RestResponse({ body: response.data, status: response.status, headers: envelopeHeaders }, 200);
}

export interface WriteOptions {
  /** The method the request was sent with, and the one it was dispatched as (after `_method`; undefined when refused before). */
  readonly sent: string;
  readonly dispatched: string | undefined;
  /** The checked `_jsonp` callback. */
  readonly jsonp: unknown;
  readonly json: JsonEncoder;
  readonly warn: (message: string, detail?: unknown) => void;
  /** The replay stamp of an answer written in full (src/rest/replay.ts); absent when it may not be given again. */
  readonly stamp?: (status: number) => ReplayStamp | undefined;
}

/**
 * The answer's bytes: none for a HEAD, the chunks of a streamed response, else its JSON (wrapped
 * in the JSONP callback when one was asked for). An answer that cannot be encoded becomes 500
 * `rest_encode_error`, never stamped.
 */
export function writeOutput(response: RestResponse | StreamedResponse, headers: HeaderList, options: WriteOptions): RestOutput {
  const sentHead = options.sent.toUpperCase() === 'HEAD';
  // A real HEAD request gets the GET's body, so that the adapter can send its Content-Length
  // (RFC 9110 §9.3.2) and then leave the body out; a HEAD by `_method` on another verb has none.
  if (options.dispatched === 'HEAD' && !sentHead) return { status: response.status, headers, body: null };
  // (HEAD included: the adapter sends the head alone, without a Content-Length it cannot know.)
  if (response instanceof StreamedResponse) return { status: response.status, headers, body: null, stream: response.chunks };
  let body: string | Buffer;
  try {
    body = options.json.encode(response.data);
  } catch (error) {
    options.warn('Could not encode the response as JSON', error);
    const failed = errorResponse(restError('rest_encode_error', { detail: (error as Error).message }));
    return { status: failed.status, headers, body: failed.body };
  }
  if (typeof options.jsonp === 'string') {
    setHeader(headers, 'Content-Type', JSONP_CONTENT_TYPE);
    body = `/**/${options.jsonp}(${body})`;
  }
  const replay = options.stamp?.(response.status);
  return replay === undefined ? { status: response.status, headers, body } : { status: response.status, headers, body, replay };
}
