/** Calendar days in a time zone, as the `[start, end)` millisecond bounds a count query needs. */
export interface DayBuckets {
  /** `YYYY-MM-DD`, oldest first, ending with the day that contains `now`. */
  readonly dates: string[];
  /** `dates.length + 1` instants: day i is `[bounds[i], bounds[i + 1])`. */
  readonly bounds: number[];
}

/**
 * The last `days` calendar days in `timeZone` (IANA name, default UTC). Days are cut at local
 * midnight, so a DST change makes a day 23 or 25 hours long. Throws RangeError for an
 * unknown time zone or a day count outside 1..3660.
 */
export function dayBuckets(days: number, now: number, timeZone = 'UTC'): DayBuckets {
  if (!Number.isInteger(days) || days < 1 || days > 3660) throw new RangeError(`days must be an integer in 1..3660, got ${days}`);
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const today = wallClock(format, now);
  const dates: string[] = [];
  const bounds: number[] = [];
  for (let i = days - 1; i >= -1; i -= 1) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day - i));
    const midnight = localMidnight(format, day.getTime());
    bounds.push(midnight);
    if (i >= 0) dates.push(day.toISOString().slice(0, 10));
  }
  return { dates, bounds };
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(format: Intl.DateTimeFormat, ms: number): WallClock {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far the zone's wall clock is ahead of UTC at instant `ms`. */
function offsetAt(format: Intl.DateTimeFormat, ms: number): number {
  const w = wallClock(format, ms);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant the local day whose wall-clock midnight reads as `utcMidnight` (in UTC) begins. */
function localMidnight(format: Intl.DateTimeFormat, utcMidnight: number): number {
  // Two passes: the offset at the first guess may differ from the one at local midnight (DST).
  const first = utcMidnight - offsetAt(format, utcMidnight);
  return utcMidnight - offsetAt(format, first);
}
