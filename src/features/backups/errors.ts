/** The errors of Siteward's own backups on their `jetpack/v4` routes. */
import { errorCatalogue } from '../../rest/errors.js';

export const backupsError = errorCatalogue({
  backups_not_configured: {
    code: 'backups_not_configured',
    message: 'Backups are not set up on this site (SITEWARD_BACKUP_DIR or SITEWARD_BACKUP_S3_URL).',
    status: 503,
  },
  backup_running: { code: 'backup_running', message: 'A backup is already running.', status: 409 },
});
