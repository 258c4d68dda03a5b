import { humanTimeDiff } from '../../core/human-time-diff.js';
import type { DowntimeInterval } from './monitor-repo.js';

/**
 * The `GET /module/monitor/downtime/last` body (docs/spec/jetpack-v4-reference.md §3.20): the time since the last
 * up/down transition as WordPress's human_time_diff, or null when there never was a downtime.
 * The transition is the end of the last downtime, or its start while it lasts (Jetpack's
 * remote value was "the most recent up/down transition").
 */
export function lastDowntimeAnswer(last: DowntimeInterval | null, now: number): { code: 'success'; date: string | null } {
  if (last === null) return { code: 'success', date: null };
  const transition = last.end ?? last.start;
  return { code: 'success', date: humanTimeDiff(Math.floor(transition / 1000), Math.floor(now / 1000)) };
}
