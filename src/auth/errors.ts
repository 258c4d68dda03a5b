/**
 * The wire errors of authentication, in one catalogue, so no authenticator or login handler
 * spells a code and message inline. (The CLI's user errors are `UserError`s, in user-validation.ts.)
 */
import { errorCatalogue, type CatalogueId } from '../rest/errors.js';

/**
 * Builds an authentication error.
 *
 * @example
 * authError('invalid_login') // 401 "Unknown username or incorrect password."
 */
export const authError = errorCatalogue({
  /** HTTP Basic with an application password: no such user (WordPress's message). */
  invalid_username: { code: 'invalid_username', message: 'Unknown username.', status: 401 },
  /** HTTP Basic with an application password: the user exists, the password does not match. */
  incorrect_password: { code: 'incorrect_password', message: 'The provided password is an invalid application password.', status: 401 },
  /** The JSON login of `/login`: one message for both cases, so logins cannot be probed. */
  invalid_login: { code: 'invalid_login', message: 'Unknown username or incorrect password.', status: 401 },
});

export type AuthErrorCode = CatalogueId<typeof authError>;
