import type { RefusalObserver } from './types.js';
import { isPlainObject } from '../core/objects.js';
import { argumentNotice, functionNotice, type DeprecationSink } from './deprecation.js';
import type { RequestOrigin } from './rest-url.js';
import type { Principal, RestRequest } from './types.js';

/** The parameter sources of a request (docs/spec/compat.md §3), each as decoded. */
export interface ParamSources {
  json: Record<string, unknown> | undefined;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  url: Record<string, string>;
  defaults: Record<string, unknown>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Until the REST layer sets the request's own (one frozen object, not one per request). */
const NO_ORIGIN: RequestOrigin = Object.freeze({ secure: false, hostname: '' });

/**
 * Copies `source`'s own keys into `merged` (see DispatchRequest.merge). Speed (issue 44): a
 * module function walking the keys with for-in, not an arrow and an `Object.keys` array per
 * source (five sources a merge, two merges a request).
 */
function layer(merged: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const value = source[key];
    if (value === null && Object.hasOwn(merged, key)) continue;
    // A `__proto__` key from a JSON body must stay data, not set the prototype; every other
    // key is a plain assignment (defineProperty is a slow runtime call, on every request).
    if (key === '__proto__') Object.defineProperty(merged, key, { value, writable: true, enumerable: true, configurable: true });
    else merged[key] = value;
  }
}

/** The request object handed to permission callbacks and callbacks. */
export class DispatchRequest implements RestRequest {
  matchedRoute = '';
  params: Record<string, unknown> = {};
  /** Scheme and host of the request, for building URLs (docs/spec/site-management-api.md §4.3 rule 3). */
  origin: RequestOrigin = NO_ORIGIN;
  /**
   * The dispatched endpoint and its permission callback's answer, reused for the Allow header
   * (two fields rather than a Map per request: only that one answer is ever kept).
   */
  permissionAsked: object | null = null;
  permissionAnswer: unknown = undefined;
  /** The endpoint whose argument checks refused the request, before its permission and callback ran; else null. */
  refusedBy: object | null = null;
  /** The size of the request's body as received, in bytes (a batch sub-request's: its body as JSON). */
  bodyBytes = 0;
  /** Why a JSON body was refused (reported at dispatch, docs/spec/compat.md §3), or false. */
  jsonError: false | 'syntax' | 'depth' | 'values' = false;
  readonly sources: ParamSources;
  /** See RestRequest.credential. */
  credential: string | null = null;
  /** See RestRequest.clientIp. */
  clientIp = '';
  /** See RestRequest.sessionToken. */
  sessionToken: string | null = null;
  /** Told when the permission check refuses this request (RestServer.onRefusal); null when nobody listens. */
  refusalObserver: RefusalObserver | null = null;
  /** Deprecation headers raised while serving this request. */
  readonly deprecations: DeprecationSink = {};

  constructor(
    readonly method: string,
    readonly route: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string,
    readonly json: unknown,
    query: Record<string, unknown>,
    bodyParams: Record<string, unknown>,
    public user: Principal,
  ) {
    const jsonParams = isPlainObject(json) ? json : undefined;
    // `params` is merged once dispatch knows the URL parameters (see RestServer.dispatch).
    this.sources = { json: jsonParams, body: bodyParams, query, url: {}, defaults: {} };
  }

  get query(): Record<string, unknown> {
    return this.sources.query;
  }

  get bodyParams(): Record<string, unknown> {
    return this.sources.body;
  }

  get urlParams(): Record<string, string> {
    return this.sources.url;
  }

  /**
   * Recomputes `params`: defaults → URL → query → form body (body methods only) → JSON, where a
   * null value does not hide a lower source's value (WordPress's `get_param` skips unset ones, so
   * `{"active": null}` falls back to the default).
   */
  merge(): void {
    const s = this.sources;
    const merged: Record<string, unknown> = {};
    layer(merged, s.defaults);
    layer(merged, s.url);
    layer(merged, s.query);
    if (BODY_METHODS.has(this.method)) layer(merged, s.body);
    if (s.json) layer(merged, s.json);
    this.params = merged;
  }

  param(name: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.params, name) ? this.params[name] : undefined;
  }

  header(name: string): string | undefined {
    const key = name.toLowerCase();
    // Own keys only: `header('constructor')` must not find Object.prototype's.
    return Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
  }

  deprecatedFunction(name: string, version: string, replacement?: string): void {
    functionNotice(this.deprecations, name, version, replacement);
  }

  deprecatedArgument(name: string, version: string, message?: string): void {
    argumentNotice(this.deprecations, name, version, message);
  }
}
