/** Every error of Siteward's own monitor routes (`siteward/v1/monitor/…`), in one catalogue. */
import { errorCatalogue, type RestError } from '../../rest/errors.js';

const monitorErrors = errorCatalogue({
  invalid: { code: 'monitor_invalid', message: 'The monitor setting is not valid.', status: 400 },
  check_not_found: { code: 'monitor_check_not_found', message: 'There is no such check.', status: 404 },
  window_not_found: { code: 'monitor_window_not_found', message: 'There is no such maintenance window.', status: 404 },
  site_check_kept: {
    code: 'monitor_site_check_kept',
    message: 'The site’s own check cannot be removed; turn the Monitor module off to stop checking.',
    status: 409,
  },
  too_many_checks: { code: 'monitor_too_many_checks', message: 'A site has at most 5 checks besides its own URL.', status: 409 },
  too_many_windows: {
    code: 'monitor_too_many_windows',
    message: 'A site has at most 50 maintenance windows: remove one first.',
    status: 409,
  },
  nothing_to_notify: {
    code: 'monitor_no_channel',
    message: 'No notification channel is set up: configure SITEWARD_SMTP_URL with recipients, or SITEWARD_MONITOR_WEBHOOK.',
    status: 409,
  },
});

export type MonitorErrorId = keyof typeof monitorErrors.entries;

/**
 * A catalogue error; `detail` (one line, which field and why) goes into `data.detail`.
 *
 * @example
 * monitorError('invalid', 'expectedStatus: "abc" is not a status') // 400 monitor_invalid
 */
export function monitorError(id: MonitorErrorId, detail?: string): RestError {
  return detail === undefined ? monitorErrors(id) : monitorErrors(id, { data: { detail } });
}
