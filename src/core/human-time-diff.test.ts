import { describe, expect, it } from 'vitest';
import { humanTimeDiff } from './human-time-diff.js';

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;
const WEEK = 7 * DAY;

describe('humanTimeDiff', () => {
  it.each([
    [0, '1 min'],
    [1, '1 min'],
    [59, '1 min'],
    [60, '1 min'],
    [89, '1 min'],
    [90, '2 mins'],
    [149, '2 mins'],
    [150, '3 mins'],
    [HOUR - 31, '59 mins'],
    [HOUR - 30, '60 mins'],
    [HOUR - 1, '60 mins'],
    [HOUR, '1 hour'],
    [HOUR + 1799, '1 hour'],
    [HOUR + 1800, '2 hours'],
    [DAY - 1801, '23 hours'],
    [DAY - 1800, '24 hours'],
    [DAY - 1, '24 hours'],
    [DAY, '1 day'],
    [DAY + DAY / 2 - 1, '1 day'],
    [DAY + DAY / 2, '2 days'],
    [3 * DAY, '3 days'],
    [Math.round(6.9 * DAY), '7 days'],
    [WEEK - 1, '7 days'],
    [WEEK, '1 week'],
    [WEEK + WEEK / 2 - 1, '1 week'],
    [WEEK + WEEK / 2, '2 weeks'],
    [29 * DAY, '4 weeks'],
    [30 * DAY - 1, '4 weeks'],
    [30 * DAY, '1 month'],
    [45 * DAY - 1, '1 month'],
    [45 * DAY, '2 months'],
    [364 * DAY, '12 months'],
    [365 * DAY - 1, '12 months'],
    [365 * DAY, '1 year'],
    [547 * DAY, '1 year'],
    [548 * DAY, '2 years'],
    [10_000 * DAY, '27 years'],
  ])('gives %i seconds as %j', (seconds, expected) => {
    const to = 1_700_000_000;
    expect(humanTimeDiff(to - seconds, to)).toBe(expected);
  });

  it('ignores the order of its arguments', () => {
    expect(humanTimeDiff(1000 + 3 * DAY, 1000)).toBe('3 days');
  });

  it('truncates fractional seconds like PHP’s (int) cast', () => {
    expect(humanTimeDiff(0, 89.9)).toBe('1 min');
    expect(humanTimeDiff(0, 5 * MIN + 0.5)).toBe('5 mins');
  });
});
