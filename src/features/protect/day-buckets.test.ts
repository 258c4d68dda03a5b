import { describe, expect, it } from 'vitest';
import { dayBuckets } from './day-buckets.js';

describe('dayBuckets', () => {
  it('ends with the UTC day that contains now', () => {
    const now = Date.UTC(2024, 2, 10, 15, 30);
    const { dates, bounds } = dayBuckets(3, now);
    expect(dates).toEqual(['2024-03-08', '2024-03-09', '2024-03-10']);
    expect(bounds).toEqual([Date.UTC(2024, 2, 8), Date.UTC(2024, 2, 9), Date.UTC(2024, 2, 10), Date.UTC(2024, 2, 11)]);
  });

  it('cuts days at local midnight in the given time zone', () => {
    // 2024-03-10 03:00 UTC is still March 9 in New York (UTC-5).
    const { dates, bounds } = dayBuckets(1, Date.UTC(2024, 2, 10, 3), 'America/New_York');
    expect(dates).toEqual(['2024-03-09']);
    expect(bounds).toEqual([Date.UTC(2024, 2, 9, 5), Date.UTC(2024, 2, 10, 5)]);
  });

  it('makes the day of a DST change 23 hours long', () => {
    const { dates, bounds } = dayBuckets(1, Date.UTC(2024, 2, 10, 18), 'America/New_York');
    expect(dates).toEqual(['2024-03-10']);
    expect((bounds[1] ?? 0) - (bounds[0] ?? 0)).toBe(23 * 3600_000);
    expect(bounds[1]).toBe(Date.UTC(2024, 2, 11, 4));
  });

  it('refuses an unknown time zone and a silly day count', () => {
    expect(() => dayBuckets(7, 0, 'Mars/Olympus')).toThrow(RangeError);
    expect(() => dayBuckets(0, 0)).toThrow(RangeError);
  });
});
