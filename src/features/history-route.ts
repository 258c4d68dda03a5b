/**
 * Pieces shared by the history routes of the services Siteward runs itself (protect, monitor):
 * Siteward's own REST namespace, the `days` argument, the route itself and the site's time zone
 * for day buckets.
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../plugins/api.js';
import { asNamed, defineRoute, type Guard, type NamedPermission } from '../rest/define-route.js';
import type { CallbackResult, PermissionCallback, RestRequest } from '../rest/types.js';
import type { OptionsRepo } from '../store/types.js';
import { isTimeZone } from '../core/time-zone.js';

export const SITEWARD_NAMESPACE = 'siteward/v1';

/** `?days=N`: 1..365, default 30; the REST layer refuses anything else with 400 rest_invalid_param. */
export const HISTORY_QUERY = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'How many days back, today included.' }),
});

/**
 * Registers `GET siteward/v1{path}?days=N`; `answer` gets the validated number of days, after
 * the permission check and the `guards` (e.g. `jetpack.moduleActive('protect')`).
 *
 * @example
 * registerHistoryRoute(ctx.api, '/protect/history', permission, (days) => historyOf(days), [jetpack.moduleActive('protect')]);
 */
export function registerHistoryRoute(
  api: Pick<SitewardApi, 'registerRoute'>,
  path: string,
  check: NamedPermission | PermissionCallback,
  answer: (days: number, request: RestRequest) => CallbackResult | Promise<CallbackResult>,
  guards: readonly Guard[] = [],
): void {
  api.registerRoute(
    SITEWARD_NAMESPACE,
    path,
    defineRoute({ query: HISTORY_QUERY, permission: asNamed(check), guards, handler: ({ query, request }) => answer(query.days, request) }),
  );
}

/** The site's IANA time zone (option `timezone_string`), UTC when unset or unknown. */
export async function siteTimeZone(options: OptionsRepo, fallback: string): Promise<string> {
  const stored = await options.get('timezone_string');
  const zone = typeof stored === 'string' && stored !== '' ? stored : fallback;
  return isTimeZone(zone) ? zone : 'UTC';
}
