/** The errors of the verification feature's `jetpack/v4` route. */
import { errorCatalogue } from '../../rest/errors.js';

export const verificationError = errorCatalogue({
  verification_empty: { code: 'empty', message: 'Site not verified with any service.', status: 404 },
});
