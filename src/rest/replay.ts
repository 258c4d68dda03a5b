import type { DispatchRequest } from './rest-request.js';
import type { Endpoint, Route } from './route-registry.js';
import type { Identity } from './types.js';

/**
 * Answering a byte-identical repeat of a request with the bytes of the first answer. An answer
 * may be given again only while everything it was made from is unchanged:
 * - the request: the HTTP adapter keys answers by every byte of the request line and headers,
 *   and of the body of a write (kept only when small, and only once the same body came twice);
 * - the code: the endpoints of the route declare themselves `replayable` (their permission
 *   answers, and a GET's whole answer or an endpoint's argument checks, depend on the request
 *   and on versioned state only);
 * - the state: the store's versions when the answer was made, known without a query;
 * - the time: the nonce tick (the fresh X-WP-Nonce and whether the sent nonce is still valid)
 *   and the session's end.
 *
 * Which answers: a GET's or an OPTIONS's 200, and a refusal of a request's arguments (a 4xx
 * made before the permission check and the callback ran: nothing was written) to a GET, POST,
 * PUT, PATCH or DELETE.
 *
 * Speed: a repeat costs a key, a map lookup and two comparisons instead of the cookie, the
 * session, the nonce, the route, the permission and the handler (docs/performance.md 18, 20).
 */
export interface ReplayPolicy {
  /** The versions of the state answers are made from, when known now without a query; undefined otherwise. */
  stateVersion(): string | undefined;
  /** Until when (ms since the epoch, exclusive) an answer made now for `identity` stays the same; 0: never give it again. */
  expiry(identity: Identity): number;
  /** Now, in ms since the epoch, on the clock `expiry` uses. */
  now(): number;
}

/** What an answer that may be given again was made under. Opaque to the adapter. */
export interface ReplayStamp {
  readonly version: string;
  readonly until: number;
  /** The route registry's generation: a route registered later (a plugin's) may change the answer. */
  readonly routes: number;
}

/**
 * Whether the answer to a request may be stamped at all: a GET or OPTIONS without a body, or a
 * write (only a refusal of its arguments ever is).
 */
export function mayBeStamped(method: string, bodyLength: number): boolean {
  if (method === 'GET' || method === 'OPTIONS') return bodyLength === 0;
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/** Whether an endpoint's whole answer is replayable, or only its permission answer. */
function answerReplayable(flag: Endpoint['replayable']): boolean {
  return flag === true || (typeof flag === 'function' && flag());
}

/**
 * Whether the route's answer to `method` (GET or OPTIONS) may be given again: for OPTIONS every
 * endpoint's permission is replayable, for a GET the GET endpoint's whole answer too (Allow asks
 * each endpoint's permission).
 */
export function routeReplayable(route: Route, method: 'GET' | 'OPTIONS'): boolean {
  let answered = method === 'OPTIONS';
  for (const endpoint of route.endpoints) {
    const flag = endpoint.replayable;
    if (flag === false) return false;
    // The first endpoint serving GET is the one that answered (RestServer.choose).
    if (!answered && endpoint.methodSet.has('GET')) {
      if (!answerReplayable(flag)) return false;
      answered = true;
    }
  }
  return answered;
}

/**
 * Whether a refusal of `refusedBy`'s arguments may be given again: that endpoint declares its
 * argument checks (`'arguments'`, or `true`), and every endpoint of the route at least its
 * permission (Allow asks each one's).
 */
export function refusalReplayable(route: Route, refusedBy: object): boolean {
  for (const endpoint of route.endpoints) {
    const flag = endpoint.replayable;
    if (flag === false) return false;
    if (endpoint === refusedBy && flag !== 'arguments' && !answerReplayable(flag)) return false;
  }
  return true;
}

/** Whether an answer made under `stamp` may be given again now, with the registry at generation `routes`. */
export function stillReplayable(policy: ReplayPolicy | undefined, stamp: ReplayStamp, routes: number): boolean {
  return policy !== undefined && stamp.routes === routes && policy.now() < stamp.until && policy.stateVersion() === stamp.version;
}

/** What a served request leaves for its stamp: the request and route dispatched, and who asked (null when refused before). */
export interface Served {
  readonly request: DispatchRequest | null;
  readonly route: Route | null;
  readonly identity: Identity | null;
}

/**
 * The stamp of an answer that may be given again, or undefined. `sentMethod` is the method as
 * sent (no `_method` or override header); `version` the state's versions read before the answer
 * was made; `routes` the registry's generation.
 */
export function replayStamp(
  policy: ReplayPolicy,
  served: Served,
  sentMethod: string,
  status: number,
  version: string,
  routes: number,
): ReplayStamp | undefined {
  const { request, identity, route } = served;
  if (request === null || identity === null || route === null) return undefined;
  if (request.method !== sentMethod) return undefined;
  // Refused credentials are guarded. An application password notes its uses (WordPress's
  // last_used) when it is checked: its answers only while its verification is trusted anyway.
  if (identity.kind === 'error' || (identity.kind === 'other' && identity.expiresAt === undefined)) return undefined;
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
  const until = policy.expiry(identity);
  return until > policy.now() ? { version, until, routes } : undefined;
}
