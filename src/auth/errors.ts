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
  /** The login form after a few failures from an address: a solved challenge must come with the password. */
  challenge_required: {
    code: 'siteward_challenge_required',
    message: 'Several logins from your address failed. Let your browser confirm you are a person (it takes a second), then log in again.',
    status: 403,
  },
  /** The password was right, but the account has two-factor authentication: a code must follow. */
  two_factor_required: {
    code: 'siteward_two_factor_required',
    message: 'Enter the code from your authenticator app, or one of your recovery codes.',
    status: 401,
  },
  /** A wrong, used or expired second-factor code (counted as a failed login). */
  two_factor_invalid: {
    code: 'siteward_two_factor_invalid',
    message: 'That code is not valid. Enter the current code from your authenticator app, or an unused recovery code.',
    status: 401,
  },
  /** A wrong or already used recovery code on the login form's recovery step (counted as a failed login). */
  two_factor_recovery_invalid: {
    code: 'siteward_two_factor_invalid',
    message: 'That recovery code is not valid, or was already used. Each recovery code works once.',
    status: 401,
  },
  /** The second step of the login form came too late, or its link was already used. */
  two_factor_expired: {
    code: 'siteward_two_factor_expired',
    message: 'This login has expired. Enter your username and password again.',
    status: 401,
  },
});

export type AuthErrorCode = CatalogueId<typeof authError>;
