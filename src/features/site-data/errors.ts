/** The errors of the site-data feature's `jetpack/v4` routes. */
import { errorCatalogue } from '../../rest/errors.js';

export const siteDataError = errorCatalogue({
  site_id_missing: { code: 'site_id_missing', message: 'The ID of this site does not exist.', status: 404 },
});
