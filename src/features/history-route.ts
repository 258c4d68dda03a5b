/**
 * Pieces shared by the history routes of the services Siteward runs itself (protect, monitor):
 * Siteward's own REST namespace, the `days` argument and the site's time zone for day buckets.
 */
import type { ArgDefinition } from '../rest/types.js';
import type { OptionsRepo } from '../store/types.js';

export const SITEWARD_NAMESPACE = 'siteward/v1';

/** `?days=N`: 1..365, default 30; the REST layer refuses anything else with 400 rest_invalid_param. */
export const HISTORY_DAYS_ARG: ArgDefinition = {
  type: 'integer',
  minimum: 1,
  maximum: 365,
  default: 30,
  description: 'How many days back, today included.',
};

/** The site's IANA time zone (option `timezone_string`), UTC when unset or unknown. */
export async function siteTimeZone(options: OptionsRepo, fallback: string): Promise<string> {
  const stored = await options.get('timezone_string');
  const zone = typeof stored === 'string' && stored !== '' ? stored : fallback;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}
