/**
 * The one bearer-token check of every agent door (the MCP servers and `wp-abilities/v1`): the
 * token (agent-auth.ts: signature, issuer, audience = the door's resource, expiry, linked user),
 * the client not revoked by an administrator (agent-clients.ts), the scopes the called abilities'
 * annotations ask for (a refusal is recorded as a `denied` run of each ability that needed the
 * missing scope), and the client's use recorded for the Connection screen.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import { RestResponse } from '../../rest/types.js';
import { bearerToken, type AbilityCall, type AbilityRegistry, type BearerCheck } from '../abilities/index.js';
import { RestError } from '../../rest/errors.js';
import { bearerChallenge, READ_SCOPE, WRITE_SCOPE, type AgentAuth } from './agent-auth.js';
import type { AgentClients } from './agent-clients.js';

export function refusal(status: 401 | 403 | 503, code: string, message: string, challenge?: string): RestResponse {
  const response = new RestResponse({ code, message, data: { status } }, status);
  if (challenge !== undefined) response.header('WWW-Authenticate', challenge);
  return response;
}

/** The scopes a set of calls needs: read always, write for any ability that is not readonly. */
function scopesFor(calls: readonly AbilityCall[]): string[] {
  return calls.some((call) => call.ability.meta.annotations.readonly !== true) ? [READ_SCOPE, WRITE_SCOPE] : [READ_SCOPE];
}

export interface BearerCheckDeps {
  readonly auth: AgentAuth | null;
  readonly registry: AbilityRegistry;
  readonly clients: AgentClients;
  readonly warn: (error: unknown) => void;
}

export function createBearerCheck({ auth, registry, clients, warn }: BearerCheckDeps): BearerCheck {
  return async (request, resource, calls, via): Promise<AbilityCaller | RestResponse> => {
    const token = bearerToken(request);
    if (token === null || !auth) {
      return refusal(401, 'invalid_token', 'Bearer tokens need a connected account service (SITEWARD_ACCOUNTS_ISSUER).');
    }
    const invalid = (description: string) =>
      refusal(
        401,
        'invalid_token',
        description,
        bearerChallenge(auth.metadataUrl(resource), READ_SCOPE, { code: 'invalid_token', description }),
      );
    const checked = await auth.check(token, resource);
    if (!checked.ok) {
      if (checked.unavailable) return refusal(503, 'siteward_accounts_unavailable', checked.description);
      return invalid(checked.description);
    }
    if (checked.clientId !== null && (await clients.isRevoked(checked.clientId))) {
      return invalid('This agent client was revoked by an administrator of this site.');
    }
    const caller: AbilityCaller = { user: checked.user, credential: checked.clientId === null ? null : `oauth:${checked.clientId}`, via };
    const needed = scopesFor(calls);
    const missing = needed.filter((scope) => !checked.scopes.has(scope));
    if (missing.length > 0) {
      const scope = [...new Set([...checked.scopes, ...needed])].filter((s) => s.startsWith('abilities:')).join(' ');
      const description = `This needs the ${missing.join(' and ')} scope.`;
      const error = new RestError('insufficient_scope', description, { status: 403 });
      for (const call of calls)
        if (call.ability.meta.annotations.readonly !== true) await registry.denied(call.ability, call.input, error, caller);
      return refusal(
        403,
        'insufficient_scope',
        description,
        bearerChallenge(auth.metadataUrl(resource), scope, { code: 'insufficient_scope', description }),
      );
    }
    if (checked.clientId !== null) await clients.seen(checked.clientId, checked.clientName, checked.user).catch(warn);
    return caller;
  };
}
