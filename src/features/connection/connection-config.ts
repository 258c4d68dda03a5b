import { isLoopbackHost } from '../../core/loopback-host.js';

export { isLoopbackHost };

/** How the site reaches the central account service. */
export interface ConnectionConfig {
  /** OpenID issuer, exactly as the provider spells it (no trailing slash unless it has one). */
  issuer: string;
  /** A client registered by hand; without it the site registers itself dynamically. */
  clientId?: string;
  clientSecret?: string;
  /** Initial access token for dynamic registration. */
  registrationToken?: string;
  /** The site's callback URL, registered exactly (port included). */
  redirectUri: string;
  /** The callback of sign-in through the connection (the `sso` module), registered beside `redirectUri`. */
  loginRedirectUri?: string;
  /** Bound of every network call in ms; default 5000. */
  timeoutMs?: number;
}

/** A validated configuration; `insecure` is true only for plain-http loopback issuers. */
export interface ValidConnectionConfig extends Required<Pick<ConnectionConfig, 'issuer' | 'redirectUri' | 'timeoutMs'>> {
  loginRedirectUri?: string;
  clientId?: string;
  clientSecret?: string;
  registrationToken?: string;
  insecure: boolean;
}

export type ConfigResult = { ok: true; config: ValidConnectionConfig } | { ok: false; error: { kind: 'invalid_config'; message: string } };

export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Checks a connection configuration: the issuer is https, or plain http on a loopback host only;
 * the redirect URI is an absolute http(s) URL without fragment; a client secret needs a client id.
 *
 * @example
 * const result = validateConnectionConfig({ issuer: 'http://127.0.0.1:4000', redirectUri: 'http://127.0.0.1:8080/connect/callback' });
 * if (!result.ok) console.error(result.error.message);
 */
export function validateConnectionConfig(input: ConnectionConfig): ConfigResult {
  const fail = (message: string): ConfigResult => ({ ok: false, error: { kind: 'invalid_config', message } });
  const issuer = parseUrl(input.issuer);
  if (issuer === undefined) return fail(`the issuer "${input.issuer}" is not an absolute URL`);
  if (issuer.search !== '' || issuer.hash !== '') return fail('the issuer must not have a query or fragment');
  if (issuer.username !== '' || issuer.password !== '') return fail('the issuer must not contain credentials');
  const loopback = isLoopbackHost(issuer.hostname);
  if (issuer.protocol === 'http:' && !loopback) {
    return fail(`the issuer must use https (plain http is allowed only for 127.0.0.1, ::1 and localhost): ${input.issuer}`);
  }
  if (issuer.protocol !== 'https:' && issuer.protocol !== 'http:') return fail(`the issuer must be an https URL: ${input.issuer}`);

  const redirect = parseUrl(input.redirectUri);
  if (redirect === undefined || (redirect.protocol !== 'http:' && redirect.protocol !== 'https:')) {
    return fail(`the redirect URI "${input.redirectUri}" is not an absolute http(s) URL`);
  }
  if (redirect.hash !== '' || input.redirectUri.includes('#')) return fail('the redirect URI must not have a fragment');
  if (input.loginRedirectUri !== undefined) {
    const login = parseUrl(input.loginRedirectUri);
    if (login === undefined || (login.protocol !== 'http:' && login.protocol !== 'https:') || input.loginRedirectUri.includes('#')) {
      return fail(`the sign-in redirect URI "${input.loginRedirectUri}" is not an absolute http(s) URL without fragment`);
    }
  }
  if (input.clientSecret !== undefined && input.clientId === undefined) return fail('a client secret needs a client id');
  if (input.clientId !== undefined && input.clientId.trim() === '') return fail('the client id is empty');

  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 120_000) return fail('timeoutMs must be between 1 and 120000');

  const config: ValidConnectionConfig = {
    issuer: input.issuer,
    redirectUri: input.redirectUri,
    timeoutMs,
    insecure: issuer.protocol === 'http:' && loopback,
  };
  if (input.loginRedirectUri !== undefined) config.loginRedirectUri = input.loginRedirectUri;
  if (input.clientId !== undefined) config.clientId = input.clientId;
  if (input.clientSecret !== undefined) config.clientSecret = input.clientSecret;
  if (input.registrationToken !== undefined && input.registrationToken !== '') config.registrationToken = input.registrationToken;
  return { ok: true, config };
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
