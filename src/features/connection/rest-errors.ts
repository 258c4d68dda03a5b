/** The connection's error catalogue, and engine errors and refusals as its REST answers and page statuses. */
import { errorCatalogue, type FixedErrorId, type RestError } from '../../rest/errors.js';
import type { ConnectionError, ConnectionErrorKind } from './connection-errors.js';
import type { Refusal } from './connection-service.js';

/** The connection to the central account service (docs/spec/jetpack-v4-reference.md §3.2–§3.6; docs/spec/compat.md §9). */
export const connectionError = errorCatalogue({
  unlink_user_failed: { code: 'unlink_user_failed', message: 'Was not able to unlink the user.  Please try again.', status: 400 },
  disconnect_failed: { code: 'disconnect_failed', message: 'Was not able to disconnect the site.  Please try again.', status: 400 },
  connection_not_configured: {
    code: 'connection_not_configured',
    message: 'No central account service is configured for this site (SITEWARD_ACCOUNTS_ISSUER).',
    status: 503,
  },
  account_service_unreachable: {
    code: 'account_service_unreachable',
    message: 'The central account service could not be reached.',
    status: 502,
  },
  account_service_timeout: {
    code: 'account_service_timeout',
    message: 'The central account service did not answer in time.',
    status: 504,
  },
  account_service_invalid: {
    code: 'account_service_invalid_response',
    message: 'The central account service gave an unusable answer.',
    status: 502,
  },
  account_service_refused: { code: 'account_service_refused', message: 'The central account service refused the request.', status: 502 },
  connection_storage_invalid: {
    code: 'connection_storage_invalid',
    message: 'The stored connection data could not be read.',
    status: 500,
  },
});

type ConnectionErrorId = FixedErrorId<typeof connectionError>;

/** A catalogue error about the account service, with the engine's one-line account of what went wrong in `data.detail` (never a secret). */
function accountServiceError(id: ConnectionErrorId, detail: string): RestError {
  return connectionError(id, { data: { detail } });
}

const errorIds: Record<ConnectionErrorKind, ConnectionErrorId> = {
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
  return connectionError(refusal === 'not_configured' ? 'connection_not_configured' : refusal);
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
