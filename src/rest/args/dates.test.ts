import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatYmdHis, getDateWithGmt, parseDate } from './dates.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => Date.UTC(y, mo - 1, d, h, mi, s) / 1000;

describe('parseDate accepts RFC 3339 date-times and reads them as strtotime does', () => {
  test.each<[string, number]>([
    ['2016-12-22T16:51:02Z', 1482425462],
    ['2017-01-01T10:00:00', utc(2017, 1, 1, 10)],
    ['2017-01-01t10:00:00', utc(2017, 1, 1, 10)],
    ['2017-01-01 10:00:00', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00.999999', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00.5Z', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00Z', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00+05', utc(2017, 1, 1, 5)],
    ['2017-01-01T10:00:00+05:30', utc(2017, 1, 1, 4, 30)],
    ['2017-01-01T10:00:00-05:30', utc(2017, 1, 1, 15, 30)],
    ['2017-01-01 10:00:00.25-02', utc(2017, 1, 1, 12)],
    // ±HH is HH hours whatever HH is, as PHP's timezone correction reads it.
    ['2017-01-05T10:00:00+99', utc(2017, 1, 5, 10) - 99 * 3600],
    // Rollover of out-of-range but accepted fields.
    ['2017-02-30T12:00:00', utc(2017, 3, 2, 12)],
    ['2016-02-30T12:00:00', utc(2016, 3, 1, 12)],
    ['2017-00-10T00:00:00', utc(2016, 12, 10)],
    ['2017-01-00T00:00:00', utc(2016, 12, 31)],
    ['2017-01-31T24:00:00', utc(2017, 2, 1)],
    ['2017-01-31T24:30:00', utc(2017, 2, 1, 0, 30)],
    ['2017-01-01T23:59:60', utc(2017, 1, 2)],
    ['0000-00-00 00:00:00', -62169984000],
    ['9999-12-31T23:59:59Z', 253402300799],
    ['1970-01-01T00:00:00Z', 0],
    // PCRE's `$` matches before a final newline.
    ['2017-01-01T10:00:00\n', utc(2017, 1, 1, 10)],
  ])('%j is %d', (date, expected) => {
    expect(parseDate(date)).toBe(expected);
  });

  test.each([
    '2017-01-01T10:00:00z',
    '2017-01-01T10:00:00-0530',
    '2017-01-01T10:00:00+5',
    '2017-01-01T10:00:00+05:3',
    '2017-01-01T10:00:00+05:60',
    '2017-01-01',
    '2017-01-01T10:00',
    '2017-1-01T10:00:00',
    '17-01-01T10:00:00',
    '2017-01-01X10:00:00',
    '2017-01-01T10:00:00.',
    ' 2017-01-01T10:00:00',
    '2017-01-01T10:00:00 ',
    '2017-01-01T10:00:00\n\n',
    '2017-13-01T10:00:00',
    '2017-01-32T10:00:00',
    '2017-01-01T25:00:00',
    '2017-01-01T10:60:00',
    '2017-01-01T10:00:61',
    'yesterday',
    '',
  ])('rejects %j', (date) => {
    expect(parseDate(date)).toBeNull();
  });

  test('rejects a non-string', () => {
    expect(parseDate(20170101 as unknown as string)).toBeNull();
  });

  test.each<[string, number | null]>([
    ['2017-01-01T10:00:00+05:30', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00-05', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00Z', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00', utc(2017, 1, 1, 10)],
    // The offset is replaced before the pattern check, so even the colon-less form passes.
    ['2017-01-01T10:00:00-0530', utc(2017, 1, 1, 10)],
    ['2017-01-01T10:00:00z', null],
  ])('with forceUtc, %j is %j (the offset is discarded, not converted)', (date, expected) => {
    expect(parseDate(date, true)).toBe(expected);
  });

  test('agrees with Date.UTC for every accepted field value, rollover included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom('T', 't', ' '),
        fc.constantFrom('', '.5', '.123456'),
        fc.constantFrom<[string, number]>(['', 0], ['Z', 0], ['+05', 5 * 3600], ['-11', -11 * 3600], ['+05:30', 19800], ['-09:45', -35100]),
        (y, mo, d, h, mi, s, sep, fraction, [zone, offset]) => {
          const p = (n: number, w = 2) => String(n).padStart(w, '0');
          const date = `${p(y, 4)}-${p(mo)}-${p(d)}${sep}${p(h)}:${p(mi)}:${p(s)}${fraction}${zone}`;
          expect(parseDate(date)).toBe(utc(y, mo, d, h, mi, s) - offset);
        },
      ),
    );
  });
});

