/** Engine errors and refusals as the REST answers and page statuses of the catalogue (jetpack-v4/errors.ts). */
import type { RestError } from '../../rest/errors.js';
import { accountServiceError, pluginError, type FixedPluginErrorId } from '../jetpack-v4/errors.js';
import type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
import type { Refusal } from './connection-service.js';

const errorIds: Record<ConnectionErrorKind, FixedPluginErrorId> = {
  provider_down: 'account_service_unreachable',
  provider_timeout: 'account_service_timeout',
  provider_invalid: 'account_service_invalid',
  issuer_mismatch: 'account_service_invalid',
  audience_mismatch: 'account_service_invalid',
  id_token_invalid: 'account_service_invalid',
  invalid_config: 'account_service_invalid',
  not_registered: 'account_service_refused',
  provider_refused: 'account_service_refused',
  registration_refused: 'account_service_refused',
  access_denied: 'account_service_refused',
  // Not reachable from REST routes (only the callback page sees them); kept total.
  state_invalid: 'account_service_refused',
  state_expired: 'account_service_refused',
  state_replayed: 'account_service_refused',
  not_linked: 'unlink_user_failed',
  storage_invalid: 'connection_storage_invalid',
};

/** A provider or storage problem as a JSON error: 502/504 for the provider, 500 for unreadable storage. */
export function restErrorOf(error: ConnectionError): RestError {
  return accountServiceError(errorIds[error.kind], error.message);
}

/** A refusal of the connection service (not configured, not connected, …) as its catalogue error. */
export function connectionRefusalError(refusal: Refusal): RestError {
  return pluginError(refusal === 'not_configured' ? 'connection_not_configured' : refusal);
}

/**
 * The status of an error page at `/connect/start` or `/connect/callback`: what the browser sent
 * (state, the provider's answer about this login) is a 400; the provider being down or slow is
 * 502/504, as on the REST routes.
 */
export function pageStatusOf(kind: ConnectionErrorKind): number {
  switch (kind) {
    case 'provider_down':
    case 'provider_invalid':
    case 'registration_refused':
    case 'not_registered':
      return 502;
    case 'provider_timeout':
      return 504;
    case 'storage_invalid':
    case 'invalid_config':
      return 500;
    default:
      return 400;
  }
}
