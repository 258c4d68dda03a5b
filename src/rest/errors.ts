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

/** The generic catalogue (compat.md §2). */
const catalogue = {
  rest_no_route: ['No route was found matching the URL and request method', 404],
  rest_invalid_handler: ['The handler for the route is invalid', 500],
  rest_forbidden: ['Sorry, you are not allowed to do that.', 403],
  rest_invalid_json: ['Invalid JSON body passed.', 400],
  rest_invalid_namespace: ['The specified namespace could not be found.', 404],
  rest_cookie_invalid_nonce: ['Cookie nonce is invalid', 403],
  rest_callback_invalid: ['Invalid JSONP callback function.', 400],
  rest_invalid_date: ['Invalid date.', 400],
  rest_invalid_email: ['Invalid email address.', 400],
  rest_body_too_large: ['The request body is too large.', 413],
  rest_not_found: ['Not found.', 404],
  rest_internal_error: ['The server could not complete the request.', 500],
} as const satisfies Record<string, readonly [string, number]>;

export type CatalogueCode = keyof typeof catalogue;

/**
 * Builds a catalogue error with its fixed message and status; `extra` is merged into `data`.
 *
 * @example
 * restError('rest_no_route') // 404 "No route was found matching the URL and request method"
 */
export function restError(code: CatalogueCode, extra?: Record<string, unknown>, status?: number): RestError {
  const [message, defaultStatus] = catalogue[code];
  return new RestError(code, message, { status: status ?? defaultStatus, ...extra });
}

/** `rest_forbidden` with 401 when nobody is logged in and 403 otherwise (spec Part 5 rule 8). */
export function forbidden(loggedIn: boolean): RestError {
  return restError('rest_forbidden', undefined, authorizationRequiredStatus(loggedIn));
}

/** 401 when not logged in, 403 when logged in (spec Part 5 rule 8). */
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

/** `rest_invalid_param`: `data.params` maps each bad argument to its message. */
export function invalidParams(params: Record<string, string>): RestError {
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    status: 400,
    params,
  });
}