describe('getDateWithGmt returns the local and UTC forms as WordPress 4.7.3+', () => {
  test.each<[string, boolean, string, [string, string] | null]>([
    ['2017-07-01 12:00:00', false, 'Europe/Paris', ['2017-07-01 12:00:00', '2017-07-01 10:00:00']],
    ['2017-01-15 12:00:00', false, 'Europe/Paris', ['2017-01-15 12:00:00', '2017-01-15 11:00:00']],
    ['2017-07-01T12:00:00', true, 'Europe/Paris', ['2017-07-01 14:00:00', '2017-07-01 12:00:00']],
    ['2017-07-01T12:00:00Z', false, 'Europe/Paris', ['2017-07-01 14:00:00', '2017-07-01 12:00:00']],
    ['2017-07-01T12:00:00+02:00', false, 'America/New_York', ['2017-07-01 06:00:00', '2017-07-01 10:00:00']],
    ['2017-07-01T12:00:00+02:00', true, 'America/New_York', ['2017-07-01 06:00:00', '2017-07-01 10:00:00']],
    ['2017-01-01 00:00:00', false, 'Asia/Kolkata', ['2017-01-01 00:00:00', '2016-12-31 18:30:00']],
    ['2017-01-01 12:00:00', false, 'Australia/Sydney', ['2017-01-01 12:00:00', '2017-01-01 01:00:00']],
    ['2017-02-30 08:00:00', false, 'UTC', ['2017-03-02 08:00:00', '2017-03-02 08:00:00']],
    // A wall time inside the spring-forward gap moves forward by the gap (02:30 EST = 03:30 EDT).
    ['2017-03-12 02:30:00', false, 'America/New_York', ['2017-03-12 02:30:00', '2017-03-12 07:30:00']],
    // An ambiguous wall time at fall-back takes the earlier instant (EDT).
    ['2017-11-05 01:30:00', false, 'America/New_York', ['2017-11-05 01:30:00', '2017-11-05 05:30:00']],
    ['1970-01-01T00:00:00Z', false, 'UTC', ['1970-01-01 00:00:00', '1970-01-01 00:00:00']],
    ['not a date', false, 'UTC', null],
    ['2017-01-01T10:00:00-0530', false, 'UTC', null],
  ])('%j (isUtc %s) in %s', (date, isUtc, zone, expected) => {
    expect(getDateWithGmt(date, isUtc, zone)).toEqual(expected);
  });

  test('throws RangeError for an unknown time zone', () => {
    expect(() => getDateWithGmt('2017-01-01 00:00:00', false, 'Mars/Olympus')).toThrow(RangeError);
  });

  test('a site-local wall time converted to UTC formats back to the same wall time (zone without DST)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 - 19800 }), (ts) => {
        const local = formatYmdHis(ts, 'Asia/Kolkata');
        expect(getDateWithGmt(local, false, 'Asia/Kolkata')).toEqual([local, formatYmdHis(ts, 'UTC')]);
      }),
    );
  });
});

describe('formatYmdHis prints PHP date("Y-m-d H:i:s")', () => {
  test.each<[number, string, string]>([
    [0, 'UTC', '1970-01-01 00:00:00'],
    [-1, 'UTC', '1969-12-31 23:59:59'],
    [1.9, 'UTC', '1970-01-01 00:00:01'],
    [0, 'America/New_York', '1969-12-31 19:00:00'],
    [1499000000, 'Asia/Tokyo', '2017-07-02 21:53:20'],
    [-62169984000, 'UTC', '-0001-11-30 00:00:00'],
    [-59011545600, 'UTC', '0099-12-31 00:00:00'],
    [253402300799, 'UTC', '9999-12-31 23:59:59'],
  ])('%d in %s is %j', (ts, zone, expected) => {
    expect(formatYmdHis(ts, zone)).toBe(expected);
  });

  test('matches Date#toISOString in UTC for four-digit years', () => {
    fc.assert(
      fc.property(fc.integer({ min: -30610224000, max: 253402300799 }), (ts) => {
        expect(formatYmdHis(ts, 'UTC')).toBe(new Date(ts * 1000).toISOString().slice(0, 19).replace('T', ' '));
      }),
    );
  });
});
