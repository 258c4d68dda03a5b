/**
 * Monitor (the `monitor` module): uptime checks of the site's URL by exactly one process (the
 * background-job lease holder), a downtime log, notifications by e-mail and webhook, and the
 * last downtime as WordPress's human time difference (docs/spec/compat.md §9; docs/spec/services-facts.md §2).
 */
import type { Feature, FeatureContext } from '../contract.js';
import { featureDb } from '../db/feature-db.js';
import { HISTORY_DAYS_ARG, SITEWARD_NAMESPACE } from '../history-route.js';
import { pluginError } from '../jetpack/errors.js';
import { phpTruthy } from '../../core/php.js';
import { httpProbe } from './http-probe.js';
import { lastDowntimeAnswer } from './last-downtime.js';
import { MONITOR_MIGRATION_NAME, monitorMigration } from './migration.js';
import { KyselyMonitorRepo } from './monitor-repo.js';
import { MonitorRunner } from './monitor-runner.js';
import type { MonitorTables } from './monitor-tables.js';
import { MonitorNotifier, type NotifierOptions } from './notifier.js';
import { UptimeChecker, type MonitorTransition } from './uptime-checker.js';
import { monitorSettings } from './settings.js';
import { DAY_MS } from '../../core/time.js';

const MODULE = 'monitor';
const NOTIFICATIONS_OPTION = 'monitor_receive_notifications';

/** Knobs for tests: the probe timeout and the notifier's retry timing. Production uses the defaults. */
export interface MonitorTuning {
  readonly probeTimeoutMs?: number;
  readonly notifier?: Pick<NotifierOptions, 'backoffMs' | 'sleep' | 'timeoutMs' | 'maxAttempts' | 'onResult'>;
}

export function createMonitorFeature(tuning: MonitorTuning = {}): Feature {
  return {
    name: 'monitor',
    settings: monitorSettings,
    migrations: { [MONITOR_MIGRATION_NAME]: monitorMigration },
    register(ctx) {
      const jetpack = ctx.need('jetpack');
      const { config } = ctx;
      const repo = new KyselyMonitorRepo(featureDb<MonitorTables>(ctx.store));
      const isActive = () => jetpack.isModuleActive(MODULE);
      const notify = transitionNotifier(ctx, tuning);
      const url = config.monitorUrl ?? `${config.homeUrl}/`;
      const runner = new MonitorRunner({
        repo,
        clock: ctx.clock,
        isActive,
        newChecker: () =>
          new UptimeChecker({
            url,
            repo,
            clock: ctx.clock,
            intervalSeconds: config.monitorInterval,
            timeoutMs: tuning.probeTimeoutMs ?? 10_000,
            probe: httpProbe,
            onTransition: notify,
            onError: (error) => ctx.log.error({ err: error }, 'monitor check failed'),
          }),
      });

      // Every job round (10 s): the runner checks when a check is due and reads the active flag,
      // so turning the module off in any worker stops the checks within one round.
      ctx.addJob({ name: 'monitor-check', everyMs: 1000, run: () => runner.round() });
      ctx.addJob({
        name: 'monitor-purge',
        everyMs: 3_600_000,
        run: () => repo.purgeEndedBefore(ctx.clock() - config.historyRetentionDays * DAY_MS),
      });
      // In the worker where the change happens, at once; the others follow at their next round.
      ctx.events.on('module.deactivated', async ({ slug }) => {
        if (slug === MODULE) await runner.pause();
      });
      ctx.events.on('module.activated', ({ slug }) => {
        if (slug === MODULE) runner.resume();
      });

      const permission = jetpack.requirePermission('view_admin');
      const lastDowntime = async () => ((await isActive()) ? lastDowntimeAnswer(await repo.latest(), ctx.clock()) : pluginError('module_not_active'));
      ctx.api.registerRoute('jetpack/v4', '/module/monitor/downtime/last', {
        methods: 'GET',
        permissionCallback: permission,
        callback: lastDowntime,
      });
      // The same answer under the 4.3+ name (docs/spec/current-clients.md A.6).
      jetpack.registerModuleData(MODULE, lastDowntime);
      ctx.api.registerRoute(SITEWARD_NAMESPACE, '/monitor/history', {
        methods: 'GET',
        args: { days: HISTORY_DAYS_ARG },
        permissionCallback: permission,
        callback: async (request) => {
          if (!(await isActive())) return pluginError('module_not_active');
          const days = Number(request.params.days);
          const now = ctx.clock();
          const intervals = await repo.since(now - days * DAY_MS);
          return {
            days,
            intervals: intervals.map((i) => ({
              start: new Date(i.start).toISOString(),
              end: i.end === null ? null : new Date(i.end).toISOString(),
              duration: Math.round(((i.end ?? now) - i.start) / 1000),
              reason: i.reason,
            })),
          };
        },
      });
    },
  };
}

export const monitorFeature: Feature = createMonitorFeature();

/** Queues e-mail (to the administrators) and webhook deliveries when notifications are on; never waits for them. */
function transitionNotifier(ctx: FeatureContext, tuning: MonitorTuning): (event: MonitorTransition) => void {
  const { config } = ctx;
  const notifier = new MonitorNotifier({
    smtpUrl: config.smtpUrl ?? undefined,
    from: config.mailFrom,
    webhookUrl: config.monitorWebhook ?? undefined,
    siteName: config.siteName,
    onResult: (result) => {
      if (result.ok) ctx.log.info({ event: 'monitor.notified', channel: result.channel, transition: result.event.kind }, 'monitor notification sent');
      else ctx.log.warn({ event: 'monitor.notify_failed', channel: result.channel, attempts: result.attempts, error: result.error }, 'monitor notification failed');
    },
    ...tuning.notifier,
  });
  const administrators = async (): Promise<string[]> => {
    const emails: string[] = [];
    for (const user of await ctx.store.users.list()) {
      if ((await ctx.store.users.roles(user.id)).includes('administrator')) emails.push(user.email);
    }
    return emails;
  };
  return (event) => {
    ctx.log.warn({ event: `monitor.${event.kind}`, url: event.url, since: new Date(event.since).toISOString(), reason: event.reason }, `site ${event.kind === 'down' ? 'is down' : 'is back up'}`);
    void (async () => {
      if (!phpTruthy(await ctx.store.options.get(NOTIFICATIONS_OPTION))) return;
      notifier.notify(event, await administrators());
    })().catch((error: unknown) => ctx.log.error({ err: error }, 'monitor notification could not be queued'));
  };
}
