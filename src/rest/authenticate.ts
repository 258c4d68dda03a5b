/**
 * Who the request runs as (docs/spec/site-management-api.md §5): the authenticator's identity,
 * then, for a login cookie, the nonce check. WordPress's `rest_cookie_check_errors`.
 */
import { restError, type RestError } from './errors.js';
import type { IncomingRestRequest } from './incoming.js';
import type { Authenticator, Identity, Principal } from './types.js';

const NONCE_ACTION = 'wp_rest';

/** Who the request runs as (or why it is refused), with what the response headers need of it. */
export interface Admission {
  readonly principal: Principal | RestError;
  /** A fresh `X-WP-Nonce` when the sent one was valid. */
  readonly extraHeaders: Record<string, string>;
  /** Logged in by cookie or other means, even when the request then runs anonymous (no-cache headers). */
  readonly loggedIn: boolean;
  /** A login cookie came without a nonce (the 401/403 then says why, nonce-hint.ts). */
  readonly nonceMissing: boolean;
}

export function admit(auth: Authenticator, identity: Identity, incoming: IncomingRestRequest, form: Record<string, unknown>): Admission {
  const extraHeaders: Record<string, string> = {};
  const loggedIn = identity.kind === 'cookie' || identity.kind === 'other';
  const nonceMissing =
    identity.kind === 'cookie' && (form._wpnonce ?? incoming.query._wpnonce ?? incoming.headers['x-wp-nonce']) === undefined;
  return { principal: cookieCheck(auth, identity, incoming, form, extraHeaders), extraHeaders, loggedIn, nonceMissing };
}

/** Spec Part 5 rules 2, 4–7: which nonce, anonymous without one, 403 when invalid, fresh nonce when valid. */
function cookieCheck(
  auth: Authenticator,
  identity: Identity,
  incoming: IncomingRestRequest,
  form: Record<string, unknown>,
  extraHeaders: Record<string, string>,
): Principal | RestError {
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
