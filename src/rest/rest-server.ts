import { prepareArguments } from './arguments.js';
import { withSink } from './deprecation.js';
import { isServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../core/unavailable.js';
import { errorHeaders } from './error-response.js';
import { forbidden, isRestError, restError, storeUnavailable, type RestError } from './errors.js';
import { withNonceHint } from './nonce-hint.js';
import { permissionLabel } from './permission-label.js';
import type { RouteRow } from '../core/route-table.js';
import { describeRoute, describeRoutes } from './index-document.js';
import { openApiDocument } from './openapi.js';
import { filterFields } from './response-fields.js';
import type { JsonObject } from '../core/json.js';
import { DispatchRequest } from './rest-request.js';
import { batchAllowed, RouteRegistry, type Endpoint, type Route } from './route-registry.js';
import {
  batchArgs,
  batchResponseSchema,
  DEFAULT_MAX_BATCH_ITEMS,
  envelopeOf,
  errorEnvelope,
  serveBatch,
  type BatchEnvelope,
  type ValidatedItem,
} from './batch.js';
import type { RequestOrigin, RestUrlBuilder } from './rest-url.js';
import { JSON_MAX_VALUES } from './json-bounds.js';
import { readBody, type DecodedBody } from './request-body.js';
import { corsHeaders, fixedHeaders, NO_CACHE_HEADERS } from './response-headers.js';
import { setHeader, setHeaders, type HeaderList } from './header-list.js';
import { mayBeStamped, refusalReplayable, routeReplayable, stillReplayable, type ReplayPolicy, type ReplayStamp } from './replay.js';
import { RestResponse, type Authenticator, type EndpointDefinition, type Identity, type Principal, type RouteOptions } from './types.js';

/** What a callback returned, as the response (an error stays an error). */
function asResponse(result: unknown): RestResponse | RestError {
  if (isRestError(result)) return result;
  if (result instanceof RestResponse) return result;
  return new RestResponse(result === undefined ? null : result);
}

function addMethods(allowed: string[], endpoint: Endpoint): void {
  for (const m of endpoint.methods) if (!allowed.includes(m)) allowed.push(m);
}

/** A request as the HTTP adapter hands it over. */
export interface IncomingRestRequest {
  method: string;
  /** The REST route (`/jetpack/v4/module/all`), trailing slash already removed; '' or '/' = index. */
  route: string;
  /** PHP-style parsed query string. */
  query: Record<string, unknown>;
  /** Lower-case header names (not modified by the REST layer). */
  headers: Readonly<Record<string, string>>;
  /** The raw body (empty for none). */
  body: Buffer | string;
  origin: RequestOrigin;
  /** The client's address ('' when unknown). */
  clientIp?: string;
  /** Who is asking, when the adapter already asked (`preflight`), so credentials are checked once. */
  identity?: Identity;
}

/** What the HTTP adapter writes back. For HEAD the adapter sends the headers (Content-Length of `body`) only. */
export interface RestOutput {
  status: number;
  /** `[name, value, …]` in sending order; a later value of a name replaced the earlier one. */
  headers: HeaderList;
  /** JSON text (a Buffer when it was cached); null for a HEAD given by `_method` on another verb. */
  body: string | Buffer | null;
  /**
   * Present when these bytes may answer a byte-identical repeat of the request while
   * `replayable(replay)` holds (src/rest/replay.ts).
   */
  replay?: ReplayStamp;
}

export interface SiteSummary {
  name: string;
  description: string;
  url: string;
  home: string;
}

export interface RestServerOptions {
  urls: RestUrlBuilder;
  authenticator: Authenticator;
  /**
   * The site's name, description and URLs for the index. Made only from the configuration and
   * state the store versions (site options): the index's answer may be given again while those
   * versions last (src/rest/replay.ts).
   */
  siteSummary: () => SiteSummary | Promise<SiteSummary>;
  /** Developer warnings (`_doing_it_wrong`) and unexpected errors. */
  warn: (message: string, detail?: unknown) => void;
  /** The most sub-requests one `batch/v1` call may carry (default 25, WordPress's). */
  maxBatchItems?: number;
  /** The product's version, shown as the OpenAPI document's `info.version`. */
  productVersion?: string;
  /** When and how long answers may be given again (src/rest/replay.ts); none without it. */
  replay?: ReplayPolicy;
}

interface Dispatched {
  result: RestResponse | RestError;
  route: Route | null;
}

/** A request after authentication and dispatch, with what the response headers need of it. */
interface Authenticated {
  result: Dispatched;
  request: DispatchRequest | null;
  extraHeaders: Record<string, string>;
  loggedIn: boolean;
  nonceMissing: boolean;
  /** Who asked; null when the request was refused before anyone was known. */
  identity: Identity | null;
}

const JSONP_CALLBACK = /^[\w.]+$/;
const NONCE_ACTION = 'wp_rest';

/**
 * The generic REST layer: route registration, authentication check, dispatch, documents and
 * headers. It knows no HTTP framework and no storage: `serve()` maps an IncomingRestRequest to a
 * RestOutput.
 */
export class RestServer {
  readonly registry = new RouteRegistry();
  private readonly namespaces: string[] = [];

  constructor(private readonly options: RestServerOptions) {
    // The index and the namespace documents are made from the routes (the registry's generation
    // is in every replay stamp), the request's origin, the configuration and `siteSummary` (site
    // options): a byte-identical repeat may be answered again (src/rest/replay.ts).
    this.registry.register(
      '',
      '/',
      {
        methods: 'GET',
        callback: (req) => this.indexDocument(req as DispatchRequest),
        args: { context: { default: 'view' } },
        replayable: true,
      },
      false,
    );
    // The server's own batch route, POST first: clients read `endpoints[0].args.requests.maxItems` (docs/spec/current-clients.md §E.1).
    const batchRoute: EndpointDefinition & RouteOptions = {
      methods: 'POST',
      callback: (req) => serveBatch(req as DispatchRequest, (sub) => this.validateSubRequest(sub)),
      args: batchArgs(options.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS),
      responseSchema: batchResponseSchema,
      responseStatus: 207,
      invalidParamDetails: true,
    };
    this.registry.register('batch/v1', '/batch/v1', batchRoute, false);
    this.addNamespace('batch/v1');
  }

  /** Registers a namespace's index route once; false (with the reason given to `fail`) when it cannot be. */
  private addNamespace(ns: string, fail?: (reason: string) => void): boolean {
    if (this.namespaces.includes(ns)) return true;
    const nsRoute = RouteRegistry.fullRoute(ns, '');
    const added = this.registry.register(
      ns,
      nsRoute.replace(/\/$/, ''),
      {
        methods: 'GET',
        callback: (req) => this.namespaceDocument(req as DispatchRequest),
        args: { namespace: { default: ns }, context: { default: 'view' } },
        replayable: true,
      },
      false,
    );
    if (!added.ok) {
      fail?.(added.reason);
      return false;
    }
    this.namespaces.push(ns);
    return true;
  }

  /**
   * Registers a route (docs/spec/site-management-api.md §4.2). Empty namespace or route: nothing is registered and a
   * developer warning names the call.
   */
  registerRoute(
    namespace: string,
    route: string,
    definition: EndpointDefinition | readonly EndpointDefinition[] | (EndpointDefinition & RouteOptions),
    override = false,
    /** Who registers it (a feature's or plugin's name), for the route table. */
    owner = 'unknown',
  ): boolean {
    const call = `registerRoute(${JSON.stringify(namespace)}, ${JSON.stringify(route)})`;
    if (!namespace) {
      this.options.warn(`${call}: Routes must be namespaced with plugin or theme name and version.`);
      return false;
    }
    if (!route) {
      this.options.warn(`${call}: Route must be specified.`);
      return false;
    }
    const ns = namespace.replace(/^\/+|\/+$/g, '');
    const fullRoute = RouteRegistry.fullRoute(namespace, route);
    if (!this.addNamespace(ns, (reason) => this.options.warn(`${call}: ${reason}`))) return false;
    const result = this.registry.register(ns, fullRoute, definition, override, owner);
    if (!result.ok) {
      this.options.warn(`${call}: ${result.reason}`);
      return false;
    }
    return true;
  }

  /**
   * One row per method of every registered route, in registration order; paths under `/{prefix}`.
   * The index and namespace documents are the layer's own (`rest`).
   */
  routeTable(prefix: string): RouteRow[] {
    const rows: RouteRow[] = [];
    for (const route of this.registry.all()) {
      for (const endpoint of route.endpoints) {
        const batch = batchAllowed(route, endpoint);
        for (const method of endpoint.methods) {
          rows.push({
            method,
            path: `/${prefix}${route.pattern.source === '/' ? '/' : route.pattern.source}`,
            owner: endpoint.owner,
            permission: permissionLabel(endpoint.permissionCallback),
            batchable: batch ? 'v1' : 'no',
          });
        }
      }
    }
    return rows;
  }

  /**
   * Who is asking and whether the route exists, decided before a large body is read: only an
   * authenticated request (cookie or application password) for a registered route is trusted
   * with more than the anonymous body limit. Pass `identity` on to `serve`.
   */
  async preflight(
    route: string,
    headers: Readonly<Record<string, string>>,
    clientIp: string,
  ): Promise<{ identity: Identity; trusted: boolean }> {
    const identity = await this.options.authenticator.identify(headers, clientIp);
    const authenticated = identity.kind === 'cookie' || identity.kind === 'other';
    return { identity, trusted: authenticated && this.registry.matchAll(route === '' ? '/' : route).length > 0 };
  }

  /** Serves one request end to end, in WordPress's `serve_request` order (docs/spec/wp-rest-reference.md §5). */
  async serve(incoming: IncomingRestRequest): Promise<RestOutput> {
    // Read before anything else: state written while the answer is made then makes it stale,
    // never wrong. Only for the requests whose answers may be given again (src/rest/replay.ts).
    const version = mayBeStamped(incoming.method, incoming.body.length) ? this.options.replay?.stateVersion() : undefined;
    const headers = this.baseHeaders(incoming.origin);
    const jsonp = incoming.query._jsonp;
    if (jsonp !== undefined && (typeof jsonp !== 'string' || !JSONP_CALLBACK.test(jsonp))) {
      const err = restError('rest_callback_invalid');
      setHeader(headers, 'Content-Type', 'application/javascript; charset=UTF-8');
      return { status: 400, headers, body: JSON.stringify({ code: err.code, message: err.message }) };
    }

    const authenticated = this.authenticateAndDispatch(incoming);
    const dispatched = authenticated instanceof Promise ? await authenticated : authenticated;
    const { result, route } = dispatched.result;
    let response: RestResponse;
    if (isRestError(result)) {
      response = new RestResponse(withNonceHint(result, dispatched.nonceMissing).toJSON(), result.status);
      Object.assign(response.headers, errorHeaders(result));
    } else response = this.withFields(result, dispatched.request);

    if (route) {
      const methods = this.allowedMethods(route, dispatched.request);
      const allow = methods instanceof Promise ? await methods : methods;
      if (allow) response.headers.Allow = allow;
    }
    if (incoming.query._envelope !== undefined) {
      // An empty PHP array prints as [] (docs/spec/wp-rest-reference.md §12).
      const envelopeHeaders = Object.keys(response.headers).length > 0 ? response.headers : [];
      response = new RestResponse({ body: response.data, status: response.status, headers: envelopeHeaders }, 200);
    } else {
      setHeaders(headers, response.headers);
    }
    if (dispatched.request) setHeaders(headers, dispatched.request.deprecations);
    setHeaders(headers, dispatched.extraHeaders);
    // WordPress decides this before the nonce check: a valid login counts even when the request then runs anonymous.
    if (dispatched.loggedIn) setHeaders(headers, NO_CACHE_HEADERS);
    const origin = incoming.headers.origin;
    if (origin) setHeaders(headers, corsHeaders(origin));
    // A real HEAD request gets the GET's body, so that the adapter can send its Content-Length
    // (RFC 9110 §9.3.2) and then leave the body out; a HEAD by `_method` on another verb has none.
    if (dispatched.request?.method === 'HEAD' && incoming.method.toUpperCase() !== 'HEAD') {
      return { status: response.status, headers, body: null };
    }
    let body: string | Buffer;
    try {
      body = this.encode(response.data);
    } catch (error) {
      this.options.warn('Could not encode the response as JSON', error);
      const err = restError('rest_encode_error', { detail: (error as Error).message });
      return { status: 500, headers, body: JSON.stringify(err.toJSON()) };
    }
    if (typeof jsonp === 'string') {
      setHeader(headers, 'Content-Type', 'application/javascript; charset=UTF-8');
      body = `/**/${jsonp}(${body})`;
    }
    const replay = version === undefined ? undefined : this.replayStamp(incoming, dispatched, response.status, version);
    return replay === undefined ? { status: response.status, headers, body } : { status: response.status, headers, body, replay };
  }

  /** The stamp of an answer that may be given again (src/rest/replay.ts), or undefined. */
  private replayStamp(incoming: IncomingRestRequest, dispatched: Authenticated, status: number, version: string): ReplayStamp | undefined {
    const { request, identity } = dispatched;
    const route = dispatched.result.route;
    if (request === null || identity === null || route === null) return undefined;
    // The method as sent (no `_method` or override header).
    if (request.method !== incoming.method) return undefined;
    // Application passwords note each use (WordPress's last_used); refused credentials are guarded.
    if (identity.kind !== 'cookie' && identity.kind !== 'anonymous') return undefined;
    // A deprecation notice is also logged per use.
    if (Object.keys(request.deprecations).length > 0) return undefined;
    if (request.refusedBy !== null) {
      // A refusal of the arguments: nothing ran after the checks, so nothing was written.
      if (status < 400 || status >= 500 || !refusalReplayable(route, request.refusedBy)) return undefined;
    } else {
      // A GET's or an OPTIONS's answer from the URL and headers alone; a schema callback is asked on every OPTIONS.
      if (status !== 200 || (request.method !== 'GET' && request.method !== 'OPTIONS')) return undefined;
      if (request.method === 'OPTIONS' && route.options.schema) return undefined;
      if (!routeReplayable(route, request.method)) return undefined;
    }
    const policy = this.options.replay!;
    const until = policy.expiry(identity);
    return until > policy.now() ? { version, until, routes: this.registry.generation } : undefined;
  }

  /** Whether an answer stamped `stamp` may answer a byte-identical repeat of its request now. */
  replayable(stamp: ReplayStamp): boolean {
    return stillReplayable(this.options.replay, stamp, this.registry.generation);
  }

  /** A success filtered by the request's `_fields`, as WordPress's `rest_post_dispatch` filter does. */
  private withFields(response: RestResponse, request: DispatchRequest | null): RestResponse {
    const fields = request?.param('_fields');
    if (fields === undefined || fields === null) return response;
    return new RestResponse(filterFields(response.data, fields), response.status, response.headers);
  }

  private readonly headerTemplates = new Map<string, Readonly<HeaderList>>();

  /**
   * A fresh copy of the fixed REST headers for the request's REST root (one template per root).
   */
  private baseHeaders(origin: RequestOrigin): HeaderList {
    const root = this.options.urls('/', origin);
    let template = this.headerTemplates.get(root);
    if (!template) {
      template = Object.entries(fixedHeaders(root)).flat();
      // Roots differ only by scheme; the bound guards against unexpected growth.
      if (this.headerTemplates.size < 16) this.headerTemplates.set(root, template);
    }
    // A flat list copied with slice (see header-list.ts): no per-request object whose hidden class V8 rebuilds.
    return template.slice();
  }

  /** Encoded JSON of frozen response data, reused while the same frozen object is returned again. */
  private readonly encoded = new WeakMap<object, Buffer>();

  /**
   * Encodes response data. Handlers that return the same frozen object while their data is
   * unchanged (e.g. a cached module list) get its JSON text reused instead of re-encoded.
   */
  private encode(data: unknown): string | Buffer {
    if (data === undefined) return 'null';
    if (data === null || typeof data !== 'object') return JSON.stringify(data);
    // Speed: the cache is asked first; isFrozen checks every property (module/all has 40+).
    const cached = this.encoded.get(data);
    if (cached !== undefined) return cached;
    if (!Object.isFrozen(data)) return JSON.stringify(data);
    const bytes = Buffer.from(JSON.stringify(data), 'utf8');
    this.encoded.set(data, bytes);
    return bytes;
  }

  /**
   * The body, who asks, the nonce, then dispatch. Each step waits only when the one before
   * answered with a promise (speed: a cached login and a synchronous endpoint then cost no
   * microtask turn here).
   */
  private authenticateAndDispatch(incoming: IncomingRestRequest): Authenticated | Promise<Authenticated> {
    const decoded = readBody(incoming.method.toUpperCase(), incoming.headers, incoming.body);
    // A promise only for multipart.
    if (decoded instanceof Promise) return decoded.then((body) => this.identifyAndDispatch(incoming, body));
    return this.identifyAndDispatch(incoming, decoded);
  }

  private identifyAndDispatch(incoming: IncomingRestRequest, body: DecodedBody): Authenticated | Promise<Authenticated> {
    const asked = incoming.identity ?? this.options.authenticator.identify(incoming.headers, incoming.clientIp);
    if (asked instanceof Promise) return asked.then((identity) => this.checkAndDispatch(incoming, body, identity));
    return this.checkAndDispatch(incoming, body, asked);
  }

  private checkAndDispatch(incoming: IncomingRestRequest, body: DecodedBody, identity: Identity): Authenticated | Promise<Authenticated> {
    const extraHeaders: Record<string, string> = {};
    let method = incoming.method.toUpperCase();
    const override = incoming.query._method ?? incoming.headers['x-http-method-override'];
    if (typeof override === 'string' && override !== '') method = override.toUpperCase();
    const loggedIn = identity.kind === 'cookie' || identity.kind === 'other';
    const nonceMissing =
      identity.kind === 'cookie' && (body.form._wpnonce ?? incoming.query._wpnonce ?? incoming.headers['x-wp-nonce']) === undefined;
    const checked = this.cookieCheck(identity, incoming, body.form, extraHeaders);
    if (isRestError(checked))
      return { result: { result: checked, route: null }, request: null, extraHeaders, loggedIn, nonceMissing, identity };

    const route = incoming.route === '' ? '/' : incoming.route;
    const request = new DispatchRequest(method, route, incoming.headers, body.text, body.json, incoming.query, body.form, checked);
    request.origin = incoming.origin;
    if (identity.kind === 'other' && identity.credential !== undefined) request.credential = identity.credential;
    // Who and from where, for audit events (src/features/audit/request-source.ts).
    request.clientIp = incoming.clientIp ?? '';
    if (identity.kind === 'cookie') request.sessionToken = identity.sessionToken;
    request.jsonError = body.jsonError;
    const dispatched = this.dispatch(request);
    if (dispatched instanceof Promise)
      return dispatched.then((result) => ({ result, request, extraHeaders, loggedIn, nonceMissing, identity }));
    return { result: dispatched, request, extraHeaders, loggedIn, nonceMissing, identity };
  }

  /** Spec Part 5 rules 2, 4–7: which nonce, anonymous without one, 403 when invalid, fresh nonce when valid. */
  private cookieCheck(
    identity: Identity,
    incoming: IncomingRestRequest,
    form: Record<string, unknown>,
    extraHeaders: Record<string, string>,
  ): Principal | RestError {
    const auth = this.options.authenticator;
    // A password guard's refusal (too many failures) says when to come back: serve() adds its Retry-After.
    if (identity.kind === 'error') return identity.error;
    if (identity.kind === 'other') return identity.principal;
    // `$_REQUEST` is the query overlaid with the form body, so a form field wins.
    const param = form._wpnonce ?? incoming.query._wpnonce;
    const nonce = param !== undefined ? param : incoming.headers['x-wp-nonce'];
    if (nonce === undefined) return auth.anonymous();
    if (typeof nonce !== 'string' || auth.verifyNonce(nonce, NONCE_ACTION, identity) === false) {
      return restError('rest_cookie_invalid_nonce');
    }
    extraHeaders['X-WP-Nonce'] = auth.createNonce(NONCE_ACTION, identity);
    return identity.kind === 'cookie' ? identity.principal : auth.anonymous();
  }

  /**
   * Matches the route and runs the endpoint (docs/spec/compat.md §3). The answer comes without
   * a promise when the endpoint gives one without (speed: an async frame per layer costs a
   * promise and a microtask turn per request).
   */
  dispatch(request: DispatchRequest): Dispatched | Promise<Dispatched> {
    const path = request.route;
    if (request.method === 'OPTIONS') {
      const first = this.registry.matchAll(path)[0];
      if (!first) return { result: new RestResponse([]), route: null };
      request.matchedRoute = first.route.pattern.source;
      request.sources.url = { ...first.params };
      request.merge();
      return { result: new RestResponse(this.routeHelp(first.route, request.origin)), route: first.route };
    }

    const chosen = this.choose(path, request.method);
    if (!chosen) return { result: restError('rest_no_route'), route: null };

    const { route, endpoint } = chosen;
    request.matchedRoute = route.pattern.source;
    request.sources.url = { ...chosen.params };
    request.merge();
    let result: RestResponse | RestError | Promise<RestResponse | RestError>;
    try {
      result = this.runEndpoint(route, endpoint, request);
    } catch (error) {
      return { result: this.caught(route, request, error), route };
    }
    if (!(result instanceof Promise)) return { result, route };
    return result.then(
      (answer) => ({ result: answer, route }),
      (error: unknown) => ({ result: this.caught(route, request, error), route }),
    );
  }

  /** OPTIONS descriptions of routes without a schema callback, per route (see routeHelp). */
  private readonly helpCache = new WeakMap<Route, { generation: number; root: string; help: Readonly<Record<string, unknown>> | null }>();

  /**
   * A route's OPTIONS description. Without a schema callback it depends only on the registration
   * (and, for a route without variables, the REST root of its `self` link), so it is built once
   * and returned frozen: the encoded-JSON cache then reuses its bytes too (speed: OPTIONS is
   * answered without building or encoding the description per request). A schema callback is
   * asked on every OPTIONS, as WordPress does.
   */
  private routeHelp(route: Route, origin: RequestOrigin): Record<string, unknown> | null {
    const selfUrl = (p: string) => this.options.urls(p, origin);
    if (route.options.schema) return describeRoute(route, selfUrl, true);
    const root = route.pattern.hasVariables ? '' : selfUrl('/');
    const cached = this.helpCache.get(route);
    if (cached && cached.generation === this.registry.generation && cached.root === root) return cached.help;
    const built = describeRoute(route, selfUrl, true);
    const help = built === null ? null : Object.freeze(built);
    this.helpCache.set(route, { generation: this.registry.generation, root, help });
    return help;
  }

  /** The first endpoint, in registration order, of a route matching the path that serves the method (HEAD: GET's). */
  private choose(path: string, method: string): { route: Route; endpoint: Endpoint; params: Record<string, string> } | null {
    const checked = method === 'HEAD' ? 'GET' : method;
    for (const match of this.registry.matchAll(path)) {
      for (const endpoint of match.route.endpoints) {
        if (endpoint.methodSet.has(method) || endpoint.methodSet.has(checked))
          return { route: match.route, endpoint, params: match.params };
      }
    }
    return null;
  }

  /** What an endpoint threw, as its error response. */
  private caught(route: Route, request: DispatchRequest, error: unknown): RestError {
    // A RestError thrown (rather than returned) by a callback, permission callback or
    // validator is still that error: its status and code, as a returned one would give.
    if (isRestError(error)) return error;
    if (isServiceUnavailable(error)) return storeUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS);
    this.options.warn(`Unhandled error in ${request.method} ${route.pattern.source}`, error);
    return restError('rest_internal_error');
  }

  /** Runs a step of a batch sub-request, turning what it throws into the error response. */
  private async guarded(
    route: Route,
    request: DispatchRequest,
    step: () => RestResponse | RestError | Promise<RestResponse | RestError>,
  ): Promise<RestResponse | RestError> {
    try {
      return await step();
    } catch (error) {
      return this.caught(route, request, error);
    }
  }

  /**
   * The validation pass of one `batch/v1` sub-request (docs/spec/current-clients.md §E.2): route,
   * `allow_batch`, then the arguments exactly as a request of its own; what runs later is the
   * permission check and the handler.
   */
  private async validateSubRequest(request: DispatchRequest): Promise<ValidatedItem> {
    const chosen = this.choose(request.route, request.method);
    if (!chosen) return { ok: false, envelope: errorEnvelope(restError('rest_no_route')) };
    const { route, endpoint } = chosen;
    if (!batchAllowed(route, endpoint)) return { ok: false, envelope: errorEnvelope(restError('rest_batch_not_allowed')) };
    request.matchedRoute = route.pattern.source;
    request.sources.url = { ...chosen.params };
    request.merge();
    const envelope = async (result: RestResponse | RestError): Promise<BatchEnvelope> => {
      const allow = await this.allowedMethods(route, request);
      return envelopeOf(isRestError(result) ? result : this.withFields(result, request), allow ? { Allow: allow } : {});
    };
    const invalid = await this.guarded(
      route,
      request,
      async () => (await this.validateEndpoint(route, endpoint, request)) ?? new RestResponse(),
    );
    if (isRestError(invalid)) return { ok: false, envelope: await envelope(invalid) };
    return {
      ok: true,
      request,
      run: async () => envelope(await this.guarded(route, request, () => this.executeEndpoint(endpoint, request))),
    };
  }

  private runEndpoint(
    route: Route,
    endpoint: Endpoint,
    request: DispatchRequest,
  ): RestResponse | RestError | Promise<RestResponse | RestError> {
    const invalid = this.validateEndpoint(route, endpoint, request);
    // Here and below: a value that is not a promise is not awaited (each await costs a microtask turn per request).
    if (invalid instanceof Promise) return invalid.then((argError) => this.afterValidation(endpoint, request, argError));
    return this.afterValidation(endpoint, request, invalid);
  }

  /** The refusal of the arguments (noted for the replay stamp), or the permission check and the callback. */
  private afterValidation(
    endpoint: Endpoint,
    request: DispatchRequest,
    argError: RestError | null,
  ): RestResponse | RestError | Promise<RestResponse | RestError> {
    if (argError === null) return this.executeEndpoint(endpoint, request);
    request.refusedBy = endpoint;
    return argError;
  }

  /** The handler, the body and the arguments (docs/spec/compat.md §3): an error, or null when the request may go on. */
  private validateEndpoint(route: Route, endpoint: Endpoint, request: DispatchRequest): RestError | null | Promise<RestError | null> {
    if (typeof endpoint.callback !== 'function') return restError('rest_invalid_handler');
    if (request.jsonError === 'syntax')
      return restError('rest_invalid_json', { data: { json_error_code: 4, json_error_message: 'Syntax error' } });
    if (request.jsonError === 'depth')
      return restError('rest_invalid_json', { data: { json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' } });
    if (request.jsonError === 'values') return restError('rest_invalid_json_values', { data: { max_values: JSON_MAX_VALUES } });
    const argError = prepareArguments(endpoint, request, route.options.invalidParamDetails === true);
    return endpoint.validateCallback ? this.validateWhole(endpoint, request, argError) : argError;
  }

  /** The endpoint's own check of the whole request, once every argument passed (WordPress's handler `validate_callback`). */
  private async validateWhole(
    endpoint: Endpoint,
    request: DispatchRequest,
    argError: RestError | null | Promise<RestError | null>,
  ): Promise<RestError | null> {
    const first = await argError;
    if (first) return first;
    const verdict = await withSink(request.deprecations, () => endpoint.validateCallback!(request));
    return verdict === true ? null : verdict;
  }

  /** The permission callback, then the callback; without a promise when both answer without one. */
  private executeEndpoint(endpoint: Endpoint, request: DispatchRequest): RestResponse | RestError | Promise<RestResponse | RestError> {
    const permissionCallback = endpoint.permissionCallback;
    if (!permissionCallback) return this.runCallback(endpoint, request);
    const answer = withSink(request.deprecations, () => permissionCallback(request));
    if (answer instanceof Promise) return answer.then((permission: unknown) => this.afterPermission(endpoint, request, permission));
    return this.afterPermission(endpoint, request, answer);
  }

  private afterPermission(
    endpoint: Endpoint,
    request: DispatchRequest,
    permission: unknown,
  ): RestResponse | RestError | Promise<RestResponse | RestError> {
    request.permissionAsked = endpoint;
    request.permissionAnswer = permission;
    if (isRestError(permission)) return permission;
    if (permission === false || permission === null || permission === undefined) return forbidden(request.user.id !== 0);
    return this.runCallback(endpoint, request);
  }

  private runCallback(endpoint: Endpoint, request: DispatchRequest): RestResponse | RestError | Promise<RestResponse | RestError> {
    const callback = endpoint.callback!;
    const returned = withSink(request.deprecations, () => callback(request));
    return returned instanceof Promise ? returned.then(asResponse) : asResponse(returned);
  }

  /**
   * Spec 4.4 rule 2: the methods whose endpoint has no permission callback or one returning
   * exactly true. The callbacks are asked in order; the answer comes without a promise unless
   * one of them returns one.
   */
  private allowedMethods(route: Route, request: DispatchRequest | null): string | null | Promise<string | null> {
    const allowed: string[] = [];
    const endpoints = route.endpoints;
    for (let i = 0; i < endpoints.length; i++) {
      const answer = this.permissionAnswer(endpoints[i]!, request);
      if (answer instanceof Promise) return this.allowedMethodsFrom(route, request, i, answer, allowed);
      if (answer === true) addMethods(allowed, endpoints[i]!);
    }
    return allowed.length > 0 ? allowed.join(', ') : null;
  }

  /** The rest of `allowedMethods` once a permission callback answered with a promise. */
  private async allowedMethodsFrom(
    route: Route,
    request: DispatchRequest | null,
    from: number,
    pending: Promise<unknown>,
    allowed: string[],
  ): Promise<string | null> {
    const endpoints = route.endpoints;
    for (let i = from; i < endpoints.length; i++) {
      const answer = i === from ? await pending : await this.permissionAnswer(endpoints[i]!, request);
      if (answer === true) addMethods(allowed, endpoints[i]!);
    }
    return allowed.length > 0 ? allowed.join(', ') : null;
  }

  /** One endpoint's permission answer for the Allow header; a throwing callback counts as no. */
  private permissionAnswer(endpoint: Endpoint, request: DispatchRequest | null): unknown {
    if (!endpoint.permissionCallback) return true;
    if (!request) return false;
    // The dispatched endpoint's answer is already known; WordPress would ask again and get the same.
    if (request.permissionAsked === endpoint) return request.permissionAnswer;
    try {
      const answer = withSink(request.deprecations, () => endpoint.permissionCallback!(request));
      return answer instanceof Promise ? answer.catch(() => false) : answer;
    } catch {
      return false;
    }
  }

  /** The last index document built, reused (frozen, so its JSON is reused too) while nothing in it changed. */
  private indexCache: { generation: number; root: string; site: SiteSummary; doc: unknown } | null = null;

  /** The last OpenAPI document built, per REST root, while no route changed. */
  private openApiCache: { generation: number; root: string; name: string; doc: JsonObject } | null = null;

  /**
   * The OpenAPI 3.1 document of every route shown in the index (`GET /?_openapi=3.1`,
   * `siteward openapi`), for the REST root of `origin` (the configured one when absent).
   */
  async openApi(origin?: RequestOrigin): Promise<JsonObject> {
    const root = this.options.urls('/', origin);
    const { name } = await this.options.siteSummary();
    const cached = this.openApiCache;
    if (cached && cached.generation === this.registry.generation && cached.root === root && cached.name === name) return cached.doc;
    // Frozen, so its JSON text is encoded once (see encode()).
    const doc = Object.freeze(
      openApiDocument(this.registry.all(), {
        title: name === '' ? 'Siteward REST API' : `${name} REST API`,
        version: this.options.productVersion ?? '0.0.0',
        serverUrl: root.replace(/\/$/, ''),
      }),
    );
    this.openApiCache = { generation: this.registry.generation, root, name, doc };
    return doc;
  }

  private async indexDocument(request: DispatchRequest): Promise<unknown> {
    const asked = request.query._openapi;
    if (asked !== undefined) return asked === '3.1' ? this.openApi(request.origin) : restError('rest_openapi_version');
    const site = await this.options.siteSummary();
    const root = this.options.urls('/', request.origin);
    const cached = this.indexCache;
    // Speed: compared field by field; a key string built per request cost more than the rest of this method.
    if (
      cached !== null &&
      cached.generation === this.registry.generation &&
      cached.root === root &&
      cached.site.name === site.name &&
      cached.site.description === site.description &&
      cached.site.url === site.url &&
      cached.site.home === site.home
    ) {
      return cached.doc;
    }
    const url = (p: string) => this.options.urls(p, request.origin);
    const doc = Object.freeze({
      name: site.name,
      description: site.description,
      url: site.url,
      home: site.home,
      namespaces: [...this.namespaces],
      authentication: [],
      routes: describeRoutes(this.registry.all(), url),
      _links: { help: [{ href: 'http://v2.wp-api.org/' }] },
    });
    this.indexCache = { generation: this.registry.generation, root, site: { ...site }, doc };
    return doc;
  }

  private namespaceDocument(request: DispatchRequest): unknown {
    const ns = String(request.params.namespace ?? '');
    if (!this.namespaces.includes(ns)) return restError('rest_invalid_namespace');
    const url = (p: string) => this.options.urls(p, request.origin);
    return {
      namespace: ns,
      routes: describeRoutes(this.registry.all(), url, ns),
      _links: { up: [{ href: url('/') }] },
    };
  }
}
