import { createRequire } from 'node:module';
import type { CronExpressionParser as Parser } from 'cron-parser';

// cron-parser (with luxon, about 500 KB of source) is required at the first weekly or cron window,
// not at start: most servers have none, and a loaded module stays in the worker's memory. The
// callers are synchronous, hence require rather than import().
const require = createRequire(import.meta.url);
let parser: typeof Parser | undefined;
function cronParser(): typeof Parser {
  parser ??= (require('cron-parser') as { CronExpressionParser: typeof Parser }).CronExpressionParser;
  return parser;
}

/**
 * Maintenance windows: checks go on, but no downtime is counted and nobody is notified. A
 * window is one-off (start..end), weekly (days and a time of day) or a cron expression; the
 * recurring ones last `durationMinutes` from each occurrence, in the site's time zone.
 */
export type MaintenanceWindow =
  | { readonly id: number; readonly kind: 'once'; readonly starts: number; readonly ends: number; readonly note: string }
  | {
      readonly id: number;
      readonly kind: 'weekly';
      readonly days: readonly number[];
      readonly time: string;
      readonly durationMinutes: number;
      readonly note: string;
    }
  | { readonly id: number; readonly kind: 'cron'; readonly cron: string; readonly durationMinutes: number; readonly note: string };

export type MaintenanceInput = DistributiveOmit<MaintenanceWindow, 'id'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A recurring window may last at most a week (a longer one would overlap its own next occurrence). */
export const MAX_DURATION_MINUTES = 7 * 24 * 60;

/** The cron expression a recurring window repeats by. */
export function windowCron(window: MaintenanceInput): string | null {
  if (window.kind === 'cron') return window.cron;
  if (window.kind === 'weekly') {
    const [hours, minutes] = window.time.split(':').map(Number);
    return `${minutes ?? 0} ${hours ?? 0} * * ${[...window.days].sort().join(',')}`;
  }
  return null;
}

/** Why `window` cannot be stored, or null. */
export function maintenanceProblem(window: MaintenanceInput, timeZone: string): string | null {
  switch (window.kind) {
    case 'once':
      return window.ends > window.starts ? null : 'ends must be after starts';
    case 'weekly':
      if (window.days.length === 0 || window.days.some((d) => !Number.isInteger(d) || d < 0 || d > 6))
        return 'days must be weekday numbers from 0 (Sunday) to 6';
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(window.time)) return 'time must be HH:MM';
      return durationProblem(window.durationMinutes);
    case 'cron':
      try {
        cronParser().parse(window.cron, { tz: timeZone });
      } catch (error) {
        return `cron: ${(error as Error).message}`;
      }
      return durationProblem(window.durationMinutes);
  }
}

function durationProblem(minutes: number): string | null {
  return Number.isInteger(minutes) && minutes >= 1 && minutes <= MAX_DURATION_MINUTES
    ? null
    : `durationMinutes must be a whole number from 1 to ${MAX_DURATION_MINUTES}`;
}

/** The occurrence of `window` that contains `at`, as [start, end), or null. */
export function occurrenceAt(window: MaintenanceInput, at: number, timeZone: string): readonly [number, number] | null {
  if (window.kind === 'once') return at >= window.starts && at < window.ends ? [window.starts, window.ends] : null;
  const cron = windowCron(window);
  if (cron === null) return null;
  // The latest occurrence at or before `at` (cron-parser's prev() is strictly before its start).
  const previous = cronParser()
    .parse(cron, { currentDate: new Date(at + 1), tz: timeZone })
    .prev()
    .getTime();
  const end = previous + window.durationMinutes * 60_000;
  return at < end ? [previous, end] : null;
}

/** The window in force at `at` and its end, or null. */
export function activeMaintenance(
  windows: readonly MaintenanceWindow[],
  at: number,
  timeZone: string,
): { window: MaintenanceWindow; until: number } | null {
  for (const window of windows) {
    const occurrence = occurrenceAt(window, at, timeZone);
    if (occurrence !== null) return { window, until: occurrence[1] };
  }
  return null;
}

/** At most this many occurrences are walked per window when adding up maintenance time (a cron of every minute over a year would be 525,600). */
const MAX_OCCURRENCES = 20_000;

/** The occurrences of the windows that overlap [from, to), as [start, end) spans (possibly overlapping). */
export function maintenanceSpans(windows: readonly MaintenanceWindow[], from: number, to: number, timeZone: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const window of windows) {
    if (window.kind === 'once') {
      spans.push([window.starts, window.ends]);
      continue;
    }
    const cron = windowCron(window);
    if (cron === null) continue;
    const durationMs = window.durationMinutes * 60_000;
    const iterator = cronParser().parse(cron, { currentDate: new Date(from - durationMs), endDate: new Date(to), tz: timeZone });
    for (let n = 0; n < MAX_OCCURRENCES && iterator.hasNext(); n++) {
      const start = iterator.next().getTime();
      spans.push([start, start + durationMs]);
    }
  }
  return spans;
}

/** Length of the union of `spans` within [from, to). */
export function coveredMs(spans: [number, number][], from: number, to: number): number {
  const clipped = spans.map(([s, e]): [number, number] => [Math.max(s, from), Math.min(e, to)]).filter(([s, e]) => e > s);
  clipped.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = from;
  for (const [s, e] of clipped) {
    if (e <= reach) continue;
    total += e - Math.max(s, reach);
    reach = e;
  }
  return total;
}
