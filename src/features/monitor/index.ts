/**
 * Monitor (the `monitor` module): uptime checks of the site's URL and a few more URLs of the
 * same site (status, keyword, response time, certificate expiry), response-time history and
 * uptime, maintenance windows, notifications by e-mail and webhook, and the last downtime as
 * WordPress's human time difference (docs/spec/compat.md §9; docs/spec/services-facts.md §2).
 *
 * Every host sharing the store checks (one process per host, by a lease named after the host)
 * and votes; the background-job leader decides, by a majority of the hosts that voted within
 * the last interval, when a check is down, records it and notifies, once per change.
 */
import { RequestSources } from '../audit/index.js';
import { randomUUID } from 'node:crypto';
import type { Feature, FeatureContext } from '../contract.js';
import { featureDb } from '../db/feature-db.js';
import { registerHistoryRoute, siteTimeZone } from '../history-route.js';
import { defineRoute } from '../../rest/define-route.js';
import { phpTruthy } from '../../core/php.js';
import { dueCertificateWarning } from './certificate-warnings.js';
import { HostProber, checkTargetUrl } from './host-prober.js';
import type { ProbeResult } from './http-probe.js';
import { lastDowntimeAnswer } from './last-downtime.js';
import { activeMaintenance } from './maintenance.js';
import {
  MONITOR_CHECKS_MIGRATION_NAME,
  MONITOR_MIGRATION_NAME,
  MONITOR_NO_DATA_MIGRATION_NAME,
  monitorChecksMigration,
  monitorMigration,
  monitorNoDataMigration,
} from './migration.js';
import { monitorCommand } from './monitor-command.js';
import { KyselyMonitorRepo } from './monitor-repo.js';
import { registerMonitorRoutes } from './monitor-routes.js';
import { registerMonitorAbilities } from './abilities.js';
import { MonitorRunner } from './monitor-runner.js';
import { storedNotifications } from './monitor-inputs.js';
import { EMAIL_ALERTS_OPTION, MonitorService, NOTIFICATION_SETTINGS_OPTION } from './monitor-service.js';
import { MonitorStore, SITE_CHECK_ID, type StoredCheck } from './monitor-store.js';
import type { MonitorTables } from './monitor-tables.js';
import { MonitorNotifier, type MonitorEvent, type NotifierOptions } from './notifier.js';
import { quorumVerdict } from './quorum.js';
import { monitorServiceGap } from './monitor-target.js';
import { monitorSettings } from './settings.js';
import { UptimeChecker } from './uptime-checker.js';
import { DAY_MS } from '../../core/time.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';

const MODULE = 'monitor';

/** Knobs for tests: the probe timeout, extra trusted CAs, and the notifier's retry timing. Production uses the defaults. */
export interface MonitorTuning {
  readonly probeTimeoutMs?: number;
  /** Certificate authorities (PEM) trusted beside the system's, e.g. a test's own. */
  readonly ca?: readonly string[];
  readonly notifier?: Pick<NotifierOptions, 'backoffMs' | 'sleep' | 'timeoutMs' | 'maxAttempts' | 'onResult'>;
}

