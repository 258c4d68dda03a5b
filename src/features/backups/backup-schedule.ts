/**
 * `SITEWARD_BACKUP_SCHEDULE`:
 * - an interval `<n>m`, `<n>h` or `<n>d` (e.g. `90m`, `6h`, `1d`; 1 minute to 366 days). Runs fall on
 *   multiples of the interval counted from the Unix epoch (UTC), so the times do not depend on
 *   when the server started and survive restarts: `6h` runs at 00:00, 06:00, 12:00, 18:00 UTC.
 * - a daily time `HH:MM` in the server's local time zone (the process's `TZ`), or `HH:MMZ` /
 *   `HH:MM UTC` in UTC. On a daylight-saving change a local time that does not exist that day
 *   runs at the shifted time JavaScript gives it (02:30 → 03:30), and a repeated one runs once.
 * - `off` (or `none`): no scheduled backups.
 */

import { DAY_MS } from '../../core/time.js';

export type BackupSchedule =
  | { readonly kind: 'interval'; readonly everyMs: number }
  | { readonly kind: 'daily'; readonly hour: number; readonly minute: number; readonly zone: 'local' | 'utc' }
  | { readonly kind: 'off' };

export type ScheduleParseResult =
  { readonly ok: true; readonly schedule: BackupSchedule } | { readonly ok: false; readonly message: string };

const UNIT_MS = { m: 60_000, h: 3_600_000, d: DAY_MS } as const;
const MAX_INTERVAL_MS = 366 * UNIT_MS.d;
const HELP = 'expected an interval like "90m", "6h" or "1d", a daily time like "03:30" (local) or "03:30Z" (UTC), or "off"';

export function parseBackupSchedule(raw: string): ScheduleParseResult {
  const text = raw.trim();
  const bad = (why: string): ScheduleParseResult => ({ ok: false, message: `"${raw}": ${why}; ${HELP}` });
  if (text === '') return bad('empty');
  if (/^(off|none)$/i.test(text)) return { ok: true, schedule: { kind: 'off' } };
  const interval = /^(\d+)\s*([a-z]+)$/i.exec(text);
  if (interval) {
    const unit = interval[2].toLowerCase();
    if (unit !== 'm' && unit !== 'h' && unit !== 'd') return bad(`unknown unit "${interval[2]}" (use m, h or d)`);
    const everyMs = Number(interval[1]) * UNIT_MS[unit];
    if (everyMs === 0) return bad('the interval must be at least 1 minute');
    if (everyMs > MAX_INTERVAL_MS) return bad('the interval must be at most 366 days');
    return { ok: true, schedule: { kind: 'interval', everyMs } };
  }
  const daily = /^(\d{1,2}):(\d{2})(?:\s*(Z|UTC))?$/i.exec(text);
  if (daily) {
    const hour = Number(daily[1]);
    const minute = Number(daily[2]);
    if (hour > 23) return bad(`hour ${hour} is out of range (00–23)`);
    if (minute > 59) return bad(`minute ${minute} is out of range (00–59)`);
    return { ok: true, schedule: { kind: 'daily', hour, minute, zone: daily[3] === undefined ? 'local' : 'utc' } };
  }
  return bad('not understood');
}

/** The first run strictly after `now`; null when the schedule is off. */
export function nextRunAfter(schedule: BackupSchedule, now: Date): Date | null {
  const t = now.getTime();
  switch (schedule.kind) {
    case 'off':
      return null;
    case 'interval':
      return new Date((Math.floor(t / schedule.everyMs) + 1) * schedule.everyMs);
    case 'daily': {
      const { hour, minute } = schedule;
      if (schedule.zone === 'utc') {
        const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute);
        return new Date(today > t ? today : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, hour, minute));
      }
      const today = new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour, minute);
      if (today.getTime() > t) return today;
      return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, hour, minute);
    }
  }
}
