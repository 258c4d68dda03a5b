/**
 * `batch/v1` (WordPress 5.6 `serve_batch_request_v1`, docs/spec/current-clients.md §E): several
 * POST/PUT/PATCH/DELETE sub-requests in one call, each validated, authorised and run exactly as
 * it would be alone, answered 207 with one envelope per sub-request. Generic: it knows routes
 * only by their `allow_batch` option.
 */
import { isPlainObject } from '../core/objects.js';
import { allowedMethods } from './allow.js';
import { caught, choose, enter, executeEndpoint, validateEndpoint, type Answer } from './endpoint-steps.js';
import { errorAsResponse } from './error-response.js';
import { bodyTooLarge, invalidParams, isRestError, restError, type RestError } from './errors.js';
import { parsePhpQuery } from './php-query.js';
import { withFields } from './response-fields.js';
import { DispatchRequest } from './rest-request.js';
import { batchAllowed, type RouteRegistry } from './route-registry.js';
import { RestResponse, type ArgDefinition, type EndpointDefinition, type JsonValue, type RouteOptions } from './types.js';

/** WordPress's default `rest_get_max_batch_size`. */
export const DEFAULT_MAX_BATCH_ITEMS = 25;

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The argument messages of the batch route, WordPress ≥ 5.5 wording (docs/spec/current-clients.md §0, §E.1). */
const messages = {
  notOfType: (param: string, type: string) => `${param} is not of type ${type}.`,
  tooMany: (max: number) => `requests must contain at most ${max} items.`,
  pathRequired: (index: number) => `path is a required property of requests[${index}].`,
  // `%l` of WordPress: "a, b, and c".
  methodNotAllowed: (index: number) =>
    `requests[${index}][method] is not one of ${METHODS.slice(0, -1).join(', ')}, and ${METHODS[METHODS.length - 1]}.`,
} as const;

/** One sub-request, as checked by the `requests` argument. */
export interface BatchItem {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/** The wire form of one sub-request's answer (WordPress's `_envelope`). */
export interface BatchEnvelope {
  body: unknown;
  status: number;
  headers: Record<string, string>;
}

/** A sub-request after the validation pass: ready to run, or already answered. */
export type ValidatedItem =
  | { readonly ok: true; readonly request: DispatchRequest; readonly run: () => Promise<BatchEnvelope> }
  | { readonly ok: false; readonly envelope: BatchEnvelope };

/** What the batch needs of the REST server: the validation pass of one sub-request (route, `allow_batch`, arguments). */
export type ValidateSubRequest = (request: DispatchRequest) => Promise<ValidatedItem>;

/** Checks one item of `requests`; returns the item or the message for `rest_invalid_param`. */
function checkItem(raw: unknown, index: number): BatchItem | string {
  if (!isPlainObject(raw)) return messages.notOfType(`requests[${index}]`, 'object');
  const path = raw.path;
  if (path === undefined || path === null) return messages.pathRequired(index);
  if (typeof path !== 'string') return messages.notOfType(`requests[${index}][path]`, 'string');
  const method = raw.method ?? 'POST';
  if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method)) return messages.methodNotAllowed(index);
  const body = raw.body ?? {};
  if (!isPlainObject(body)) return messages.notOfType(`requests[${index}][body]`, 'object');
  const rawHeaders = raw.headers ?? {};
  if (!isPlainObject(rawHeaders)) return messages.notOfType(`requests[${index}][headers]`, 'object');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawHeaders)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((v) => typeof v === 'string')) return messages.notOfType(`requests[${index}][headers][${name}]`, 'string,array');
    headers[name.toLowerCase()] = values.join(',');
  }
  return { method: method as BatchItem['method'], path, body, headers };
}

/** Checks the whole `requests` list (the validate callback of the argument). */
function checkItems(value: unknown, maxItems: number): BatchItem[] | string {
  if (!Array.isArray(value)) return messages.notOfType('requests', 'array');
  if (value.length > maxItems) return messages.tooMany(maxItems);
  const items: BatchItem[] = [];
  for (const [i, raw] of value.entries()) {
    const item = checkItem(raw, i);
    if (typeof item === 'string') return item;
    items.push(item);
  }
  return items;
}

/** The batch route's arguments; `maxItems` is what clients read with `OPTIONS batch/v1` (core-data chunks by it). */
export function batchArgs(maxItems: number): Record<string, ArgDefinition> {
  return {
    validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
    requests: {
      required: true,
      type: 'array',
      maxItems,
      items: {
        type: 'object',
        properties: {
          method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
          path: { type: 'string', required: true },
          body: { type: 'object' },
          headers: { type: 'object' },
        },
      },
      validateCallback: (value) => {
        const checked = checkItems(value, maxItems);
        return typeof checked === 'string' ? invalidParams(checked) : true;
      },
      sanitizeCallback: (value) => checkItems(value, maxItems),
    },
  };
}

/** The 207 answer of `batch/v1` (docs/spec/current-clients.md §E.2), for the OpenAPI document. */
export function batchResponseSchema(): JsonValue {
  const envelope = {
    type: 'object',
    properties: { body: {}, status: { type: 'integer' }, headers: { type: 'object' } },
    required: ['body', 'status', 'headers'],
  };
  return {
    type: 'object',
    properties: {
      failed: { type: 'string', enum: ['validation'] },
      responses: { type: 'array', items: { anyOf: [envelope, { type: 'null' }] } },
    },
    required: ['responses'],
  };
}

