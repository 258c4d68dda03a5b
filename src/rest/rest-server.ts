import { allowedMethods } from './allow.js';
import { admit, type Admission } from './authenticate.js';
import { batchRoute, DEFAULT_MAX_BATCH_ITEMS, subRequestValidator } from './batch.js';
import { RestDocuments, type SiteSummary } from './documents.js';
import { caught, choose, enter, runEndpoint, type Answer } from './endpoint-steps.js';
import { bodyTooLarge, isRestError, restError } from './errors.js';
import { setHeaders } from './header-list.js';
import type { IncomingRestRequest, RestOutput } from './incoming.js';
import { JsonEncoder } from './json-encoder.js';
import { refusedCallback, responseOf, writeOutput } from './write-output.js';
import { mayBeStamped, replayStamp, stillReplayable, type ReplayPolicy, type ReplayStamp } from './replay.js';
import { readBody, type DecodedBody } from './request-body.js';
import { corsHeaders, HeaderTemplates, NO_CACHE_HEADERS } from './response-headers.js';
import { DispatchRequest } from './rest-request.js';
import type { RestUrlBuilder } from './rest-url.js';
import { RefusalObservers } from './refusal-observers.js';
import { RouteRegistry, type Route } from './route-registry.js';
import { andThen, attempt } from './step.js';
import {
  RestResponse,
  type Authenticator,
  type EndpointDefinition,
  type Identity,
  type RefusalObserver,
  type RouteOptions,
} from './types.js';
import type { RouteRow } from '../core/route-table.js';

export type { IncomingRestRequest, RestOutput } from './incoming.js';
export type { SiteSummary } from './documents.js';

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
  result: Answer;
  route: Route | null;
}

/** A request after authentication, dispatch and Allow, with what the response headers need of it. */
interface Handled {
  readonly answer: Answer;
  readonly route: Route | null;
  readonly request: DispatchRequest | null;
  readonly allow: string | null;
  readonly admission: Admission;
  /** Who asked; null when the request was refused before anyone was known. */
  readonly identity: Identity | null;
}

/**
 * The generic REST layer: route registration, authentication check, dispatch, documents and
 * headers. It knows no HTTP framework and no storage: `serve()` maps an IncomingRestRequest to a
 * RestOutput.
 */
export class RestServer {
  readonly registry = new RouteRegistry();
  private readonly documents: RestDocuments;
  private readonly headerTemplates = new HeaderTemplates();
  private readonly json = new JsonEncoder();
  private readonly refusals: RefusalObservers;

  /** Adds an observer of permission refusals (RefusalObserver): e.g. the audit log's `denied` events. */
  onRefusal(observer: RefusalObserver): void {
    this.refusals.add(observer);
  }

  constructor(private readonly options: RestServerOptions) {
    this.refusals = new RefusalObservers(options.warn);
    this.documents = new RestDocuments({ registry: this.registry, ...options });
    // The index and the namespace documents are made from the routes (the registry's generation
    // is in every replay stamp), the request's origin, the configuration and `siteSummary` (site
    // options): a byte-identical repeat may be answered again (src/rest/replay.ts).
    this.registry.register(
      '',
      '/',
      {
        methods: 'GET',
        callback: (req) => this.documents.index(req as DispatchRequest),
        args: { context: { default: 'view' } },
        replayable: true,
      },
      false,
    );
    // The server's own batch route, POST first: clients read `endpoints[0].args.requests.maxItems` (docs/spec/current-clients.md §E.1).
    const batch = batchRoute(options.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS, subRequestValidator(this.registry, options.warn));
    this.registry.register('batch/v1', '/batch/v1', batch, false);
    this.addNamespace('batch/v1');
  }

