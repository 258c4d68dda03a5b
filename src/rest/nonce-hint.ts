import { COOKIE_WITHOUT_NONCE_HINT, RestError } from './errors.js';

/**
 * A logged-in cookie without a nonce runs as a logged-out visitor (WordPress does the same, for
 * CSRF safety), which surprises people: its 401/403 says why in `data.hint`, code and message
 * unchanged.
 */
export function withNonceHint(error: RestError, nonceMissing: boolean): RestError {
  if (!nonceMissing || (error.status !== 401 && error.status !== 403)) return error;
  const hinted = new RestError(error.code, error.message, { ...error.data, hint: COOKIE_WITHOUT_NONCE_HINT });
  for (const more of error.additional) hinted.add(more);
  return hinted;
}
