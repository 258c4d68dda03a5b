/**
 * The monitor's operations, shared by its REST routes, the admin page (through them) and the
 * CLI: what the screen shows, the checks, the maintenance windows and who is notified.
 */
import { audited, type AuditSource } from '../audit/index.js';
import type { StoreTx } from '../../store/types.js';
import type { OptionsRepo, StatusRepo } from '../../store/types.js';
import type { MonitorErrorId } from './monitor-errors.js';
import { checkTargetUrl, certificateKey, readCertificate } from './host-prober.js';
import { activeMaintenance, type MaintenanceWindow } from './maintenance.js';
import { MONITOR_LIMITS, parseCheck, parseMaintenance, parseNotifications, storedNotifications } from './monitor-inputs.js';
import type { DowntimeInterval, MonitorRepo, NoDataPeriod } from './monitor-repo.js';
import { SITE_CHECK_ID, type MonitorStore, type Sample, type StoredCheck } from './monitor-store.js';
import type { DeliveryResult } from './notifier.js';
import { phpTruthy } from '../../core/php.js';
import { uptimeFigures } from './uptime.js';
import { DAY_MS } from '../../core/time.js';
import type {
  MaintenanceWindowJson,
  MonitorCheck,
  MonitorCheckHistory,
  MonitorCheckState,
  MonitorHistory,
  MonitorNotifications,
  MonitorOverview,
  MonitorTestAnswer,
  NoDataInterval,
} from '../../wire/siteward-v1.js';

export const NOTIFICATION_SETTINGS_OPTION = 'siteward_monitor_notifications';
/** The module's own option (Jetpack's), off by default: whether real alerts go out by e-mail. */
export const EMAIL_ALERTS_OPTION = 'monitor_receive_notifications';
/** Checks besides the site's own URL. */
export const MAX_EXTRA_CHECKS = 5;
/** A chart of a year of minutes would be 525,600 points: response times are averaged into at most this many buckets. */
const MAX_POINTS = 480;

export type Outcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: MonitorErrorId; readonly detail?: string };
const refuse = (error: MonitorErrorId, detail?: string): Outcome<never> => ({
  ok: false,
  error,
  ...(detail === undefined ? {} : { detail }),
});

export interface MonitorServiceDeps {
  readonly store: MonitorStore;
  readonly repoFor: (checkId: number) => MonitorRepo;
  readonly options: OptionsRepo;
  /** A store transaction (changes with their audit events). */
  readonly transaction: <T>(fn: (tx: StoreTx) => Promise<T>) => Promise<T>;
  readonly status: StatusRepo;
  readonly clock: () => number;
  readonly siteUrl: string;
  readonly timeZone: () => Promise<string>;
  readonly isActive: () => Promise<boolean>;
  /** Hosts' votes count when cast within this many ms. */
  readonly freshMs: number;
  /** The site's administrators, whom notifications may go to. */
  readonly administrators: () => Promise<{ id: number; name: string }[]>;
  /** Sends a test notification to the current recipients now. */
  readonly sendTest: () => Promise<DeliveryResult[]>;
  /** Whether SITEWARD_MONITOR_WEBHOOK is set. */
  readonly webhookConfigured: boolean;
}

/** A check as the Monitor screen reads it (the wire type the page shares). */
export type CheckStatus = MonitorCheck;

const iso = (ms: number): string => new Date(ms).toISOString();
const downJson = (d: DowntimeInterval, now: number) => ({
  start: iso(d.start),
  end: d.end === null ? null : iso(d.end),
  duration: Math.round(((d.end ?? now) - d.start) / 1000),
  reason: d.reason,
});
const noDataJson = (g: NoDataPeriod): NoDataInterval => ({
  start: iso(g.start),
  end: iso(g.end),
  duration: Math.round((g.end - g.start) / 1000),
});

/**
 * Down while a downtime is open; unknown until a recent sample says otherwise. In a maintenance
 * window no downtime is recorded, but a site whose latest check failed is still shown down: the
 * window keeps alerts and uptime out, it does not make the site up.
 */
