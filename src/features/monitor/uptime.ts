import { coveredMs, maintenanceMs, type MaintenanceWindow } from './maintenance.js';
import type { DowntimeInterval } from './monitor-repo.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The periods uptime is given for. */
export const UPTIME_PERIODS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '365d': 365 * DAY } as const;
export type UptimePeriod = keyof typeof UPTIME_PERIODS;

/**
 * Uptime in percent over each period: the share of the monitored time (since the check's first
 * response time, at most the period) that was not downtime, leaving maintenance windows out of
 * both. Null when nothing of the period was monitored outside maintenance.
 */
export function uptimeFigures(
  downtimes: readonly DowntimeInterval[],
  windows: readonly MaintenanceWindow[],
  firstCheckAt: number | null,
  now: number,
  timeZone: string,
): Record<UptimePeriod, number | null> {
  const figures = {} as Record<UptimePeriod, number | null>;
  for (const [period, length] of Object.entries(UPTIME_PERIODS) as [UptimePeriod, number][]) {
    if (firstCheckAt === null) {
      figures[period] = null;
      continue;
    }
    const from = Math.max(now - length, firstCheckAt);
    const maintenance = maintenanceMs(windows, from, now, timeZone);
    const watched = now - from - maintenance;
    const down = coveredMs(
      downtimes.map((d): [number, number] => [d.start, d.end ?? now]),
      from,
      now,
    );
    figures[period] = watched <= 0 ? null : Math.max(0, Math.min(100, Math.round(((watched - down) / watched) * 100_000) / 1000));
  }
  return figures;
}
