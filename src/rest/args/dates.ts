/**
 * Date helpers of docs/spec/site-management-api.md §4.7: WordPress's `rest_parse_date` (pattern check, then PHP
 * `strtotime` with UTC as the default zone) and `rest_get_date_with_gmt` as of 4.7.3.
 *
 * `strtotime` details kept: month 00–12 and day 00–31 roll over (`2017-02-30` → 2 March,
 * day 00 → last day of the previous month), hour 24 and second 60 roll into the next unit, a
 * fraction is ignored, `±HH` is read as HH hours whatever HH is. Minutes above 59 (in the time
 * or the offset), hours above 24, months above 12 and days above 31 make strtotime fail.
 */

/** The RFC 3339 pattern of rest_parse_date; PCRE's `$` also matches before a final newline. */
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}(?::\d{2})?)?\n?$/;
/** `[+-]\d+:?\d+$` written so that it cannot backtrack quadratically over a long run of digits. */
const TRAILING_OFFSET = /[+-](?:\d+:\d+|\d{2,})(?=\n?$)/;
const HAS_ZONE = /(?:Z|[+-]\d{2}(?::\d{2})?)\n?$/;

/**
 * Parses an RFC 3339 date-time (`T`, `t` or space; optional fraction; `Z` or `±HH[:MM]`) into a
 * Unix timestamp in seconds, or null. A date without an offset is read as UTC. With `forceUtc`
 * a trailing offset is replaced by `+00:00` (thrown away, not converted) before the check.
 *
 * @example
 * parseDate('2017-02-30T12:00:00') // 1488456000 (2 March 2017, 12:00 UTC)
 */
export function parseDate(date: string, forceUtc = false): number | null {
  if (typeof date !== 'string') return null;
  const text = forceUtc ? date.replace(TRAILING_OFFSET, '+00:00') : date;
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month > 12 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  const offset = parseOffset(m[7]);
  if (offset === null) return null;
  return daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
}

/** Seconds east of UTC for `Z`, `±HH` or `±HH:MM`; null for minutes above 59. */
function parseOffset(zone: string | undefined): number | null {
  if (zone === undefined || zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = zone.length > 3 ? Number(zone.slice(4, 6)) : 0;
  if (minutes > 59) return null;
  return (zone[0] === '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

/**
 * The local and UTC forms (`Y-m-d H:i:s`) of a date, or null when it does not parse.
 * A date without an offset is wall time in `timeZone` (an IANA name) unless `isUtc`; a date
 * with an offset is that instant. Gaps and overlaps of DST resolve as PHP does: a wall time
 * that does not exist moves forward by the gap, an ambiguous one takes the earlier instant.
 * Throws RangeError for an unknown time zone.
 *
 * @example
 * getDateWithGmt('2017-07-01 12:00:00', false, 'Europe/Paris') // ['2017-07-01 12:00:00', '2017-07-01 10:00:00']
 */
export function getDateWithGmt(date: string, isUtc: boolean, timeZone: string): [local: string, utc: string] | null {
  const hasZone = HAS_ZONE.test(date);
  const timestamp = parseDate(date);
  if (timestamp === null) return null;
  if (!isUtc && !hasZone) {
    // The parsed "UTC" timestamp is really the site's wall clock.
    return [formatYmdHis(timestamp, 'UTC'), formatYmdHis(wallToInstant(timestamp, timeZone), 'UTC')];
  }
  return [formatYmdHis(timestamp, timeZone), formatYmdHis(timestamp, 'UTC')];
}

/**
 * Formats a Unix timestamp (seconds) as PHP `date('Y-m-d H:i:s')` in an IANA time zone.
 * Years have at least four digits, with `-` before years BCE, as PHP prints them.
 *
 * @example
 * formatYmdHis(0, 'America/New_York') // '1969-12-31 19:00:00'
 */
export function formatYmdHis(timestamp: number, timeZone: string): string {
  const t = Math.floor(timestamp);
  const wall = t + offsetAt(t, timeZone);
  const days = Math.floor(wall / 86_400);
  const secs = wall - days * 86_400;
  const [y, mo, d] = civilFromDays(days);
  const year = `${y < 0 ? '-' : ''}${String(Math.abs(y)).padStart(4, '0')}`;
  return `${year}-${pad(mo)}-${pad(d)} ${pad(Math.floor(secs / 3600))}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The instant at which the wall clock of `timeZone` shows `wall` (wall seconds read as if UTC). */
function wallToInstant(wall: number, timeZone: string): number {
  const before = offsetAt(wall - 86_400, timeZone);
  const after = offsetAt(wall + 86_400, timeZone);
  const fits = [before, after].map((o) => wall - o).filter((t) => offsetAt(t, timeZone) === wall - t);
  // Overlap: the earlier instant; gap: read with the offset in force before the transition.
  return fits.length > 0 ? Math.min(...fits) : wall - before;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Seconds east of UTC in force in `timeZone` at `timestamp`. */
function offsetAt(timestamp: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(timestamp * 1000)) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  const wall =
    daysFromCivil(year, Number(parts.month), Number(parts.day)) * 86_400 +
    Number(parts.hour) * 3600 +
    Number(parts.minute) * 60 +
    Number(parts.second);
  return wall - timestamp;
}

/** Days since 1970-01-01 of a proleptic Gregorian date; month and day may overflow either way. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y0 = year + Math.floor((month - 1) / 12);
  const m0 = ((((month - 1) % 12) + 12) % 12) + 1;
  // Howard Hinnant's days_from_civil, for day 1 of the month; then add the (possibly overflowing) day.
  const y = m0 <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m0 + (m0 > 2 ? -3 : 9)) + 2) / 5);
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468 + (day - 1);
}

/** The inverse of daysFromCivil: [year, month, day]. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