/** The envelope of an error (docs/spec/current-clients.md §E.3). */
export function errorEnvelope(error: RestError, headers: Record<string, string> = {}): BatchEnvelope {
  // The error's own headers (Retry-After) are not in the envelope, as in WordPress.
  const { data, status } = errorAsResponse(error);
  return { body: data, status, headers };
}

/** The envelope of a handler's answer. */
export function envelopeOf(result: RestResponse | RestError, headers: Record<string, string>): BatchEnvelope {
  if (isRestError(result)) return errorEnvelope(result, headers);
  return { body: result.data, status: result.status, headers: { ...result.headers, ...headers } };
}

/** Splits an item's `path` into route and query (WordPress `wp_parse_url`); null when it cannot be parsed. */
function splitPath(path: string): { route: string; query: Record<string, unknown> } | null {
  let url: URL;
  try {
    url = new URL(path, 'http://batch.invalid');
  } catch {
    return null;
  }
  // A scheme-relative or absolute URL names another host: not a route of this server.
  if (url.host !== 'batch.invalid') return null;
  const route = decodeURIComponent(url.pathname).replace(/\/+$/, '') || '/';
  return { route, query: parsePhpQuery(url.search.replace(/^\?/, '')) };
}

/**
 * Serves one `batch/v1` request: every sub-request is validated first; in `require-all-validate`
 * mode one failure stops them all (nothing runs); otherwise they run in order, each after its
 * own permission check, with the batch request's user.
 */
export async function serveBatch(parent: DispatchRequest, validate: ValidateSubRequest): Promise<RestResponse> {
  const items = parent.params.requests as BatchItem[];
  const mode = parent.params.validation === 'require-all-validate' ? 'require-all-validate' : 'normal';
  const validated: ValidatedItem[] = [];
  for (const item of items) {
    const target = splitPath(item.path);
    if (!target) {
      validated.push({ ok: false, envelope: errorEnvelope(restError('parse_path_failed')) });
      continue;
    }
    const request = new DispatchRequest(item.method, target.route, item.headers, '', undefined, target.query, item.body, parent.user);
    request.origin = parent.origin;
    request.credential = parent.credential;
    // Its share of the batch's body, held to its endpoint's limit as a request of its own.
    request.bodyBytes = item.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(item.body));
    request.clientIp = parent.clientIp;
    request.sessionToken = parent.sessionToken;
    request.refusalObserver = parent.refusalObserver;
    validated.push(await validate(request));
  }

  if (mode === 'require-all-validate' && validated.some((v) => !v.ok)) {
    return new RestResponse({ failed: 'validation', responses: validated.map((v) => (v.ok ? null : v.envelope)) }, 207);
  }
  const responses: BatchEnvelope[] = [];
  for (const v of validated) responses.push(v.ok ? await v.run() : v.envelope);
  return new RestResponse({ responses }, 207);
}

/**
 * The validation pass of one `batch/v1` sub-request (docs/spec/current-clients.md §E.2): route,
 * `allow_batch`, then the arguments exactly as a request of its own; what runs later is the
 * permission check and the handler.
 */
export function subRequestValidator(registry: RouteRegistry, warn: (message: string, detail?: unknown) => void): ValidateSubRequest {
  return async (request) => {
    const chosen = choose(registry, request.route, request.method);
    if (!chosen) return { ok: false, envelope: errorEnvelope(restError('rest_no_route')) };
    const { route, endpoint } = chosen;
    if (!batchAllowed(route, endpoint)) return { ok: false, envelope: errorEnvelope(restError('rest_batch_not_allowed')) };
    if (request.bodyBytes > endpoint.maxBodyBytes) return { ok: false, envelope: errorEnvelope(bodyTooLarge(endpoint.maxBodyBytes)) };
    enter(request, route, chosen.params);
    const guarded = async (step: () => Answer | Promise<Answer>): Promise<Answer> => {
      try {
        return await step();
      } catch (error) {
        return caught(route, request, error, warn);
      }
    };
    const envelope = async (result: Answer): Promise<BatchEnvelope> => {
      const allow = await allowedMethods(route, request);
      return envelopeOf(isRestError(result) ? result : withFields(result, request), allow ? { Allow: allow } : {});
    };
    const invalid = await guarded(async () => (await validateEndpoint(route, endpoint, request)) ?? new RestResponse());
    if (isRestError(invalid)) return { ok: false, envelope: await envelope(invalid) };
    return { ok: true, request, run: async () => envelope(await guarded(() => executeEndpoint(endpoint, request))) };
  };
}

/** The server's own batch route, POST first: clients read `endpoints[0].args.requests.maxItems` (docs/spec/current-clients.md §E.1). */
export function batchRoute(maxItems: number, validate: ValidateSubRequest): EndpointDefinition & RouteOptions {
  return {
    methods: 'POST',
    callback: (req) => serveBatch(req as DispatchRequest, validate),
    args: batchArgs(maxItems),
    responseSchema: batchResponseSchema,
    responseStatus: 207,
    invalidParamDetails: true,
    // Up to SITEWARD_BODY_LIMIT: each sub-request's body is then held to its own endpoint's limit.
    maxBodyBytes: Infinity,
  };
}
