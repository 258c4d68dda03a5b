/** The page's formatters: dates, durations, sizes and percentages, in the page's language. */
import { __, _n, sprintf } from '@wordpress/i18n';

/** A moment (ISO string, Date or UTC ms) as the page's medium date and short time. */
export function dateTime(moment: string | number | Date): string {
  return new Date(moment).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Unix seconds as dateTime. */
export const unixTime = (seconds: number): string => dateTime(seconds * 1000);

/** The server's reasons give times in ISO 8601 ("certificate expired on 2026-…Z"): shown as the page's dates. */
export const humanTimes = (text: string): string => text.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, dateTime);

export function duration(seconds: number): string {
  // translators: %d: seconds.
  if (seconds < 90) return sprintf(__('%d s', 'siteward'), seconds);
  // translators: %d: minutes.
  if (seconds < 5400) return sprintf(__('%d min', 'siteward'), Math.round(seconds / 60));
  // translators: %d: hours.
  if (seconds < 172_800) return sprintf(__('%d h', 'siteward'), Math.round(seconds / 3600));
  const days = Math.round(seconds / 86_400);
  // translators: %d: days.
  return sprintf(_n('%d day', '%d days', days, 'siteward'), days);
}

/** With a no-break space, so a size never wraps between number and unit. */
export function fileSize(bytes: number): string {
  // translators: %d: a size in bytes; keep the no-break space.
  if (bytes < 1024) return sprintf(_n('%d\u00a0byte', '%d\u00a0bytes', bytes, 'siteward'), bytes);
  // translators: %d: a size in kilobytes; keep the no-break space.
  if (bytes < 1024 * 1024) return sprintf(__('%d\u00a0KB', 'siteward'), Math.round(bytes / 1024));
  // translators: %s: a size in megabytes; keep the no-break space.
  return sprintf(__('%s\u00a0MB', 'siteward'), (bytes / (1024 * 1024)).toFixed(1));
}

/** A percentage with two decimals (100 without); null: not measured. */
// translators: %s: a percentage.
export const percent = (v: number | null): string => (v === null ? '—' : sprintf(__('%s %%', 'siteward'), v.toFixed(v === 100 ? 0 : 2)));
