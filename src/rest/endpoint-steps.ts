/**
 * The steps one endpoint runs, in WordPress's `respond_to_request` order (docs/spec/compat.md §3):
 * the handler, the body and the arguments, the endpoint's own check of the whole request, the
 * permission callback, then the callback. Each step answers without a promise when it can (see
 * step.ts); whatever a step throws becomes the error response through {@link caught}.
 */
import { prepareArguments } from './arguments.js';
import { withSink } from './deprecation.js';
import { forbidden, isRestError, restError, storeUnavailable, type RestError } from './errors.js';
import { isServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/unavailable.js';
import { JSON_MAX_VALUES } from './json-bounds.js';
import type { DispatchRequest } from './rest-request.js';
import type { Endpoint, Route, RouteRegistry } from './route-registry.js';
import { andThen } from './step.js';
import { RestResponse } from './types.js';

/** What an endpoint answers: a response or an error. */
export type Answer = RestResponse | RestError;

/** The first endpoint, in registration order, of a route matching the path that serves the method (HEAD: GET's). */
export function choose(
  registry: RouteRegistry,
  path: string,
  method: string,
): { route: Route; endpoint: Endpoint; params: Record<string, string> } | null {
  const checked = method === 'HEAD' ? 'GET' : method;
  for (const match of registry.matchAll(path)) {
    for (const endpoint of match.route.endpoints) {
      if (endpoint.methodSet.has(method) || endpoint.methodSet.has(checked)) return { route: match.route, endpoint, params: match.params };
    }
  }
  return null;
}

/** Notes the matched route and its URL parameters on the request. */
export function enter(request: DispatchRequest, route: Route, params: Record<string, string>): void {
  request.matchedRoute = route.pattern.source;
  // A copy: the registry shares its params objects between calls.
  request.sources.url = { ...params };
  request.merge();
}

/** What an endpoint threw, as its error response. */
export function caught(
  route: Route,
  request: DispatchRequest,
  error: unknown,
  warn: (message: string, detail?: unknown) => void,
): RestError {
  // A RestError thrown (rather than returned) by a callback, permission callback or
  // validator is still that error: its status and code, as a returned one would give.
  if (isRestError(error)) return error;
  if (isServiceUnavailable(error)) return storeUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS);
  warn(`Unhandled error in ${request.method} ${route.pattern.source}`, error);
  return restError('rest_internal_error');
}

/** Validation, then (when it passed) the permission check and the callback. */
export function runEndpoint(route: Route, endpoint: Endpoint, request: DispatchRequest): Answer | Promise<Answer> {
  return andThen(validateEndpoint(route, endpoint, request), (argError) => {
    if (argError === null) return executeEndpoint(endpoint, request);
    // Noted for the replay stamp: nothing after the checks ran.
    request.refusedBy = endpoint;
    return argError;
  });
}

/** The handler, the body and the arguments (docs/spec/compat.md §3): an error, or null when the request may go on. */
export function validateEndpoint(route: Route, endpoint: Endpoint, request: DispatchRequest): RestError | null | Promise<RestError | null> {
  if (typeof endpoint.callback !== 'function') return restError('rest_invalid_handler');
  if (request.jsonError === 'syntax')
    return restError('rest_invalid_json', { data: { json_error_code: 4, json_error_message: 'Syntax error' } });
  if (request.jsonError === 'depth')
    return restError('rest_invalid_json', { data: { json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' } });
  if (request.jsonError === 'values') return restError('rest_invalid_json_values', { data: { max_values: JSON_MAX_VALUES } });
  const argError = prepareArguments(endpoint, request, route.options.invalidParamDetails === true);
  const validateCallback = endpoint.validateCallback;
  if (!validateCallback) return argError;
  // The endpoint's own check of the whole request, once every argument passed (WordPress's handler `validate_callback`).
  return andThen(argError, (first) => {
    if (first) return first;
    return andThen(
      withSink(request.deprecations, () => validateCallback(request)),
      (verdict) => (verdict === true ? null : verdict),
    );
  });
}

/** The permission callback, then the callback. */
export function executeEndpoint(endpoint: Endpoint, request: DispatchRequest): Answer | Promise<Answer> {
  const permissionCallback = endpoint.permissionCallback;
  if (!permissionCallback) return runCallback(endpoint, request);
  return andThen(
    withSink(request.deprecations, () => permissionCallback(request)),
    (permission: unknown) => {
      // Kept for the Allow header: the dispatched endpoint is not asked twice (allow.ts).
      request.permissionAsked = endpoint;
      request.permissionAnswer = permission;
      if (isRestError(permission)) return refused(request, permission);
      if (permission === false || permission === null || permission === undefined)
        return refused(request, forbidden(request.user.id !== 0));
      return runCallback(endpoint, request);
    },
  );
}

/** The permission check's refusal, told to the observer first. */
function refused(request: DispatchRequest, error: RestError): RestError {
  request.refusalObserver?.(request, error);
  return error;
}

function runCallback(endpoint: Endpoint, request: DispatchRequest): Answer | Promise<Answer> {
  const callback = endpoint.callback!;
  return andThen(
    withSink(request.deprecations, () => callback(request)),
    asResponse,
  );
}

/** What a callback returned, as the response (an error stays an error). */
function asResponse(result: unknown): Answer {
  if (isRestError(result)) return result;
  if (result instanceof RestResponse) return result;
  return new RestResponse(result === undefined ? null : result);
}
