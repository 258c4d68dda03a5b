/**
 * Bearer tokens at the abilities' doors (issue 42): the OAuth resource server lives in the MCP
 * feature (registered after every feature that registers abilities, and after the connection
 * whose account service issues the tokens); it fills this slot, and `wp-abilities/v1` asks it
 * about any request that carries `Authorization: Bearer`, as the MCP servers do.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { RestRequest, RestResponse } from '../../rest/types.js';
import type { Ability } from './registry.js';

/** One ability a request would run, and its input (for the scope check and a `denied` event). */
export interface AbilityCall {
  readonly ability: Ability;
  readonly input: unknown;
}

/**
 * Checks the request's bearer token for `resource` (the door's URL): the caller it stands for,
 * or the answer that refuses it (401 with the Bearer challenge, 403 `insufficient_scope`, 503).
 */
export type BearerCheck = (
  request: RestRequest,
  resource: string,
  calls: readonly AbilityCall[],
  via: AbilityCaller['via'],
) => Promise<AbilityCaller | RestResponse>;

export interface BearerSlot {
  /** Null while no account service is connected: a bearer token is then refused. */
  check: BearerCheck | null;
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(request: Pick<RestRequest, 'headers'>): string | null {
  return /^\s*bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
}
