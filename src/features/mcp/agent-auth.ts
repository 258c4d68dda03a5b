/**
 * Siteward as an OAuth 2.1 resource server for MCP clients (issue 42 item 4, docs/spec/abilities-mcp.md C):
 * - Protected Resource Metadata (RFC 9728) for each MCP endpoint, naming the connected account
 *   service as the authorization server and the agent scopes;
 * - bearer access tokens checked here, never passed on: a JWT (RFC 9068, `typ` at+jwt) signed by
 *   a key of the issuer's JWKS, from that issuer, for this endpoint as audience (RFC 8707), not
 *   expired; its subject mapped to the site user linked to that account;
 * - the challenges: 401 with `WWW-Authenticate: Bearer resource_metadata=…, scope=…` (and
 *   `error="invalid_token"` for a bad token), 403 `insufficient_scope` naming the scope needed.
 * Scopes follow the abilities' annotations: `abilities:read` for anything, `abilities:write` also
 * for an ability that is not readonly; the user's own capabilities still apply.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Principal } from '../../rest/types.js';

export const READ_SCOPE = 'abilities:read';
export const WRITE_SCOPE = 'abilities:write';
export const AGENT_SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;

/** How long a peer (discovery, JWKS) may take before the call fails with a clear error. */
const PEER_TIMEOUT_MS = 5000;

export type TokenCheck =
  | {
      readonly ok: true;
      readonly user: Principal;
      readonly clientId: string | null;
      /** The `client_name` claim `siteward accounts` adds (other issuers may not): for the Connection screen. */
      readonly clientName: string | null;
      readonly scopes: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly description: string; readonly unavailable?: true };

export interface AgentAuthDeps {
  readonly issuer: string;
  readonly clock: () => number;
  /** Site user ids linked to the issuer's account `subject`. */
  usersLinkedTo(subject: string): Promise<number[]>;
  /** The principal of a site user, undefined when the user no longer exists. */
  principal(userId: number): Promise<Principal | undefined>;
}

export interface AgentAuth {
  readonly issuer: string;
  /** The RFC 9728 metadata URL of a resource (its path after `/.well-known/oauth-protected-resource`). */
  metadataUrl(resource: string): string;
  metadata(resource: string): Record<string, unknown>;
  check(token: string, resource: string): Promise<TokenCheck>;
}

/** `https://site/wp-json/x` → `https://site/.well-known/oauth-protected-resource/wp-json/x` (RFC 9728 §3.1). */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

export function createAgentAuth(deps: AgentAuthDeps): AgentAuth {
  const issuer = deps.issuer.replace(/\/+$/, '');
  let jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  /** The issuer's JWKS, found through its discovery document (read once; retried after a failure). */
  const keys = async () => {
    if (jwks) return jwks;
    const response = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(PEER_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`the account service's discovery document answered ${response.status}`);
    const discovery = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (discovery.issuer !== issuer || typeof discovery.jwks_uri !== 'string')
      throw new Error('the account service’s discovery document is not for this issuer');
    jwks = createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: PEER_TIMEOUT_MS });
    return jwks;
  };

  return {
    issuer,
    metadataUrl: metadataUrlOf,
    metadata: (resource) => ({
      resource,
      authorization_servers: [issuer],
      scopes_supported: [...AGENT_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Siteward',
    }),
    async check(token, resource) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await keys(), {
          issuer,
          audience: resource,
          typ: 'at+jwt',
          currentDate: new Date(deps.clock()),
          requiredClaims: ['sub', 'exp'],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) return { ok: false, description: 'The access token expired.' };
        if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') {
          return { ok: false, description: 'The access token is for another resource.' };
        }
        if (error instanceof joseErrors.JOSEError) return { ok: false, description: 'The access token is not valid here.' };
        return {
          ok: false,
          unavailable: true,
          description: `The account service could not be reached to check the token: ${(error as Error).message}`,
        };
      }
      const [userId] = await deps.usersLinkedTo(String(payload.sub));
      const user = userId === undefined ? undefined : await deps.principal(userId);
      if (!user) return { ok: false, description: 'The account is not linked to a user of this site.' };
      const scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []);
      const clientId = typeof payload.client_id === 'string' ? payload.client_id : null;
      const clientName = typeof payload.client_name === 'string' ? payload.client_name.slice(0, 200) : null;
      return { ok: true, user, clientId, clientName, scopes };
    },
  };
}

/** `WWW-Authenticate` of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1). */
export function bearerChallenge(
  metadataUrl: string,
  scope: string,
  error?: { code: 'invalid_token' | 'insufficient_scope'; description: string },
) {
  const quote = (text: string) => text.replace(/["\\]/g, '');
  const parts = [`resource_metadata="${metadataUrl}"`, `scope="${scope}"`];
  if (error) parts.unshift(`error="${error.code}"`, `error_description="${quote(error.description)}"`);
  return `Bearer ${parts.join(', ')}`;
}