function stateOf(
  open: { readonly start: number } | null,
  last: Sample | undefined,
  maintenance: boolean,
): Pick<MonitorCheckState, 'state' | 'downSince' | 'maintenance'> {
  if (maintenance && last?.outcome === 'down') return { state: 'down', downSince: null, maintenance };
  return {
    state: open !== null ? 'down' : last !== undefined ? 'up' : 'unknown',
    downSince: open === null ? null : iso(open.start),
    maintenance,
  };
}

export function windowJson(window: MaintenanceWindow): MaintenanceWindowJson {
  return window.kind === 'once' ? { ...window, starts: iso(window.starts), ends: iso(window.ends) } : { ...window };
}

export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  async notifications(): Promise<MonitorNotifications> {
    const [stored, email] = await Promise.all([this.deps.options.get(NOTIFICATION_SETTINGS_OPTION), this.emailAlerts()]);
    return { ...storedNotifications(stored), email, webhook: this.deps.webhookConfigured };
  }

  /** Whether real alerts go out by e-mail; the webhook, when configured, is called whatever this says. */
  async emailAlerts(): Promise<boolean> {
    return phpTruthy(await this.deps.options.get(EMAIL_ALERTS_OPTION));
  }

  /** Who is told, and (`email`, a boolean) whether real alerts go out by e-mail: the Monitor screen's one form. */
  async setNotifications(body: Readonly<Record<string, unknown>>, source: AuditSource): Promise<Outcome<MonitorNotifications>> {
    const parsed = parseNotifications(body, storedNotifications(await this.deps.options.get(NOTIFICATION_SETTINGS_OPTION)));
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    if ('email' in body && typeof body.email !== 'boolean') return refuse('invalid', 'email must be true or false');
    await audited(
      this.deps.transaction,
      source,
      async (tx) => {
        await tx.options.set(NOTIFICATION_SETTINGS_OPTION, {
          ...parsed.value,
          administrators: parsed.value.administrators === null ? null : [...parsed.value.administrators],
          emails: [...parsed.value.emails],
        });
        if (typeof body.email === 'boolean') await tx.options.set(EMAIL_ALERTS_OPTION, body.email);
      },
      (_, changes) =>
        Object.keys(changes).length === 0
          ? null
          : { action: 'monitor.notifications_updated', object: { type: 'module', id: 'monitor', name: 'Monitor' } },
    );
    return { ok: true, value: await this.notifications() };
  }

  /** Everything the Monitor screen shows at the top: each check's state, uptime and certificate; the windows. */
  async overview(): Promise<MonitorOverview> {
    const { store, clock } = this.deps;
    const now = clock();
    const zone = await this.deps.timeZone();
    const windows = await store.maintenanceWindows();
    const active = activeMaintenance(windows, now, zone);
    const checks: CheckStatus[] = [];
    for (const check of await store.checks()) checks.push(await this.checkStatus(check, windows, now, zone));
    return {
      active: await this.deps.isActive(),
      now: iso(now),
      timeZone: zone,
      checks,
      maintenance: {
        current: active === null ? null : { ...windowJson(active.window), until: iso(active.until) },
        windows: windows.map(windowJson),
      },
      notifications: await this.notifications(),
      administrators: await this.deps.administrators(),
    };
  }

  /** Each check's state alone, for At a Glance: far cheaper than `overview` (no uptime figures). */
  async states(): Promise<MonitorCheckState[]> {
    const now = this.deps.clock();
    const maintenance = activeMaintenance(await this.deps.store.maintenanceWindows(), now, await this.deps.timeZone()) !== null;
    return Promise.all(
      (await this.deps.store.checks()).map(async (check) => {
        const [open, samples] = await Promise.all([
          this.deps.repoFor(check.id).openInterval(),
          this.deps.store.samples(check.id, now - this.deps.freshMs),
        ]);
        return {
          id: check.id,
          site: check.id === SITE_CHECK_ID,
          url: checkTargetUrl(check, this.deps.siteUrl),
          ...stateOf(open, samples[samples.length - 1], maintenance),
        };
      }),
    );
  }

  private async checkStatus(check: StoredCheck, windows: readonly MaintenanceWindow[], now: number, zone: string): Promise<CheckStatus> {
    const repo = this.deps.repoFor(check.id);
    const [open, downtimes, noData, first, samples, votes, certRow] = await Promise.all([
      repo.openInterval(),
      repo.since(now - 365 * DAY_MS),
      repo.noDataSince(now - 365 * DAY_MS),
      this.deps.store.firstSampleAt(check.id),
      this.deps.store.samples(check.id, now - this.deps.freshMs),
      this.deps.store.votes(check.id, now - this.deps.freshMs),
      this.deps.status.get(certificateKey(check.id)),
    ]);
    const certificate = readCertificate(certRow?.value);
    const last = samples[samples.length - 1];
    const lastError = votes.find((v) => v.down)?.reason ?? open?.reason ?? null;
    return {
      id: check.id,
      site: check.id === SITE_CHECK_ID,
      url: checkTargetUrl(check, this.deps.siteUrl),
      expectedStatus: check.expectedStatus,
      keyword: check.keyword,
      keywordAbsent: check.keywordAbsent,
      slowMs: check.slowMs,
      ...stateOf(open, last, activeMaintenance(windows, now, zone) !== null),
      lastError,
      lastResponseMs: last?.ms ?? null,
      uptime: uptimeFigures(downtimes, noData, windows, first, now, zone),
      certificate:
        certificate === null
          ? null
          : {
              validTo: iso(certificate.validTo),
              daysLeft: Math.floor((certificate.validTo - now) / DAY_MS),
              subject: certificate.subject,
              issuer: certificate.issuer,
              error: certificate.error,
            },
      hosts: votes.map((v) => ({ host: v.host, down: v.down, at: iso(v.at), reason: v.reason })),
    };
  }

  /** Response times (averaged into buckets) and downtimes of one check over `days`. */
  async history(checkId: number, days: number): Promise<Outcome<MonitorCheckHistory>> {
    const check = (await this.deps.store.checks()).find((c) => c.id === checkId);
    if (check === undefined) return refuse('check_not_found');
    const now = this.deps.clock();
    const from = now - days * DAY_MS;
    const samples = await this.deps.store.samples(checkId, from);
    const bucketMs = Math.max(60_000, Math.ceil((now - from) / MAX_POINTS / 60_000) * 60_000);
    const buckets = new Map<number, { sum: number; n: number; down: number; slow: number; total: number }>();
    for (const s of samples) {
      const key = Math.floor(s.at / bucketMs) * bucketMs;
      const b = buckets.get(key) ?? { sum: 0, n: 0, down: 0, slow: 0, total: 0 };
      b.total += 1;
      if (s.outcome === 'down') b.down += 1;
      if (s.outcome === 'slow') b.slow += 1;
      if (s.ms !== null) {
        b.sum += s.ms;
        b.n += 1;
      }
      buckets.set(key, b);
    }
    const repo = this.deps.repoFor(checkId);
    const [downtimes, noData, first] = await Promise.all([
      repo.since(from),
      repo.noDataSince(from),
      this.deps.store.firstSampleAt(checkId),
    ]);
    return {
      ok: true,
      value: {
        check: checkId,
        days,
        bucketSeconds: bucketMs / 1000,
        points: [...buckets.entries()].map(([at, b]) => ({
          at: iso(at),
          ms: b.n === 0 ? null : Math.round(b.sum / b.n),
          checks: b.total,
          down: b.down,
          slow: b.slow,
        })),
        downtimes: downtimes.map((d) => downJson(d, now)),
        noData: noData.map(noDataJson),
        monitoredSince: first === null ? null : iso(first),
      },
    };
  }

  /** At a Glance's view (`siteward/v1/monitor/history`): the site's downtimes and no-data periods, every check's state. */
  async glance(days: number): Promise<MonitorHistory> {
    const now = this.deps.clock();
    const repo = this.deps.repoFor(SITE_CHECK_ID);
    const [intervals, noData, first, checks] = await Promise.all([
      repo.since(now - days * DAY_MS),
      repo.noDataSince(now - days * DAY_MS),
      this.deps.store.firstSampleAt(SITE_CHECK_ID),
      this.states(),
    ]);
    return {
      days,
      // Every check's state (the site's first), so At a Glance shows more than the site.
      checks,
      intervals: intervals.map((i) => downJson(i, now)),
      noData: noData.map(noDataJson),
      monitoredSince: first === null ? null : iso(first),
    };
  }

  async addCheck(body: Readonly<Record<string, unknown>>, source: AuditSource): Promise<Outcome<StoredCheck>> {
    const checks = await this.deps.store.checks();
    if (checks.filter((c) => c.id !== SITE_CHECK_ID).length >= MAX_EXTRA_CHECKS) return refuse('too_many_checks');
    const parsed = parseCheck(body, null, false);
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    return { ok: true, value: await this.deps.store.addCheck(parsed.value, this.deps.clock(), source) };
  }

  async updateCheck(id: number, body: Readonly<Record<string, unknown>>, source: AuditSource): Promise<Outcome<StoredCheck>> {
    const current = (await this.deps.store.checks()).find((c) => c.id === id);
    if (current === undefined) return refuse('check_not_found');
    const parsed = parseCheck(body, current, id === SITE_CHECK_ID);
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    const updated = await this.deps.store.updateCheck(id, parsed.value, source);
    return updated === null ? refuse('check_not_found') : { ok: true, value: updated };
  }

  async removeCheck(id: number, source: AuditSource): Promise<Outcome<true>> {
    if (id === SITE_CHECK_ID) return refuse('site_check_kept');
    return (await this.deps.store.removeCheck(id, source)) ? { ok: true, value: true } : refuse('check_not_found');
  }

  async windows(): Promise<MaintenanceWindow[]> {
    return this.deps.store.maintenanceWindows();
  }

  async addWindow(body: Readonly<Record<string, unknown>>, source: AuditSource): Promise<Outcome<MaintenanceWindow>> {
    const parsed = parseMaintenance(body, await this.deps.timeZone());
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    if ((await this.deps.store.maintenanceWindows()).length >= MONITOR_LIMITS.windows) return refuse('too_many_windows');
    return { ok: true, value: await this.deps.store.addMaintenance(parsed.value, this.deps.clock(), source) };
  }

  async removeWindow(id: number, source: AuditSource): Promise<Outcome<true>> {
    return (await this.deps.store.removeMaintenance(id, source)) ? { ok: true, value: true } : refuse('window_not_found');
  }

  /** Sends a test on every channel, and says which of them real alerts do not go out on (a test goes out regardless). */
  async sendTest(): Promise<Outcome<MonitorTestAnswer>> {
    const results = await this.deps.sendTest();
    if (results.length === 0) return refuse('nothing_to_notify');
    const alerts = { email: await this.emailAlerts(), webhook: this.deps.webhookConfigured };
    const emailTested = results.some((r) => r.channel === 'email');
    const note =
      emailTested && !alerts.email
        ? alerts.webhook
          ? 'This was a test. Real alerts go to the webhook only: e-mail alerts are off (turn on "E-mail alerts about downtime" on the Monitor screen).'
          : 'This was a test. No real alert goes out: e-mail alerts are off (turn on "E-mail alerts about downtime" on the Monitor screen) and no webhook is set (SITEWARD_MONITOR_WEBHOOK).'
        : undefined;
    return {
      ok: true,
      value: {
        results: results.map((r) => ({ channel: r.channel, ok: r.ok, ...(r.ok ? {} : { error: r.error }) })),
        alerts,
        ...(note === undefined ? {} : { note }),
      },
    };
  }
}
