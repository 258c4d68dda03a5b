import type * as OpenidClient from 'openid-client';
import { loadedOpenidClient } from './openid-client.js';

/** Why a connection operation failed. `message` is for logs and admins: it never holds a secret. */
export type ConnectionErrorKind =
  | 'invalid_config'
  | 'provider_down'
  | 'provider_timeout'
  | 'provider_invalid'
  | 'provider_refused'
  | 'registration_refused'
  | 'not_registered'
  | 'not_linked'
  | 'state_invalid'
  | 'state_expired'
  | 'state_replayed'
  | 'access_denied'
  | 'id_token_invalid'
  | 'issuer_mismatch'
  | 'audience_mismatch'
  | 'storage_invalid';

export interface ConnectionError {
  kind: ConnectionErrorKind;
  message: string;
}

export type Failure = { ok: false; error: ConnectionError };

export function failure(kind: ConnectionErrorKind, message: string): Failure {
  return { ok: false, error: { kind, message } };
}

/** The step that failed, so the same library error can be told apart (a 401 at registration vs at userinfo). */
export type Stage = 'discovery' | 'registration' | 'callback' | 'token' | 'userinfo' | 'refresh' | 'revocation';

const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

/**
 * Turns whatever openid-client (or fetch under it) threw into a typed error. The rules follow
 * oauth4webapi's error codes; anything unrecognised is `provider_invalid`.
 */
export function toConnectionError(error: unknown, stage: Stage, issuer: string): ConnectionError {
  const chain = causes(error);
  const codes = new Set(chain.map((e) => stringProp(e, 'code')).filter((c): c is string => c !== undefined));
  const names = new Set(chain.map((e) => (e instanceof Error ? e.name : undefined)));
  const where = `${stage} at ${issuer}`;

  if (
    names.has('TimeoutError') ||
    codes.has('OAUTH_TIMEOUT') ||
    codes.has('UND_ERR_HEADERS_TIMEOUT') ||
    codes.has('UND_ERR_BODY_TIMEOUT')
  ) {
    return { kind: 'provider_timeout', message: `the account service did not answer in time (${where})` };
  }
  for (const code of codes) {
    if (DOWN_CODES.has(code)) return { kind: 'provider_down', message: `the account service is unreachable (${code}, ${where})` };
  }
  if (codes.has('OAUTH_HTTP_REQUEST_FORBIDDEN')) {
    return { kind: 'invalid_config', message: `plain http is refused for ${issuer}; use https` };
  }
  // openid-client's own errors can exist only once a connection operation has imported it.
  const openid = loadedOpenidClient();
  const answer = openid === undefined ? null : providerAnswer(chain[0], openid, stage, where);
  if (answer !== null) return answer;

  const claim = chain.map((e) => nested(e, 'claim') ?? nested(e, 'attribute')).find((c) => c !== undefined);
  const text = chain.map((e) => (e instanceof Error ? e.message : '')).join(' | ');
  if (claim === 'iss' || claim === 'issuer' || /"iss" \(issuer\)|issuer does not match/.test(text)) {
    return { kind: 'issuer_mismatch', message: `the account service does not identify as ${issuer} (${stage})` };
  }
  if (claim === 'aud' || claim === 'azp') {
    return { kind: 'audience_mismatch', message: `the ID token was issued for another client (${stage})` };
  }
  if (/"state"/.test(text)) return { kind: 'state_invalid', message: `the callback's state does not match (${stage})` };
  if (
    stage === 'token' &&
    (codes.has('OAUTH_JWT_CLAIM_COMPARISON_FAILED') ||
      codes.has('OAUTH_JWT_TIMESTAMP_CHECK_FAILED') ||
      codes.has('OAUTH_KEY_SELECTION_FAILED') ||
      /signature|ID Token|JWT/i.test(text))
  ) {
    return { kind: 'id_token_invalid', message: `the ID token is not valid: ${firstMessage(chain)}` };
  }
  return { kind: 'provider_invalid', message: `the account service gave an unusable answer (${where}): ${firstMessage(chain)}` };
}

/** What an error of openid-client's own classes (the provider's answer) means, or null for another error. */
function providerAnswer(top: unknown, openid: typeof OpenidClient, stage: Stage, where: string): ConnectionError | null {
  const { AuthorizationResponseError, ResponseBodyError, WWWAuthenticateChallengeError } = openid;
  if (top instanceof AuthorizationResponseError) {
    const kind = top.error === 'access_denied' ? 'access_denied' : 'provider_refused';
    return { kind, message: `the account service answered ${top.error}${describe(top.error_description)}` };
  }
  if (top instanceof WWWAuthenticateChallengeError || top instanceof ResponseBodyError) {
    const status = top.status;
    const oauthError = top instanceof ResponseBodyError ? top.error : (top.cause[0]?.parameters.error ?? 'unauthorized');
    const description = top instanceof ResponseBodyError ? describe(top.error_description) : '';
    // No token → 400 (a guarded oidc-provider 8: invalid_request "no access token provided"; `siteward
    // accounts`, open to public clients only: invalid_client_metadata "…without an initial access token…");
    // a wrong one → 401 invalid_token.
    const tokenRefused = status === 401 || status === 403 || oauthError === 'invalid_token' || /access token/.test(description);
    if (stage === 'registration' && (top instanceof WWWAuthenticateChallengeError || tokenRefused)) {
      return { kind: 'registration_refused', message: `registration was refused (${status} ${oauthError}): check the registration token` };
    }
    if (oauthError === 'invalid_client') {
      return { kind: 'not_registered', message: `the account service does not know this site's client (${where})` };
    }
    return { kind: 'provider_refused', message: `the account service refused the ${stage} (${status} ${oauthError}${description})` };
  }
  return null;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function stringProp(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const prop = (value as Record<string, unknown>)[name];
  return typeof prop === 'string' ? prop : undefined;
}

/** A `claim` or `attribute` field on the value itself (oauth4webapi puts them in the cause object). */
function nested(value: unknown, name: string): string | undefined {
  return stringProp(value, name);
}

function describe(description: string | undefined): string {
  return description === undefined ? '' : `: ${description.slice(0, 200)}`;
}

function firstMessage(chain: unknown[]): string {
  // The innermost Error message is the most specific one; none of them carries token text.
  const messages = chain.filter((e): e is Error => e instanceof Error).map((e) => e.message);
  return (messages.at(-1) ?? 'unknown error').slice(0, 200);
}
