import { describe, expect, it } from 'vitest';
import { nextRunAfter, parseBackupSchedule, type BackupSchedule } from './backup-schedule.js';

function parsed(text: string): BackupSchedule {
  const result = parseBackupSchedule(text);
  if (!result.ok) throw new Error(result.message);
  return result.schedule;
}

describe('backup schedule', () => {
  it('parses intervals in minutes, hours and days', () => {
    expect(parsed('90m')).toEqual({ kind: 'interval', everyMs: 90 * 60_000 });
    expect(parsed('6h')).toEqual({ kind: 'interval', everyMs: 6 * 3_600_000 });
    expect(parsed(' 1d ')).toEqual({ kind: 'interval', everyMs: 86_400_000 });
  });

  it('parses daily times, local by default and UTC with Z or UTC', () => {
    expect(parsed('03:30')).toEqual({ kind: 'daily', hour: 3, minute: 30, zone: 'local' });
    expect(parsed('23:59Z')).toEqual({ kind: 'daily', hour: 23, minute: 59, zone: 'utc' });
    expect(parsed('7:05 UTC')).toEqual({ kind: 'daily', hour: 7, minute: 5, zone: 'utc' });
    expect(parsed('off')).toEqual({ kind: 'off' });
  });

  it('explains what is wrong with a bad value', () => {
    const message = (text: string) => {
      const result = parseBackupSchedule(text);
      return result.ok ? 'accepted' : result.message;
    };
    expect(message('6x')).toContain('unknown unit "x"');
    expect(message('0h')).toContain('at least 1 minute');
    expect(message('400d')).toContain('at most 366 days');
    expect(message('24:00')).toContain('hour 24 is out of range');
    expect(message('03:60')).toContain('minute 60 is out of range');
    expect(message('')).toContain('empty');
    expect(message('every day')).toContain('"every day": not understood; expected');
  });

  it('runs intervals on multiples of the interval since the epoch, strictly after now', () => {
    const sixHours = parsed('6h');
    expect(nextRunAfter(sixHours, new Date('2024-05-01T05:59:59.999Z'))?.toISOString()).toBe('2024-05-01T06:00:00.000Z');
    expect(nextRunAfter(sixHours, new Date('2024-05-01T06:00:00.000Z'))?.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(nextRunAfter(parsed('90m'), new Date('2024-05-01T00:10:00Z'))?.toISOString()).toBe('2024-05-01T01:30:00.000Z');
  });

  it('runs a UTC daily time today when it is still ahead, otherwise tomorrow', () => {
    const daily = parsed('03:30Z');
    expect(nextRunAfter(daily, new Date('2024-12-31T03:29:00Z'))?.toISOString()).toBe('2024-12-31T03:30:00.000Z');
    expect(nextRunAfter(daily, new Date('2024-12-31T03:30:00Z'))?.toISOString()).toBe('2025-01-01T03:30:00.000Z');
  });

  it('runs a local daily time at that wall-clock time of the server', () => {
    const daily = parsed('03:30');
    const before = new Date(2024, 5, 10, 1, 0);
    expect(nextRunAfter(daily, before)?.getTime()).toBe(new Date(2024, 5, 10, 3, 30).getTime());
    const after = new Date(2024, 5, 10, 4, 0);
    expect(nextRunAfter(daily, after)?.getTime()).toBe(new Date(2024, 5, 11, 3, 30).getTime());
  });

  it('never runs when off', () => {
    expect(nextRunAfter(parsed('none'), new Date())).toBeNull();
  });
});
