import type { JsonValue } from '../core/json.js';
import type { RestError } from './errors.js';
import type { RequestOrigin } from './rest-url.js';

/** Any JSON value; defined in src/core/json.ts, re-exported here for existing imports. */
export type { JsonValue };

/** Argument schema of docs/spec/site-management-api.md §2.6 (unknown types and `object` are accepted unchecked). */
export interface ArgSchema {
  type?: 'array' | 'integer' | 'number' | 'boolean' | 'string' | 'object' | (string & {});
  items?: ArgSchema;
  enum?: readonly unknown[];
  format?: 'date-time' | 'email' | 'ip' | 'uri' | (string & {});
  minimum?: number;
  maximum?: number;
  /** Arrays: the most items (shown in the index and OPTIONS; checked by the argument's own validator). */
  maxItems?: number;
  /** Objects: their members' schemas (shown in the index and the OpenAPI document; checked by the argument's own validator). */
  properties?: Readonly<Record<string, ArgSchema & { required?: boolean; default?: unknown }>>;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
  description?: string;
}

/** What a validate callback may answer: true (valid), false (`Invalid parameter.`) or an error. */
export type ValidateResult = boolean | RestError;

/** A declared endpoint argument: its schema plus registration options. */
export interface ArgDefinition extends ArgSchema {
  required?: boolean;
  default?: unknown;
  validateCallback?: (value: unknown, request: RestRequest, name: string) => ValidateResult | Promise<ValidateResult>;
  /** `null` turns the default schema sanitizing off (WordPress 4.7.1). */
  sanitizeCallback?: ((value: unknown, request: RestRequest, name: string) => unknown) | null;
}

/** The current user as the REST layer sees it. Anonymous is id 0. */
export interface Principal {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  readonly roles: readonly string[];
  /** Capability check (primitive and meta capabilities). */
  can(capability: string, ...args: unknown[]): boolean;
}

/** A request as handed to permission callbacks and callbacks. */
export interface RestRequest {
  /** Method after override (`_method`, `X-HTTP-Method-Override`), upper-case. */
  readonly method: string;
  /** The dispatched path, e.g. `/jetpack/v4/module/protect`. */
  readonly route: string;
  /** The matched route pattern (`/jetpack/v4/module/(?P<slug>[a-z\-]+)`), empty before matching. */
  readonly matchedRoute: string;
  /** Merged parameters, lowest priority first: defaults → URL → query → form body → JSON body; sanitized for declared args. */
  readonly params: Record<string, unknown>;
  readonly urlParams: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly bodyParams: Record<string, unknown>;
  /** The decoded JSON body (only for an `application/json` body); undefined when absent. */
  readonly json: unknown;
  /** Raw body text. */
  readonly body: string;
  /** Lower-cased header names; repeated headers joined by `,`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The current user (id 0 when anonymous). */
  readonly user: Principal;
  /** Scheme and host the request came with (e.g. whether a cookie set in the answer must be `Secure`). */
  readonly origin: RequestOrigin;
  /** The id of the credential that authenticated the request (an application password's uuid); null for a login cookie or none. */
  readonly credential?: string | null;
  /** The client's address by the trusted-proxy rule (SITEWARD_TRUST_PROXY); '' when unknown. For audit events. */
  readonly clientIp?: string;
  /** The login cookie's session token when a cookie authenticated the request, else null (audit events record its hash). */
  readonly sessionToken?: string | null;
  /** One parameter, by the priority order above. */
  param(name: string): unknown;
  header(name: string): string | undefined;
  /** Adds `X-WP-DeprecatedFunction` to this request's response (also after an `await`). */
  deprecatedFunction(name: string, version: string, replacement?: string): void;
  /** Adds `X-WP-DeprecatedParam` to this request's response (also after an `await`). */
  deprecatedArgument(name: string, version: string, message?: string): void;
}

/** A response with status and headers. */
export class RestResponse {
  constructor(
    public data: unknown = null,
    public status = 200,
    public headers: Record<string, string> = {},
  ) {}

  /** Sets a header, replacing any earlier value. */
  header(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }
}

/**
 * A response whose body is written as its chunks come (an export of any length): the adapter
 * sends it chunked, asks for the next chunk only once the socket has taken the last one
 * (backpressure), and stops asking when the client goes away. Never answered from the replay
 * cache, `_fields` and `_envelope` leave it as it is, and HEAD gets its headers only.
 */
export class StreamedResponse extends RestResponse {
  constructor(
    public readonly chunks: AsyncIterable<string | Buffer>,
    status = 200,
    headers: Record<string, string> = {},
  ) {
    super(null, status, headers);
  }
}

/** What a callback may return. */
export type CallbackResult = RestResponse | RestError | JsonValue | unknown;

export type EndpointCallback = (request: RestRequest) => CallbackResult | Promise<CallbackResult>;
export type PermissionCallback = (request: RestRequest) => boolean | null | RestError | unknown | Promise<unknown>;

