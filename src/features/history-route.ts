/**
 * Pieces shared by the history routes of the services Siteward runs itself (protect, monitor):
 * Siteward's own REST namespace, the `days` argument, the route itself and the site's time zone
 * for day buckets.
 */
import type { SitewardApi } from '../plugins/api.js';
import type { ArgDefinition, CallbackResult, PermissionCallback, RestRequest } from '../rest/types.js';
import type { OptionsRepo } from '../store/types.js';
import { isTimeZone } from '../core/time-zone.js';

export const SITEWARD_NAMESPACE = 'siteward/v1';

/** `?days=N`: 1..365, default 30; the REST layer refuses anything else with 400 rest_invalid_param. */
export const HISTORY_DAYS_ARG: ArgDefinition = {
  type: 'integer',
  minimum: 1,
  maximum: 365,
  default: 30,
  description: 'How many days back, today included.',
};

/**
 * Registers `GET siteward/v1{path}?days=N`; `answer` gets the validated number of days. Wrap it
 * (e.g. in `jetpack.whenModuleActive`) to add a guard.
 *
 * @example
 * registerHistoryRoute(ctx.api, '/protect/history', permission, jetpack.whenModuleActive('protect', (days) => historyOf(days)));
 */
export function registerHistoryRoute(
  api: Pick<SitewardApi, 'registerRoute'>,
  path: string,
  permissionCallback: PermissionCallback,
  answer: (days: number, request: RestRequest) => CallbackResult | Promise<CallbackResult>,
): void {
  api.registerRoute(SITEWARD_NAMESPACE, path, {
    methods: 'GET',
    args: { days: HISTORY_DAYS_ARG },
    permissionCallback,
    callback: (request) => answer(Number(request.params.days), request),
  });
}

/** The site's IANA time zone (option `timezone_string`), UTC when unset or unknown. */
export async function siteTimeZone(options: OptionsRepo, fallback: string): Promise<string> {
  const stored = await options.get('timezone_string');
  const zone = typeof stored === 'string' && stored !== '' ? stored : fallback;
  return isTimeZone(zone) ? zone : 'UTC';
}
