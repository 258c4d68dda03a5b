/**
 * The wire errors of authentication, in one catalogue, so no authenticator or login handler
 * spells a code and message inline. (The CLI's user errors are `UserError`s, in user-validation.ts.)
 */
import { RestError } from '../rest/errors.js';

/** id (= wire code) → [message, status]. */
const catalogue = {
  /** HTTP Basic with an application password: no such user (WordPress's message). */
  invalid_username: ['Unknown username.', 401],
  /** HTTP Basic with an application password: the user exists, the password does not match. */
  incorrect_password: ['The provided password is an invalid application password.', 401],
  /** The JSON login of `/login`: one message for both cases, so logins cannot be probed. */
  invalid_login: ['Unknown username or incorrect password.', 401],
} as const satisfies Record<string, readonly [string, number]>;

export type AuthErrorCode = keyof typeof catalogue;

/**
 * Builds an authentication error.
 *
 * @example
 * authError('invalid_login') // 401 "Unknown username or incorrect password."
 */
export function authError(code: AuthErrorCode): RestError {
  const [message, status] = catalogue[code];
  return new RestError(code, message, { status });
}