/** One endpoint of a route (docs/spec/site-management-api.md §4.2 rule 3). */
export interface EndpointDefinition {
  /** A method, a comma-separated list or an array. Default `GET`. */
  methods?: string | readonly string[];
  callback?: EndpointCallback;
  permissionCallback?: PermissionCallback;
  args?: Record<string, ArgDefinition>;
  /** Default true. */
  showInIndex?: boolean;
  /** This endpoint may be called inside a `batch/v1` request (WordPress's per-handler `allow_batch`). */
  allowBatch?: BatchOption;
  /**
   * What a success answers, for the OpenAPI document: `item` (the route's `schema`), `collection`
   * (a list of them), or a schema built from the item schema (null when the route has none).
   * Absent: the document says the route declares no response schema.
   */
  responseSchema?: ResponseSchema;
  /** The success status when it is not 200 (e.g. 201 for a create). */
  responseStatus?: number;
  /**
   * Checks the request as a whole once every argument is valid, before the permission check
   * (WordPress's handler-level `validate_callback`, 5.6+): an error refuses the request.
   */
  validateCallback?: (request: RestRequest) => true | RestError | Promise<true | RestError>;
  /**
   * What of this endpoint depends only on the request and on state the store versions (site
   * options, users and sessions), with no clock, other peer or side effect: `true` (or a
   * function answering true, asked at each answer) for its permission callback and, for a GET,
   * its whole answer (argument and validate callbacks, callback); `'permission'` for its
   * permission callback only. A byte-identical repeat of an OPTIONS request may then be answered
   * with the same bytes when every endpoint of the route says at least `'permission'`, and of a
   * GET when its endpoint says `true` and the others at least `'permission'` (Allow asks each
   * one's permission), while those versions, the nonce tick and the session last
   * (src/rest/replay.ts). `'arguments'`: its permission callback and its argument checks
   * (argument validate and sanitize callbacks, `validateCallback`): a refusal of the arguments,
   * made before the permission check and the callback, may then be given again to a
   * byte-identical repeat, body included, when the other endpoints say at least `'permission'`
   * (a write's callback is never replayed: `true` on a write endpoint means `'arguments'`).
   * Default false.
   */
  replayable?: boolean | 'permission' | 'arguments' | (() => boolean);
  /**
   * The largest request body this endpoint takes, in bytes: what its arguments may add up to,
   * with room to spare. A larger body is answered 413 `rest_body_too_large` before its arguments
   * are read (and, once the route is known, before the rest of the body is). Default
   * `DEFAULT_ROUTE_BODY_LIMIT` (1 MiB); `Infinity` for up to `SITEWARD_BODY_LIMIT`, which also
   * caps every declared limit.
   */
  maxBodyBytes?: number;
}

/** The body limit of an endpoint that declares none (see EndpointDefinition.maxBodyBytes). */
export const DEFAULT_ROUTE_BODY_LIMIT = 1024 * 1024;

/** See EndpointDefinition.responseSchema. */
export type ResponseSchema = 'item' | 'collection' | ((item: JsonValue | null) => JsonValue);

/** WordPress's `allow_batch`: which batch API versions may call the route (`{ v1: true }`). */
export interface BatchOption {
  readonly v1?: boolean;
}

/** Route-level options that may accompany the endpoint list. */
export interface RouteOptions {
  /** Returns the route's JSON schema, shown by OPTIONS. */
  schema?: () => JsonValue;
  /** Every endpoint of the route may be called inside a `batch/v1` request unless it says otherwise (WordPress's route-level `allow_batch`). */
  allowBatch?: BatchOption;
  /**
   * `rest_invalid_param` carries WordPress 5.7+'s `data.details` (each failing argument's own
   * `{code, message, data}`). Off by default: the 2016 wire (docs/spec/compat.md §9) has only `params`.
   */
  invalidParamDetails?: boolean;
}

/** Identity found by an authenticator before the cookie/nonce check. */
export type Identity =
  | { readonly kind: 'anonymous' }
  /** Logged in by the login cookie: the nonce check of docs/spec/site-management-api.md §5 applies. */
  | { readonly kind: 'cookie'; readonly principal: Principal; readonly sessionToken: string; readonly expiresAt?: number }
  /** Logged in by another means (e.g. an application password, whose id is `credential`): no nonce check. */
  /** `expiresAt`: until when (ms since the epoch) the verification is trusted without a new check; answers may be given again until then. */
  | { readonly kind: 'other'; readonly principal: Principal; readonly credential?: string; readonly expiresAt?: number }
  /** Credentials were sent and are wrong: the request fails with this error. */
  | { readonly kind: 'error'; readonly error: RestError };

/**
 * The REST layer's view of authentication. `src/auth` implements it; the HTTP adapter wires it.
 * `headers` have lower-case names.
 */
export interface Authenticator {
  /** `clientIp`: the client's address, for hooks around password checks (Basic credentials). */
  identify(headers: Readonly<Record<string, string>>, clientIp?: string): Identity | Promise<Identity>;
  /** 1 (current tick), 2 (previous tick) or false. `identity` is cookie or anonymous. */
  verifyNonce(nonce: string, action: string, identity: Identity): 1 | 2 | false;
  createNonce(action: string, identity: Identity): string;
  anonymous(): Principal;
}

/**
 * Told when an endpoint's permission check refuses a request (`error`: the 401/403 answered),
 * for a single request and for each `batch/v1` item. An observer only: it cannot change the
 * answer, and what it throws is not the request's concern (RestServer.onRefusal).
 */
export type RefusalObserver = (request: RestRequest, error: RestError) => void;
