/** The REST errors of `siteward/v1/two-factor`. */
import { errorCatalogue } from '../../rest/errors.js';

export const twoFactorError = errorCatalogue({
  session_only: {
    code: 'siteward_two_factor_session_only',
    message: 'Two-factor authentication is managed from a login session, not with an application password.',
    status: 403,
  },
  already_enabled: {
    code: 'siteward_two_factor_enabled',
    message: 'Two-factor authentication is already on for this account. Turn it off first to enrol another device.',
    status: 409,
  },
  not_started: {
    code: 'siteward_two_factor_not_started',
    message: 'Start the enrolment first: no secret is waiting for its first code.',
    status: 409,
  },
  not_enabled: { code: 'siteward_two_factor_disabled', message: 'Two-factor authentication is not on for this account.', status: 409 },
  invalid_code: {
    code: 'siteward_two_factor_invalid_code',
    message: 'That code is not valid. Enter the current 6-digit code from your authenticator app.',
    status: 400,
  },
  wrong_password: { code: 'siteward_two_factor_wrong_password', message: 'That is not your password.', status: 403 },
});
