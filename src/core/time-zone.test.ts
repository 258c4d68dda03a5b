import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTimeZone } from './time-zone.js';

describe('isTimeZone', () => {
  afterEach(() => vi.restoreAllMocks());

  it('accepts IANA names and their aliases, and refuses anything else', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Asia/Calcutta')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('UTC+2')).toBe(false);
  });

  it('answers UTC without making a date formatter, which would map ICU data into the process', () => {
    const formatter = vi.spyOn(Intl, 'DateTimeFormat');
    expect(isTimeZone('UTC')).toBe(true);
    expect(formatter).not.toHaveBeenCalled();
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(formatter).toHaveBeenCalledTimes(1);
  });
});
