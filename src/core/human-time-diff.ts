const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const BANDS: readonly { readonly below: number; readonly unit: number; readonly one: string; readonly many: string }[] = [
  { below: HOUR, unit: MINUTE, one: 'min', many: 'mins' },
  { below: DAY, unit: HOUR, one: 'hour', many: 'hours' },
  { below: WEEK, unit: DAY, one: 'day', many: 'days' },
  { below: MONTH, unit: WEEK, one: 'week', many: 'weeks' },
  { below: YEAR, unit: MONTH, one: 'month', many: 'months' },
  { below: Infinity, unit: YEAR, one: 'year', many: 'years' },
];

/**
 * WordPress 4.x `human_time_diff($from, $to)` (docs/spec/services-facts.md §2.2), times in seconds since
 * the epoch: "1 min" at least, no seconds band, no "ago". The band is chosen before rounding,
 * so 3599 s gives "60 mins" and 86399 s "24 hours", as WordPress did.
 */
export function humanTimeDiff(from: number, to: number): string {
  // PHP: (int) abs($to - $from) truncates.
  const diff = Math.trunc(Math.abs(to - from));
  const band = BANDS.find((b) => diff < b.below) ?? BANDS[BANDS.length - 1];
  if (band === undefined) throw new Error('unreachable: no band');
  // PHP round() halves away from zero; Math.round agrees for non-negative numbers.
  const value = Math.max(1, Math.round(diff / band.unit));
  return `${value} ${value === 1 ? band.one : band.many}`;
}
