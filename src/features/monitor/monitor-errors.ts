/** Every error of Siteward's own monitor routes (`siteward/v1/monitor/…`), in one catalogue. */
import { RestError } from '../../rest/errors.js';

const catalogue = {
  invalid: ['monitor_invalid', 'The monitor setting is not valid.', 400],
  check_not_found: ['monitor_check_not_found', 'There is no such check.', 404],
  window_not_found: ['monitor_window_not_found', 'There is no such maintenance window.', 404],
  site_check_kept: [
    'monitor_site_check_kept',
    'The site’s own check cannot be removed; turn the Monitor module off to stop checking.',
    409,
  ],
  too_many_checks: ['monitor_too_many_checks', 'A site has at most 5 checks besides its own URL.', 409],
  too_many_windows: ['monitor_too_many_windows', 'A site has at most 50 maintenance windows: remove one first.', 409],
  nothing_to_notify: [
    'monitor_no_channel',
    'No notification channel is set up: configure SITEWARD_SMTP_URL with recipients, or SITEWARD_MONITOR_WEBHOOK.',
    409,
  ],
} as const satisfies Record<string, readonly [string, string, number]>;

export type MonitorErrorId = keyof typeof catalogue;

/**
 * A catalogue error; `detail` (one line, which field and why) goes into `data.detail`.
 *
 * @example
 * monitorError('invalid', 'expectedStatus: "abc" is not a status') // 400 monitor_invalid
 */
export function monitorError(id: MonitorErrorId, detail?: string): RestError {
  const [code, message, status] = catalogue[id];
  return new RestError(code, message, detail === undefined ? { status } : { status, detail });
}