  /** Registers a namespace's index route once; false (with the reason given to `fail`) when it cannot be. */
  private addNamespace(ns: string, fail?: (reason: string) => void): boolean {
    if (this.documents.namespaces.includes(ns)) return true;
    const nsRoute = RouteRegistry.fullRoute(ns, '');
    const added = this.registry.register(
      ns,
      nsRoute.replace(/\/$/, ''),
      {
        methods: 'GET',
        callback: (req) => this.documents.namespace(req as DispatchRequest),
        args: { namespace: { default: ns }, context: { default: 'view' } },
        replayable: true,
      },
      false,
    );
    if (!added.ok) {
      fail?.(added.reason);
      return false;
    }
    this.documents.namespaces.push(ns);
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

  /** One row per method of every registered route, in registration order; paths under `/{prefix}` (documents.ts). */
  routeTable(prefix: string): RouteRow[] {
    return this.documents.routeTable(prefix);
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
    method: string | null = null,
  ): Promise<{ identity: Identity; trusted: boolean; routeLimit: number }> {
    const identity = await this.options.authenticator.identify(headers, clientIp);
    const authenticated = identity.kind === 'cookie' || identity.kind === 'other';
    const matches = this.registry.matchAll(route === '' ? '/' : route);
    // What the path's endpoints for the method take (any method's when it may still be overridden
    // by `_method`: null); dispatch then holds the body to the chosen endpoint's own limit.
    let routeLimit = 0;
    for (const match of matches)
      for (const endpoint of match.route.endpoints)
        if (method === null || endpoint.methodSet.has(method)) routeLimit = Math.max(routeLimit, endpoint.maxBodyBytes);
    return { identity, trusted: authenticated && matches.length > 0, routeLimit };
  }

  /**
   * Serves one request end to end, in WordPress's `serve_request` order (docs/spec/wp-rest-reference.md §5):
   * JSONP check, body, who asks, nonce, dispatch, Allow (handle), then the response's headers and bytes.
   */
  async serve(incoming: IncomingRestRequest): Promise<RestOutput> {
    // Read before anything else: state written while the answer is made then makes it stale,
    // never wrong. Only for the requests whose answers may be given again (src/rest/replay.ts).
    const version = mayBeStamped(incoming.method, incoming.body.length) ? this.options.replay?.stateVersion() : undefined;
    const headers = this.headerTemplates.copy(this.options.urls('/', incoming.origin));
    const refused = refusedCallback(incoming.query._jsonp, headers);
    if (refused) return refused;
    // Speed: awaited only when a step answered with a promise (step.ts).
    const pending = this.handle(incoming);
    const handled = pending instanceof Promise ? await pending : pending;
    const { request, admission } = handled;
    const response = responseOf(handled, admission.nonceMissing, incoming.query._envelope !== undefined, headers);
    if (request) setHeaders(headers, request.deprecations);
    setHeaders(headers, admission.extraHeaders);
    // WordPress decides this before the nonce check: a valid login counts even when the request then runs anonymous.
    if (admission.loggedIn) setHeaders(headers, NO_CACHE_HEADERS);
    if (incoming.headers.origin) setHeaders(headers, corsHeaders(incoming.headers.origin));
    const { warn, replay } = this.options;
    const stamp =
      version === undefined
        ? undefined
        : (status: number) => replayStamp(replay!, handled, incoming.method, status, version, this.registry.generation);
    const jsonp = incoming.query._jsonp;
    return writeOutput(response, headers, { sent: incoming.method, dispatched: request?.method, jsonp, json: this.json, warn, stamp });
  }

  /** Whether an answer stamped `stamp` may answer a byte-identical repeat of its request now. */
  replayable(stamp: ReplayStamp): boolean {
    return stillReplayable(this.options.replay, stamp, this.registry.generation);
  }

  /** The OpenAPI 3.1 document (`siteward openapi`) for the REST root of `origin` (the configured one when absent). */
  openApi(origin?: IncomingRestRequest['origin']): ReturnType<RestDocuments['openApi']> {
    return this.documents.openApi(origin);
  }

  /** The body (a promise only for multipart), who asks (a promise unless the login is cached), the nonce, dispatch and Allow. */
  private handle(incoming: IncomingRestRequest): Handled | Promise<Handled> {
    return andThen(readBody(incoming.method.toUpperCase(), incoming.headers, incoming.body), (body) =>
      andThen(incoming.identity ?? this.options.authenticator.identify(incoming.headers, incoming.clientIp), (identity) =>
        this.admitAndDispatch(incoming, body, identity),
      ),
    );
  }

  private admitAndDispatch(incoming: IncomingRestRequest, body: DecodedBody, identity: Identity): Handled | Promise<Handled> {
    const admission = admit(this.options.authenticator, identity, incoming, body.form);
    if (isRestError(admission.principal))
      return { answer: admission.principal, route: null, request: null, allow: null, admission, identity };
    const override = incoming.query._method ?? incoming.headers['x-http-method-override'];
    const method = typeof override === 'string' && override !== '' ? override.toUpperCase() : incoming.method.toUpperCase();
    const path = incoming.route === '' ? '/' : incoming.route;
    const request = new DispatchRequest(
      method,
      path,
      incoming.headers,
      body.text,
      body.json,
      incoming.query,
      body.form,
      admission.principal,
    );
    request.origin = incoming.origin;
    request.bodyBytes = incoming.body.length;
    if (identity.kind === 'other' && identity.credential !== undefined) request.credential = identity.credential;
    // Who and from where, for audit events (src/features/audit/request-source.ts).
    request.clientIp = incoming.clientIp ?? '';
    if (identity.kind === 'cookie') request.sessionToken = identity.sessionToken;
    const teller = this.refusals.teller;
    if (teller) request.refusalObserver = teller;
    request.jsonError = body.jsonError;
    return andThen(this.dispatch(request), ({ result, route }) =>
      andThen(route ? allowedMethods(route, request) : null, (allow) => ({ answer: result, route, request, allow, admission, identity })),
    );
  }

  /** Matches the route and runs the endpoint (docs/spec/compat.md §3, endpoint-steps.ts); OPTIONS answers the route's description. */
  private dispatch(request: DispatchRequest): Dispatched | Promise<Dispatched> {
    if (request.method === 'OPTIONS') {
      const first = this.registry.matchAll(request.route)[0];
      if (!first) return { result: new RestResponse([]), route: null };
      enter(request, first.route, first.params);
      return { result: new RestResponse(this.documents.routeHelp(first.route, request.origin)), route: first.route };
    }
    const chosen = choose(this.registry, request.route, request.method);
    if (!chosen) return { result: restError('rest_no_route'), route: null };
    const { route, endpoint } = chosen;
    // Before the body's arguments are read: what the endpoint takes bounds what it is given.
    if (request.bodyBytes > endpoint.maxBodyBytes) return { result: bodyTooLarge(endpoint.maxBodyBytes), route };
    enter(request, route, chosen.params);
    return attempt(
      () => runEndpoint(route, endpoint, request),
      (result) => ({ result, route }),
      (error) => ({ result: caught(route, request, error, this.options.warn), route }),
    );
  }
}
