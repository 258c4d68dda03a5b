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
 * The generic catalogue (docs/spec/compat.md §2) of the REST layer and its HTTP adapter: id → [message,
 * status], or [message, status, wire code] for a message variant of a code another id sends too.
 */
const catalogue = {
  rest_no_route: ['No route was found matching the URL and request method', 404],
  rest_invalid_handler: ['The handler for the route is invalid', 500],
  rest_forbidden: ['Sorry, you are not allowed to do that.', 403],
  rest_invalid_json: ['Invalid JSON body passed.', 400],
  rest_invalid_json_values: ['The JSON body has more values than a request may carry.', 400, 'rest_invalid_json'],
  rest_invalid_namespace: ['The specified namespace could not be found.', 404],
  rest_cookie_invalid_nonce: ['Cookie nonce is invalid', 403],
  rest_callback_invalid: ['Invalid JSONP callback function.', 400],
  rest_invalid_date: ['Invalid date.', 400],
  rest_invalid_email: ['Invalid email address.', 400],
  rest_body_too_large: ['The request body is too large.', 413],
  rest_not_found: ['Not found.', 404],
  rest_internal_error: ['The server could not complete the request.', 500],
  // batch/v1 sub-requests (docs/spec/current-clients.md §E.2).
  rest_batch_not_allowed: ['The requested route does not support batch requests.', 400],
  parse_path_failed: ['Could not parse the path.', 400],
  // The HTTP adapter's answers before the REST layer runs (same wire layout).
  rest_bad_request: ['The request could not be parsed.', 400],
  rest_bad_request_url: ['The request URL could not be parsed.', 400, 'rest_bad_request'],
  rest_headers_too_large: ['The request headers are too large.', 431],
  xmlrpc_not_supported: ['XML-RPC is not supported; use the REST API.', 404],
  // The store (database) is down or not answering in time; the request did not take effect.
  // The process is shutting down; another process (or this one restarted) will answer.
  siteward_shutting_down: ['The server is restarting. Please try again shortly.', 503],
  siteward_cross_site_form: ['This form was not sent from a page of this site. Reload the page and send it again.', 403],
  siteward_store_unavailable: ['The site is temporarily unable to reach its database. Please try again shortly.', 503],
} as const satisfies Record<string, readonly [string, number] | readonly [string, number, string]>;

/** A catalogue id: the wire code itself, or (for a message variant) an id naming its code. */
export type CatalogueCode = keyof typeof catalogue;

/**
 * Builds a catalogue error with its fixed message and status; `extra` is merged into `data`.
 *
 * @example
 * restError('rest_no_route') // 404 "No route was found matching the URL and request method"
 */
export function restError(id: CatalogueCode, extra?: Record<string, unknown>, status?: number): RestError {
  const entry: readonly [string, number, string?] = catalogue[id];
  return new RestError(entry[2] ?? id, entry[0], { status: status ?? entry[1], ...extra });
}

/** Codes whose message is a detail known only when it happens: code → default status. */
const detailed = {
  /** A request the HTTP framework refused; the message is the framework's own. */
  rest_bad_request: 400,
  /** A response that could not be encoded as JSON; the message is the encoder's. */
  rest_encode_error: 500,
} as const;

/**
 * Builds an error of the parameterised catalogue entries: a fixed code with a message that names the detail.
 *
 * @example
 * restErrorWithDetail('rest_encode_error', 'Do not know how to serialize a BigInt') // 500
 */
export function restErrorWithDetail(code: keyof typeof detailed, detail: string, status?: number): RestError {
  return new RestError(code, detail, { status: status ?? detailed[code] });
}

/** `rest_forbidden` with 401 when nobody is logged in and 403 otherwise (docs/spec/site-management-api.md §5 rule 8). */
export function forbidden(loggedIn: boolean): RestError {
  return restError('rest_forbidden', undefined, authorizationRequiredStatus(loggedIn));
}

/** 401 when not logged in, 403 when logged in (docs/spec/site-management-api.md §5 rule 8). */
export function authorizationRequiredStatus(loggedIn: boolean): 401 | 403 {
  return loggedIn ? 403 : 401;
}

/** `rest_missing_callback_param`: `data.params` is the list of missing names. */
export function missingParams(names: string[]): RestError {
  return new RestError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    status: 400,
    params: names,
  });
}

/**
 * 400 `rest_invalid_param`, the one factory of that code. Given argument name → message, the
 * response of a request (`Invalid parameter(s): a, b`, with `data.params` = that map); given a
 * message, one validator's answer, which the argument layer files under the argument's name.
 *
 * @example
 * invalidParams({ count: 'count is not of type integer.' }) // "Invalid parameter(s): count"
 * invalidParams('count is not of type integer.') // a validateCallback's answer
 */
export function invalidParams(detail: Record<string, string> | string): RestError {
  if (typeof detail === 'string') return new RestError('rest_invalid_param', detail, { status: 400 });
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(detail).join(', ')}`, {
    status: 400,
    params: detail,
  });
}

/** `siteward_store_unavailable` (503) with `data.retry_after`, which the adapters send as `Retry-After`. */
export function storeUnavailable(retryAfterSeconds: number): RestError {
  return restError('siteward_store_unavailable', { retry_after: retryAfterSeconds });
}

/** The `Retry-After` seconds an error asks for (`data.retry_after`), or null. */
export function retryAfterOf(error: RestError): number | null {
  const seconds = error.data?.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : null;
}

/** `data.hint` of a 401/403 to a request that carried a login cookie but no nonce. */
export const COOKIE_WITHOUT_NONCE_HINT =
  'A login cookie was sent without a nonce, so the request ran as a logged-out visitor. Send the nonce in the X-WP-Nonce header (or a _wpnonce parameter): the JSON login answer carries one, and GET /wp-admin/admin-ajax.php?action=rest-nonce returns a fresh one.';
