/** The errors of the updates feature's `jetpack/v4` routes. */
import { errorCatalogue } from '../../rest/errors.js';

export const updatesError = errorCatalogue({
  updates_check_failed: { code: 'not_found', message: 'Could not check updates for plugins on this site.', status: 404 },
});
