/**
 * Spam-filter statistics (docs/spec/compat.md §9): `GET jetpack/v4/akismet/stats/get` from an
 * Akismet-compatible service (`SITEWARD_AKISMET_URL`, `SITEWARD_AKISMET_KEY`), always 200 with
 * the stats or a bare code string, except a service that is down with nothing cached: 502.
 */
import type { Feature } from '../contract.js';
import { isRestError } from '../../rest/errors.js';
import { serviceUnavailable, statsError } from './errors.js';
import { AkismetClient } from './akismet-client.js';
import { akismetStatsAnswer } from './akismet-stats-answer.js';
import { statsSettings } from './settings.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';

export interface StatsFeatureOptions {
  /** Per call to the service. Default 5 s; tests shorten it. */
  readonly timeoutMs?: number;
}

export function createStatsFeature(options: StatsFeatureOptions = {}): Feature {
  return {
    name: 'stats',
    settings: statsSettings,
    register(ctx) {
      const jetpack = ctx.need('jetpack');
      const { akismetUrl, akismetKey, homeUrl } = ctx.config;
      const client = new AkismetClient({ baseUrl: akismetUrl, clock: ctx.clock, timeoutMs: options.timeoutMs });
      const config = akismetKey === null ? null : { key: akismetKey, blog: homeUrl };
      const stats = async () => {
        const answer = await akismetStatsAnswer(client, config);
        if (answer.kind === 'unavailable') {
          ctx.log.warn({ problem: answer.problem, service: akismetUrl }, 'Akismet could not be asked for stats');
          return serviceUnavailable('Akismet', new URL(akismetUrl).host);
        }
        if (answer.problem !== undefined) ctx.log.warn({ problem: answer.problem }, 'Akismet refused the key');
        return answer.body;
      };
      ctx.api.registerRoute(
        JETPACK_NAMESPACE,
        '/akismet/stats/get',
        defineRoute({ permission: jetpack.permission('view_admin'), handler: stats }),
      );
      // 4.3+: the all-time spam count as a bare integer, or the same bare code string (docs/spec/current-clients.md A.6).
      jetpack.registerModuleData('akismet', async () => {
        const body = await stats();
        return typeof body === 'object' && !isRestError(body) ? body.all.spam : body;
      });
      // Siteward counts no visits: an honest error rather than empty stats.
      jetpack.registerModuleData('stats', () => statsError('stats_not_kept'));
    },
  };
}

export const statsFeature = createStatsFeature();
