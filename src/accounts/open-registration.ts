/**
 * Dynamic client registration (RFC 7591) open to agents (MCP clients, issue 42), within rules:
 * - with the initial access token (a site registering itself): any client, as before;
 * - without it: a public client only (`token_endpoint_auth_method: "none"`, so PKCE, which the
 *   provider requires of every client), the authorization code grant (and refresh tokens), and
 *   redirect URIs that are https, or http on a loopback address (RFC 8252 §7.3: an agent on the
 *   user's machine); no metadata that would make the provider fetch a URL the registrant chose
 *   (`jwks_uri`, `sector_identifier_uri`, `request_uris`); a registered `scope` is dropped (it
 *   would forbid an agent's later step-up from abilities:read to abilities:write);
 * - bounded: a few registrations per client address per window, and a ceiling on the number of
 *   openly registered clients, both answered 429 before the provider reads the body.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../auth/clock.js';
import type { AccountsDb } from './accounts-db.js';

export const OPEN_REGISTRATION_LIMITS = {
  /** Registrations per client address per window. */
  perAddress: 20,
  windowMs: 10 * 60_000,
  /** Openly registered (public) clients the service keeps at most. */
  maxClients: 1000,
} as const;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const GRANTS = new Set(['authorization_code', 'refresh_token']);
/** Metadata an open registration may not carry: each makes the provider fetch a URL. */
const REFUSED = ['jwks_uri', 'sector_identifier_uri', 'request_uris'] as const;

function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Why a redirect URI is refused for an open registration, or null when it is fine. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string') return 'redirect_uris must be strings';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI "${uri}" is not a URL`;
  }
  if (url.hash !== '') return `redirect URI "${uri}" must not have a fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname))) return null;
  return `redirect URI "${uri}" must be https, or http on a loopback address (127.0.0.1, [::1], localhost)`;
}

/**
 * oidc-provider's `features.registration.idFactory`: called once the body is parsed and before
 * the client is validated and stored, so it is where registration rules go (policies need an
 * initial access token). Throws the RFC 7591 error that refuses the registration.
 */
export function registrationIdFactory(initialAccessToken: string): (ctx: KoaContextWithOIDC) => string {
  return (ctx) => {
    const presented = bearerOf(ctx.get('authorization'));
    if (presented !== undefined) {
      if (!sameSecret(presented, initialAccessToken)) throw new errors.InvalidToken('invalid initial access token value');
      return randomBytes(16).toString('base64url');
    }
    const body = (ctx.oidc.body ?? {}) as Record<string, unknown>;
    if (body.token_endpoint_auth_method !== 'none') {
      throw new errors.InvalidClientMetadata(
        'registration without an initial access token is for public clients: token_endpoint_auth_method must be "none"',
      );
    }
    const grants = body.grant_types ?? ['authorization_code'];
    if (!Array.isArray(grants) || grants.some((grant) => !GRANTS.has(String(grant)))) {
      throw new errors.InvalidClientMetadata('grant_types may only be authorization_code and refresh_token');
    }
    const responses = body.response_types ?? ['code'];
    if (!Array.isArray(responses) || responses.some((type) => type !== 'code')) {
      throw new errors.InvalidClientMetadata('response_types may only be code');
    }
    for (const key of REFUSED) {
      if (key in body) throw new errors.InvalidClientMetadata(`${key} is not accepted without an initial access token`);
    }
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0) throw new errors.InvalidRedirectUri('redirect_uris must contain members');
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem !== null) throw new errors.InvalidRedirectUri(problem);
    }
    // MCP clients register the scope of the site's first challenge (abilities:read); kept, it would
    // forbid the step-up to abilities:write later. What a token may do is decided at consent.
    delete body.scope;
    return randomBytes(16).toString('base64url');
  };
}

/** The 429 limits of open registration, checked before the provider sees the request. */
export class OpenRegistrationGate {
  readonly #attempts = new Map<string, { count: number; since: number }>();
  readonly #count: () => number;

  constructor(
    db: AccountsDb,
    private readonly clock: Clock,
    private readonly limits: { perAddress: number; windowMs: number; maxClients: number } = OPEN_REGISTRATION_LIMITS,
  ) {
    const statement = db.prepare(
      `SELECT count(*) AS n FROM oidc_models WHERE model = 'Client' AND json_extract(payload, '$.token_endpoint_auth_method') = 'none'`,
    );
    this.#count = () => (statement.get() as { n: number }).n;
  }

  /** Null to let the registration through, or why it is refused (and for how many seconds). */
  admit(address: string, authorization: string | undefined): { reason: string; retryAfter: number } | null {
    if (bearerOf(authorization) !== undefined) return null;
    const now = this.clock();
    for (const [key, entry] of this.#attempts) if (now - entry.since >= this.limits.windowMs) this.#attempts.delete(key);
    const entry = this.#attempts.get(address) ?? { count: 0, since: now };
    const retryAfter = Math.max(1, Math.ceil((entry.since + this.limits.windowMs - now) / 1000));
    if (entry.count >= this.limits.perAddress) return { reason: 'too many client registrations from this address', retryAfter };
    entry.count += 1;
    this.#attempts.set(address, entry);
    if (this.#count() >= this.limits.maxClients) {
      return { reason: 'this account service holds as many openly registered clients as it accepts', retryAfter: 3600 };
    }
    return null;
  }
}