export function createMonitorFeature(tuning: MonitorTuning = {}): Feature {
  return {
    name: 'monitor',
    settings: monitorSettings,
    migrations: {
      [MONITOR_MIGRATION_NAME]: monitorMigration,
      [MONITOR_CHECKS_MIGRATION_NAME]: monitorChecksMigration,
      [MONITOR_NO_DATA_MIGRATION_NAME]: monitorNoDataMigration,
    },
    register(ctx) {
      const jetpack = ctx.need('jetpack');
      const { config, clock } = ctx;
      const db = featureDb<MonitorTables>(ctx.store);
      const store = new MonitorStore(db);
      const repoFor = (checkId: number) => new KyselyMonitorRepo(db, checkId);
      const isActive = () => jetpack.isModuleActive(MODULE);
      const siteUrl = config.monitorUrl ?? `${config.homeUrl}/`;
      const gap = monitorServiceGap(config.monitorUrl, config.homeUrl);
      jetpack.registerServiceCheck(MODULE, () => gap);
      const timeZone = () => siteTimeZone(ctx.store.options, config.timezone);
      const intervalMs = config.monitorInterval * 1000;
      const timeoutMs = tuning.probeTimeoutMs ?? 10_000;
      // A host's vote counts when cast within the last interval, plus the time a check and a job round may take.
      const freshMs = intervalMs + timeoutMs + Math.ceil(config.jobLeaseMs / 3) + 1000;
      const inMaintenance = async (at: number) => activeMaintenance(await store.maintenanceWindows(), at, await timeZone()) !== null;
      const prober = new HostProber({
        store,
        status: ctx.store.status,
        host: config.hostId,
        clock,
        timeoutMs,
        intervalMs,
        siteUrl,
        probeOptions: {
          ...(config.monitorSourceAddress !== null ? { localAddress: config.monitorSourceAddress } : {}),
          ...(tuning.ca !== undefined ? { ca: tuning.ca } : {}),
        },
        inMaintenance,
      });
      // One prober per host: the processes of one host (workers) share a lease named after it.
      const proberId = `${config.hostId}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const holdsHostProbe = () => ctx.store.leases.acquire(`monitor-probe:${config.hostId}`, proberId, config.jobLeaseMs, clock());

      const notifications = transitionNotifier(ctx, tuning);
      const repeatMs = async () => (await service.notifications()).repeatMinutes * 60_000;

      /** The leader's view of a check: its own probe (when it is this host's prober) and the other hosts' votes. */
      const verdict = (check: StoredCheck) => async (): Promise<ProbeResult> => {
        const own = (await holdsHostProbe()) ? await prober.probe(check) : null;
        const votes = await store.votes(check.id, clock() - freshMs);
        if (votes.length === 0) return own ?? { up: true, status: 0 };
        const result = quorumVerdict(votes, own !== null && !own.up ? own.reason : null);
        return result.down ? { up: false, kind: 'connection', reason: result.reason } : { up: true, status: 0 };
      };

      const runner = new MonitorRunner({
        checks: () => store.checks(),
        repoFor,
        clock,
        isActive,
        newChecker: (check) =>
          new UptimeChecker({
            url: checkTargetUrl(check, siteUrl),
            repo: repoFor(check.id),
            clock,
            intervalSeconds: config.monitorInterval,
            timeoutMs,
            probe: verdict(check),
            onTransition: (event) => notifications.tell(event),
            onError: (error) => ctx.log.error({ err: error, check: check.id }, 'monitor check failed'),
            inMaintenance,
            repeatMs,
          }),
        afterTick: async (check) => {
          const warning = await dueCertificateWarning(ctx.store.status, check.id, checkTargetUrl(check, siteUrl), clock());
          if (warning !== null) notifications.tell(warning);
        },
      });
      // Every job round: the runner checks when a check is due and reads the active flag,
      // so turning the module off in any worker stops the checks within one round.
      ctx.addJob({ name: 'monitor-check', everyMs: 1000, run: () => runner.round() });
      // The other hosts' checks: each votes, the leader (above) counts the votes.
      ctx.addJob({
        name: 'monitor-probe',
        everyMs: 1000,
        everyProcess: true,
        run: async (round) => {
          if (round?.leading !== false || !(await isActive()) || !(await holdsHostProbe())) return;
          await prober.round(await store.checks());
        },
      });
      ctx.addJob({
        name: 'monitor-purge',
        everyMs: 3_600_000,
        run: () => repoFor(SITE_CHECK_ID).purgeEndedBefore(clock() - config.historyRetentionDays * DAY_MS),
      });
      // In the worker where the change happens, at once; the others follow at their next round.
      ctx.events.on('module.deactivated', async ({ slug }) => {
        if (slug === MODULE) await runner.pause();
      });
      ctx.events.on('module.activated', ({ slug }) => {
        if (slug === MODULE) {
          runner.resume();
          prober.reset();
        }
      });

      const service: MonitorService = new MonitorService({
        store,
        repoFor,
        options: ctx.store.options,
        transaction: (fn) => ctx.store.transaction(fn),
        status: ctx.store.status,
        clock,
        siteUrl,
        timeZone,
        isActive,
        freshMs,
        administrators: async () => {
          const found: { id: number; name: string }[] = [];
          for (const user of await ctx.store.users.list()) {
            if ((await ctx.store.users.roles(user.id)).includes('administrator'))
              found.push({ id: user.id, name: user.displayName || user.login });
          }
          return found;
        },
        sendTest: async () => notifications.sendNow({ kind: 'test', url: siteUrl, at: clock() }),
        webhookConfigured: (config.monitorWebhook ?? '') !== '',
      });

      const permission = jetpack.permission('view_admin');
      const active = jetpack.moduleActive(MODULE);
      const lastDowntime = async () => lastDowntimeAnswer(await repoFor(SITE_CHECK_ID).latest(), clock());
      ctx.api.registerRoute(
        JETPACK_NAMESPACE,
        '/module/monitor/downtime/last',
        defineRoute({ permission, guards: [active], handler: lastDowntime }),
      );
      // The same answer under the 4.3+ name (docs/spec/current-clients.md A.6).
      jetpack.registerModuleData(MODULE, jetpack.whenModuleActive(MODULE, lastDowntime));
      registerHistoryRoute(ctx.api, '/monitor/history', permission, (days) => service.glance(days), [active]);
      registerMonitorRoutes(ctx.api, service, jetpack.permission('manage_settings'), new RequestSources(ctx.store.appPasswords, clock));
      registerMonitorAbilities(ctx.api, service, jetpack.allows, () => jetpack.isModuleActive(MODULE));
      ctx.addCommand(monitorCommand(service));
    },
  };
}

export const monitorFeature: Feature = createMonitorFeature();

/**
 * Queues the deliveries of a change, never waiting for them: the webhook whenever one is
 * configured, e-mail (to the chosen administrators and extra addresses) when e-mail alerts are
 * on. Tests (`sendNow`) go out on every configured channel whether or not alerts are on.
 */
function transitionNotifier(ctx: FeatureContext, tuning: MonitorTuning) {
  const { config } = ctx;
  const notifier = new MonitorNotifier({
    smtpUrl: config.smtpUrl ?? undefined,
    from: config.mailFrom,
    webhookUrl: config.monitorWebhook ?? undefined,
    webhookFormat: config.monitorWebhookFormat,
    siteName: config.siteName,
    onResult: (result) => {
      if (result.ok)
        ctx.log.info({ event: 'monitor.notified', channel: result.channel, transition: result.event.kind }, 'monitor notification sent');
      else
        ctx.log.warn(
          { event: 'monitor.notify_failed', channel: result.channel, attempts: result.attempts, error: result.error },
          'monitor notification failed',
        );
    },
    ...tuning.notifier,
  });
  const recipients = async (): Promise<string[]> => {
    const settings = storedNotifications(await ctx.store.options.get(NOTIFICATION_SETTINGS_OPTION));
    const emails: string[] = [];
    for (const user of await ctx.store.users.list()) {
      if (settings.administrators !== null && !settings.administrators.includes(user.id)) continue;
      if ((await ctx.store.users.roles(user.id)).includes('administrator')) emails.push(user.email);
    }
    return [...new Set([...emails, ...settings.emails])];
  };
  return {
    tell(event: MonitorEvent): void {
      ctx.log.warn({ event: `monitor.${event.kind}`, url: event.url }, `monitor: ${notifier.describe(event).subject}`);
      void (async () => {
        const email = phpTruthy(await ctx.store.options.get(EMAIL_ALERTS_OPTION));
        notifier.notify(event, email ? await recipients() : []);
      })().catch((error: unknown) => ctx.log.error({ err: error }, 'monitor notification could not be queued'));
    },
    async sendNow(event: MonitorEvent) {
      return notifier.sendNow(event, await recipients());
    },
  };
}
