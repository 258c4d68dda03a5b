/**
 * The monitor's operations, shared by its REST routes, the admin page (through them) and the
 * CLI: what the screen shows, the checks, the maintenance windows and who is notified.
 */
import type { OptionsRepo, StatusRepo } from '../../store/types.js';
import type { MonitorErrorId } from './monitor-errors.js';
import { checkTargetUrl, certificateKey, readCertificate } from './host-prober.js';
import { activeMaintenance, type MaintenanceWindow } from './maintenance.js';
import { parseCheck, parseMaintenance, parseNotifications, storedNotifications, type NotificationSettings } from './monitor-inputs.js';
import type { DowntimeInterval, MonitorRepo } from './monitor-repo.js';
import { SITE_CHECK_ID, type MonitorStore, type StoredCheck } from './monitor-store.js';
import type { DeliveryResult } from './notifier.js';
import { uptimeFigures } from './uptime.js';
import { DAY_MS } from '../../core/time.js';
import type {
  MaintenanceWindowJson,
  MonitorCheck,
  MonitorCheckHistory,
  MonitorCheckState,
  MonitorOverview,
} from '../../wire/siteward-v1.js';

export const NOTIFICATION_SETTINGS_OPTION = 'siteward_monitor_notifications';
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
}

/** A check as the Monitor screen reads it (the wire type the page shares). */
export type CheckStatus = MonitorCheck;

const iso = (ms: number): string => new Date(ms).toISOString();

/** Down while a downtime is open; unknown until a recent sample says otherwise. */
function stateOf(open: { readonly start: number } | null, sampled: boolean): Pick<MonitorCheckState, 'state' | 'downSince'> {
  return { state: open !== null ? 'down' : sampled ? 'up' : 'unknown', downSince: open === null ? null : iso(open.start) };
}

export function windowJson(window: MaintenanceWindow): MaintenanceWindowJson {
  return window.kind === 'once' ? { ...window, starts: iso(window.starts), ends: iso(window.ends) } : { ...window };
}

export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  async notifications(): Promise<NotificationSettings> {
    return storedNotifications(await this.deps.options.get(NOTIFICATION_SETTINGS_OPTION));
  }

  async setNotifications(body: Readonly<Record<string, unknown>>): Promise<Outcome<NotificationSettings>> {
    const parsed = parseNotifications(body, await this.notifications());
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    await this.deps.options.set(NOTIFICATION_SETTINGS_OPTION, {
      ...parsed.value,
      administrators: parsed.value.administrators === null ? null : [...parsed.value.administrators],
      emails: [...parsed.value.emails],
    });
    return { ok: true, value: parsed.value };
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
          ...stateOf(open, samples.length > 0),
        };
      }),
    );
  }

  private async checkStatus(check: StoredCheck, windows: readonly MaintenanceWindow[], now: number, zone: string): Promise<CheckStatus> {
    const repo = this.deps.repoFor(check.id);
    const [open, downtimes, first, samples, votes, certRow] = await Promise.all([
      repo.openInterval(),
      repo.since(now - 365 * DAY_MS),
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
      ...stateOf(open, last !== undefined),
      lastError,
      lastResponseMs: last?.ms ?? null,
      uptime: uptimeFigures(downtimes, windows, first, now, zone),
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
    const downtimes: DowntimeInterval[] = await this.deps.repoFor(checkId).since(from);
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
        downtimes: downtimes.map((d) => ({
          start: iso(d.start),
          end: d.end === null ? null : iso(d.end),
          duration: Math.round(((d.end ?? now) - d.start) / 1000),
          reason: d.reason,
        })),
      },
    };
  }

  async addCheck(body: Readonly<Record<string, unknown>>): Promise<Outcome<StoredCheck>> {
    const checks = await this.deps.store.checks();
    if (checks.filter((c) => c.id !== SITE_CHECK_ID).length >= MAX_EXTRA_CHECKS) return refuse('too_many_checks');
    const parsed = parseCheck(body, null, false);
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    return { ok: true, value: await this.deps.store.addCheck(parsed.value, this.deps.clock()) };
  }

  async updateCheck(id: number, body: Readonly<Record<string, unknown>>): Promise<Outcome<StoredCheck>> {
    const current = (await this.deps.store.checks()).find((c) => c.id === id);
    if (current === undefined) return refuse('check_not_found');
    const parsed = parseCheck(body, current, id === SITE_CHECK_ID);
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    const updated = await this.deps.store.updateCheck(id, parsed.value);
    return updated === null ? refuse('check_not_found') : { ok: true, value: updated };
  }

  async removeCheck(id: number): Promise<Outcome<true>> {
    if (id === SITE_CHECK_ID) return refuse('site_check_kept');
    return (await this.deps.store.removeCheck(id)) ? { ok: true, value: true } : refuse('check_not_found');
  }

  async windows(): Promise<MaintenanceWindow[]> {
    return this.deps.store.maintenanceWindows();
  }

  async addWindow(body: Readonly<Record<string, unknown>>): Promise<Outcome<MaintenanceWindow>> {
    const parsed = parseMaintenance(body, await this.deps.timeZone());
    if (!parsed.ok) return refuse('invalid', parsed.problem);
    return { ok: true, value: await this.deps.store.addMaintenance(parsed.value, this.deps.clock()) };
  }

  async removeWindow(id: number): Promise<Outcome<true>> {
    return (await this.deps.store.removeMaintenance(id)) ? { ok: true, value: true } : refuse('window_not_found');
  }

  async sendTest(): Promise<Outcome<DeliveryResult[]>> {
    const results = await this.deps.sendTest();
    return results.length === 0 ? refuse('nothing_to_notify') : { ok: true, value: results };
  }
}
