import { coveredMs, maintenanceSpans, type MaintenanceWindow } from './maintenance.js';
import type { DowntimeInterval, NoDataPeriod } from './monitor-repo.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The periods uptime is given for. */
export const UPTIME_PERIODS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '365d': 365 * DAY } as const;
export type UptimePeriod = keyof typeof UPTIME_PERIODS;

/**
 * Uptime in percent over each period: the share of the monitored time (since the check's first
 * response time, at most the period) that was not downtime, leaving out of both maintenance
 * windows and "no data" periods (when no host checked: Siteward's own downtime is not the
 * site's). Null when nothing of the period was monitored.
 */
export function uptimeFigures(
  downtimes: readonly DowntimeInterval[],
  noData: readonly NoDataPeriod[],
  windows: readonly MaintenanceWindow[],
  firstCheckAt: number | null,
  now: number,
  timeZone: string,
): Record<UptimePeriod, number | null> {
  const figures = {} as Record<UptimePeriod, number | null>;
  const down = downtimes.map((d): [number, number] => [d.start, d.end ?? now]);
  const gaps = noData.map((g): [number, number] => [g.start, g.end]);
  for (const [period, length] of Object.entries(UPTIME_PERIODS) as [UptimePeriod, number][]) {
    if (firstCheckAt === null) {
      figures[period] = null;
      continue;
    }
    const from = Math.max(now - length, firstCheckAt);
    const excluded = [...maintenanceSpans(windows, from, now, timeZone), ...gaps];
    const excludedMs = coveredMs(excluded, from, now);
    const watched = now - from - excludedMs;
    // Downtime outside the excluded periods: the union of both, less the excluded alone.
    const downMs = coveredMs([...down, ...excluded], from, now) - excludedMs;
    figures[period] = watched <= 0 ? null : Math.max(0, Math.min(100, Math.round(((watched - downMs) / watched) * 100_000) / 1000));
  }
  return figures;
}
