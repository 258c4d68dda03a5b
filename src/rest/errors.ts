/**
 * Errors are values: a code, a message and a data member whose `status` is the HTTP status.
 * Every generic REST-layer error is built here from one catalogue, so no handler spells a
 * message inline.
 */

/** The data member of an error; `status` is the HTTP status (500 when absent). */
export type RestErrorData = ({ status?: number } & Record<string, unknown>) | null;

/**
 * An error value. Return it from a callback, permission callback or validator to answer
 * with `{"code","message","data"}` and the status in `data.status`.
 *
 * @example
 * return new RestError('not_found', 'The requested thing was not found.', { status: 404 });
 */
export class RestError {
  /** Further errors of the same response, sent in order as `additional_errors`. */
  readonly additional: RestError[] = [];

  constructor(
    readonly code: string,
    readonly message: string,
    readonly data: RestErrorData = null,
  ) {}

  /** The HTTP status: `data.status` of this (the first) error, otherwise 500. */
  get status(): number {
    const s = this.data?.status;
    return typeof s === 'number' && Number.isInteger(s) ? s : 500;
  }

  /** Adds another error to this one (WordPress's `WP_Error::add`). Returns this. */
  add(error: RestError): this {
    this.additional.push(error);
    return this;
  }

  /** The wire layout: `{code, message, data}` plus `additional_errors` when there are more. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, message: this.message, data: this.data };
    if (this.additional.length > 0) {
      out.additional_errors = this.additional.map((e) => ({ code: e.code, message: e.message, data: e.data }));
    }
    return out;
  }
}

/** True for a RestError or a structurally identical plain error object from another copy of the package. */
export function isRestError(value: unknown): value is RestError {
  return value instanceof RestError;
}

/**
 * One entry of an error catalogue: the wire `code`, the `message` (a template: `{name}` is
 * replaced by the `name` parameter) and the HTTP `status` (sent as `data.status`). Every
 * catalogue (this one, `src/auth/errors.ts`, each feature's) has this shape and is turned into
 * its constructor by {@link errorCatalogue}.
 */
export interface ErrorEntry {
  readonly code: string;
  readonly message: string;
  readonly status: number;
}

/** The `{name}` placeholders of a message template, as a union of names (never when there are none). */
export type TemplateParams<M extends string> = M extends `${string}{${infer P}}${infer Rest}` ? P | TemplateParams<Rest> : never;

/** What a caller may add to a catalogue error: more `data` members, or another status than the entry's. */
export interface ErrorOptions {
  readonly data?: Record<string, unknown>;
  readonly status?: number;
}

/** The arguments after the id: the template's parameters when it has any, then the options. */
export type ErrorArgs<M extends string> = [TemplateParams<M>] extends [never]
  ? [options?: ErrorOptions]
  : [params: Readonly<Record<TemplateParams<M>, string | number>>, options?: ErrorOptions];

/** The constructor of a catalogue: id → RestError with the entry's code, message and status. */
export type ErrorFactory<C extends Readonly<Record<string, ErrorEntry>>> = (<Id extends keyof C & string>(
  id: Id,
  ...args: ErrorArgs<C[Id]['message']>
) => RestError) & {
  /** The catalogue itself, for the id types below. */
  readonly entries: C;
};

/** The ids of a catalogue, from its constructor: `CatalogueId<typeof pluginError>`. */
export type CatalogueId<F extends { readonly entries: object }> = keyof F['entries'] & string;

/** The ids of a catalogue whose message has no `{parameter}`. */
export type FixedErrorId<F extends { readonly entries: Readonly<Record<string, ErrorEntry>> }> = {
  [Id in CatalogueId<F>]: F['entries'][Id]['message'] extends `${string}{${string}` ? never : Id;
}[CatalogueId<F>];

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Turns a catalogue into its constructor. `escape` is applied to every parameter value (the
 * jetpack catalogue escapes them as WordPress's `esc_html` does); the template itself is sent
 * as written.
 *
 * @example
 * const backupErrors = errorCatalogue({
 *   backup_not_found: { code: 'not_found', message: 'No backup {id}.', status: 404 },
 *   backups_off: { code: 'backups_off', message: 'Backups are not configured.', status: 409 },
 * });
 * backupErrors('backup_not_found', { id: '2026-01-01' }) // 404 not_found "No backup 2026-01-01."
 * backupErrors('backups_off', { data: { hint: 'set SITEWARD_BACKUP_DIR' } }) // data: { status: 409, hint }
 */
export function errorCatalogue<const C extends Readonly<Record<string, ErrorEntry>>>(
  entries: C,
  escape: (text: string) => string = String,
): ErrorFactory<C> {
  // Speed: each template is split once into literal text and parameter names (even and odd
  // places), instead of a regular-expression replace with a callback per error (the 400s).
  const parts = new Map<string, readonly string[] | null>();
  const partsOf = (message: string): readonly string[] | null => {
    let split = parts.get(message);
    if (split === undefined) {
      const pieces = message.split(PLACEHOLDER);
      split = pieces.length > 1 ? pieces : null;
      parts.set(message, split);
    }
    return split;
  };
  const build = <Id extends keyof C & string>(id: Id, ...args: ErrorArgs<C[Id]['message']>): RestError => {
    const entry = entries[id]!;
    const split = partsOf(entry.message);
    // Arguments are placed by the `{` alone, as the types place them (TemplateParams).
    const templated = split !== null || entry.message.includes('{');
    const params = (templated ? args[0] : undefined) as Readonly<Record<string, string | number>> | undefined;
    const options = (templated ? args[1] : args[0]) as ErrorOptions | undefined;
    let message = split && params ? '' : entry.message;
    if (split && params) for (let i = 0; i < split.length; i++) message += i % 2 === 0 ? split[i] : escape(String(params[split[i]!]));
    return new RestError(entry.code, message, { status: options?.status ?? entry.status, ...options?.data });
  };
  return Object.assign(build, { entries }) as ErrorFactory<C>;
}

/**
 * The generic catalogue (docs/spec/compat.md §2) of the REST layer and its HTTP adapter: builds
 * an error with its fixed message and status. Ids are unique; a wire code may repeat (a message
 * variant of a code another id sends too).
 *
 * @example
 * restError('rest_no_route') // 404 "No route was found matching the URL and request method"
 * restError('rest_bad_request', { status: 408 })
 * restError('rest_encode_error', { detail: 'Do not know how to serialize a BigInt' }) // 500
 */
export const restError = errorCatalogue({
  rest_no_route: { code: 'rest_no_route', message: 'No route was found matching the URL and request method', status: 404 },
  rest_invalid_handler: { code: 'rest_invalid_handler', message: 'The handler for the route is invalid', status: 500 },
  rest_forbidden: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', status: 403 },
  rest_invalid_json: { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', status: 400 },
  rest_invalid_json_values: { code: 'rest_invalid_json', message: 'The JSON body has more values than a request may carry.', status: 400 },
  rest_invalid_namespace: { code: 'rest_invalid_namespace', message: 'The specified namespace could not be found.', status: 404 },
  rest_cookie_invalid_nonce: { code: 'rest_cookie_invalid_nonce', message: 'Cookie nonce is invalid', status: 403 },
  rest_callback_invalid: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.', status: 400 },
  rest_invalid_date: { code: 'rest_invalid_date', message: 'Invalid date.', status: 400 },
  rest_invalid_email: { code: 'rest_invalid_email', message: 'Invalid email address.', status: 400 },
  rest_body_too_large: { code: 'rest_body_too_large', message: 'The request body is too large.', status: 413 },
  rest_body_too_large_for_route: {
    code: 'rest_body_too_large',
    message: 'The request body is larger than this route takes ({max_bytes} bytes).',
    status: 413,
  },
  rest_not_found: { code: 'rest_not_found', message: 'Not found.', status: 404 },
  rest_internal_error: { code: 'rest_internal_error', message: 'The server could not complete the request.', status: 500 },
  // batch/v1 sub-requests (docs/spec/current-clients.md §E.2).
  rest_openapi_version: {
    code: 'rest_openapi_version',
    message: 'The API description is available as OpenAPI 3.1 only: ask for ?_openapi=3.1.',
    status: 400,
  },
  rest_batch_not_allowed: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', status: 400 },
  parse_path_failed: { code: 'parse_path_failed', message: 'Could not parse the path.', status: 400 },
  rest_missing_callback_param: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): {names}', status: 400 },
  rest_invalid_param: { code: 'rest_invalid_param', message: 'Invalid parameter(s): {names}', status: 400 },
  /** One validator's answer; the argument layer files it under the argument's name. */
  rest_invalid_param_detail: { code: 'rest_invalid_param', message: '{detail}', status: 400 },
  /** A response that could not be encoded as JSON; the message is the encoder's. */
  rest_encode_error: { code: 'rest_encode_error', message: '{detail}', status: 500 },
  // The HTTP adapter's answers before the REST layer runs (same wire layout).
  rest_bad_request: { code: 'rest_bad_request', message: 'The request could not be parsed.', status: 400 },
  /** A request the HTTP framework refused; the message is the framework's own. */
  rest_bad_request_detail: { code: 'rest_bad_request', message: '{detail}', status: 400 },
  rest_bad_request_url: { code: 'rest_bad_request', message: 'The request URL could not be parsed.', status: 400 },
  rest_headers_too_large: { code: 'rest_headers_too_large', message: 'The request headers are too large.', status: 431 },
  xmlrpc_not_supported: { code: 'xmlrpc_not_supported', message: 'XML-RPC is not supported; use the REST API.', status: 404 },
  /** The process is shutting down; another process (or this one restarted) will answer. */
  siteward_shutting_down: { code: 'siteward_shutting_down', message: 'The server is restarting. Please try again shortly.', status: 503 },
  siteward_cross_site_form: {
    code: 'siteward_cross_site_form',
    message: 'This form was not sent from a page of this site. Reload the page and send it again.',
    status: 403,
  },
  /** The store (database) is down or not answering in time; the request did not take effect. */
  siteward_store_unavailable: {
    code: 'siteward_store_unavailable',
    message: 'The site is temporarily unable to reach its database. Please try again shortly.',
    status: 503,
  },
});

/** An id of the REST layer's catalogue. */
export type CatalogueCode = CatalogueId<typeof restError>;

/** `rest_forbidden` with 401 when nobody is logged in and 403 otherwise (docs/spec/site-management-api.md §5 rule 8). */
export function forbidden(loggedIn: boolean): RestError {
  return restError('rest_forbidden', { status: authorizationRequiredStatus(loggedIn) });
}

/** 401 when not logged in, 403 when logged in (docs/spec/site-management-api.md §5 rule 8). */
export function authorizationRequiredStatus(loggedIn: boolean): 401 | 403 {
  return loggedIn ? 403 : 401;
}

/** `rest_missing_callback_param`: `data.params` is the list of missing names. */
export function missingParams(names: string[]): RestError {
  return restError('rest_missing_callback_param', { names: names.join(', ') }, { data: { params: names } });
}

/**
 * 400 `rest_invalid_param`, the one factory of that code. Given argument name → message, the
 * response of a request (`Invalid parameter(s): a, b`, with `data.params` = that map); given a
 * message, one validator's answer, which the argument layer files under the argument's name.
 *
 * @example
 * invalidParams({ count: 'count is not of type integer.' }) // "Invalid parameter(s): count"
 * invalidParams('count is not of type integer.') // a validateCallback's answer
 * invalidParams({ count: '…' }, { count: { code: 'rest_invalid_param', message: '…', data: { status: 400 } } }) // with WordPress 5.7+'s details
 */
export function invalidParams(detail: Record<string, string> | string, details?: Readonly<Record<string, ParamDetail>>): RestError {
  if (typeof detail === 'string') return restError('rest_invalid_param_detail', { detail });
  const data: Record<string, unknown> = { params: detail };
  // WordPress 5.7+: each argument's own error; an empty PHP array prints as [].
  if (details !== undefined) data.details = Object.keys(details).length > 0 ? details : [];
  return restError('rest_invalid_param', { names: Object.keys(detail).join(', ') }, { data });
}

/** One argument's error in `rest_invalid_param`'s `data.details` (WordPress 5.7+). */
export interface ParamDetail {
  readonly code: string;
  readonly message: string;
  readonly data: RestErrorData;
}

/** `siteward_store_unavailable` (503) with `data.retry_after`, which `errorResponse()` sends as `Retry-After`. */
export function storeUnavailable(retryAfterSeconds: number): RestError {
  return restError('siteward_store_unavailable', { data: { retry_after: retryAfterSeconds } });
}

/** `siteward_shutting_down` (503), asking the client to come back in a second (`data.retry_after`). */
export function shuttingDown(): RestError {
  return restError('siteward_shutting_down', { data: { retry_after: 1 } });
}

/**
 * The `Retry-After` seconds an error asks for (`data.retry_after`, rounded up, at least 1), or
 * null. The one reading of it: `errorResponse()` and the REST server both call this.
 */
export function retryAfterOf(error: RestError): number | null {
  const seconds = error.data?.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : null;
}

/** `data.hint` of a 401/403 to a request that carried a login cookie but no nonce. */
export const COOKIE_WITHOUT_NONCE_HINT =
  'A login cookie was sent without a nonce, so the request ran as a logged-out visitor. Send the nonce in the X-WP-Nonce header (or a _wpnonce parameter): the JSON login answer carries one, and GET /wp-admin/admin-ajax.php?action=rest-nonce returns a fresh one.';

/** 413 for a body over what the endpoint takes, with its limit in `data.max_bytes`. */
export function bodyTooLarge(maxBytes: number): RestError {
  return restError('rest_body_too_large_for_route', { max_bytes: maxBytes }, { data: { max_bytes: maxBytes } });
}
