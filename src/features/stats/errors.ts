/** The errors of the stats feature's `jetpack/v4` routes. */
import { escapeHtml } from '../../core/html.js';
import { errorCatalogue, type RestError } from '../../rest/errors.js';

/** Parameter values are HTML-escaped as WordPress's `esc_html` does (the `jetpack/v4` catalogues' rule). */
export const statsError = errorCatalogue(
  {
    // Siteward counts no visits, so `module/stats/data` has nothing true to answer (docs/spec/current-clients.md A.6).
    stats_not_kept: {
      code: 'stats_not_available',
      message: 'Siteward keeps no visit statistics for this site, so there are no stats to show.',
      status: 404,
    },
    service_unavailable: {
      code: 'service_unavailable',
      message: 'The {service} service at {host} could not be reached. Try again later.',
      status: 502,
    },
  },
  escapeHtml,
);

/** 502 `service_unavailable`: a remote service Siteward asks (Akismet) did not answer usably. */
export function serviceUnavailable(service: string, host: string): RestError {
  return statsError('service_unavailable', { service, host }, { data: { service } });
}
