/**
 * `api.deprecatedFunction/Argument` after an `await`, for third-party plugin code only.
 *
 * The REST layer tells the module-level deprecation functions which request is running only
 * for the synchronous part of each callback (src/rest/deprecation.ts): that is free. To reach
 * the request after an `await` the code must run inside an AsyncLocalStorage context, and on
 * Node 20 an enabled AsyncLocalStorage installs promise hooks for the whole process, which cost
 * every request about 14 % of its CPU (docs/performance.md). So:
 *
 * - only callbacks registered through `withRequestContext(api)` (third-party plugins) run inside
 *   the store; built-in features keep the plain API and never enter it;
 * - the store is disabled again as soon as no tracked callback is in flight, which removes the
 *   promise hooks, so a process that once served a plugin route does not pay for it forever
 *   (measured: docs/plugins.md "Deprecation notices" and bench/request-context.js).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  deprecatedArgument as syncDeprecatedArgument,
  deprecatedFunction as syncDeprecatedFunction,
  hasCurrentSink,
} from '../rest/deprecation.js';
import type { FieldDefinition } from '../rest/field-registry.js';
import type { ArgDefinition, EndpointDefinition, RestRequest } from '../rest/types.js';
import type { RouteDefinition, SitewardApi } from './api.js';

const storage = new AsyncLocalStorage<RestRequest>();
/** Tracked callbacks started and not yet settled; the store is disabled when this returns to 0. */
let inFlight = 0;

function settled(): void {
  inFlight -= 1;
  // No tracked callback left: drop the promise hooks (Node 20) until the next one starts.
  if (inFlight === 0) storage.disable();
}

/** Runs `fn` with `request` as the async context's request, keeping the context until its promise settles. */
function runFor<R>(request: RestRequest | null, fn: () => R): R {
  if (request === null) return fn();
  inFlight += 1;
  let result: R;
  try {
    result = storage.run(request, fn);
  } catch (error) {
    settled();
    throw error;
  }
  if (result instanceof Promise) result.then(settled, settled);
  else settled();
  return result;
}

function trackArg(arg: ArgDefinition): ArgDefinition {
  const { validateCallback: validate, sanitizeCallback: sanitize } = arg;
  return {
    ...arg,
    ...(typeof validate === 'function'
      ? { validateCallback: (value, request, name) => runFor(request, () => validate(value, request, name)) }
      : {}),
    ...(typeof sanitize === 'function'
      ? { sanitizeCallback: (value, request, name) => runFor(request, () => sanitize(value, request, name)) }
      : {}),
  } satisfies ArgDefinition;
}

function trackEndpoint(endpoint: EndpointDefinition): EndpointDefinition {
  const { callback, permissionCallback, args } = endpoint;
  const tracked: EndpointDefinition = { ...endpoint };
  // A missing or non-function callback stays as it is: the REST layer answers rest_invalid_handler.
  if (typeof callback === 'function') tracked.callback = (request) => runFor(request, () => callback(request));
  if (typeof permissionCallback === 'function')
    tracked.permissionCallback = (request) => runFor(request, () => permissionCallback(request));
  if (args) tracked.args = Object.fromEntries(Object.entries(args).map(([name, arg]) => [name, trackArg(arg)]));
  return tracked;
}

/** A route definition whose callbacks run inside the request's async context (route-level options kept). */
export function trackRouteDefinition(definition: RouteDefinition): RouteDefinition {
  if (!Array.isArray(definition)) return trackEndpoint(definition as EndpointDefinition);
  const list = definition as readonly EndpointDefinition[] & { schema?: unknown };
  const tracked = list.map(trackEndpoint) as EndpointDefinition[] & { schema?: unknown };
  if (list.schema !== undefined) tracked.schema = list.schema;
  return tracked as RouteDefinition;
}

/** A field whose getter and updater run inside the request's async context. */
export function trackField(definition: FieldDefinition): FieldDefinition {
  const { get, update } = definition;
  return {
    ...definition,
    ...(get ? { get: (object, attribute, request, objectType) => runFor(request, () => get(object, attribute, request, objectType)) } : {}),
    ...(update
      ? {
          update: (value, object, attribute, request, objectType) =>
            runFor(request, () => update(value, object, attribute, request, objectType)),
        }
      : {}),
  } satisfies FieldDefinition;
}

/**
 * Reports a deprecated function for the request whose endpoint code is running: during the
 * synchronous part of any callback, and after `await`s in callbacks registered through
 * `withRequestContext`. Elsewhere it does nothing.
 */
export function deprecatedFunction(name: string, version: string, replacement?: string): void {
  if (hasCurrentSink()) return syncDeprecatedFunction(name, version, replacement);
  storage.getStore()?.deprecatedFunction(name, version, replacement);
}

/** Reports a deprecated argument; reaches the request as `deprecatedFunction` does. */
export function deprecatedArgument(name: string, version: string, message?: string): void {
  if (hasCurrentSink()) return syncDeprecatedArgument(name, version, message);
  storage.getStore()?.deprecatedArgument(name, version, message);
}

/**
 * The plugin API a third-party plugin gets: the same API, but its routes' callbacks (endpoint,
 * permission, argument validators and sanitizers) and its fields' getters and updaters run in
 * the request's async context, so `api.deprecatedFunction/Argument` keep working after `await`.
 *
 * @example
 * await runPlugin(entry, register, withRequestContext(createPluginApi(entry, deps)));
 */
export function withRequestContext<T extends SitewardApi>(api: T): T {
  return {
    ...api,
    registerRoute: (namespace: string, route: string, definition: RouteDefinition, override?: boolean) =>
      api.registerRoute(namespace, route, trackRouteDefinition(definition), override),
    registerField: (objectType: string | readonly string[], attribute: string, definition: FieldDefinition) =>
      api.registerField(objectType, attribute, trackField(definition)),
    deprecatedFunction,
    deprecatedArgument,
  };
}

/** Tracked callbacks in flight (tests: the store must be disabled again once they settle). */
export function trackedInFlight(): number {
  return inFlight;
}
