/** Durations in milliseconds, one definition each. */

/** One day (24 hours) in milliseconds; calendar days in a time zone are `dayBuckets`' business. */
export const DAY_MS = 86_400_000;

/**
 * A duration as an operator reads it, to the second under an hour: "10 s", "3 min 20 s",
 * "2 h 5 min", "3 days 4 h" (WordPress's human_time_diff, which `downtime/last` must answer
 * with, rounds 10 s up to "1 min": right for "how long ago", wrong for "how long").
 */
export function exactDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) {
    const minutes = Math.round((s % 3600) / 60);
    return minutes === 0 || minutes === 60 ? `${Math.round(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
  }
  const days = Math.floor(s / 86_400);
  const hours = Math.round((s % 86_400) / 3600);
  const dayText = `${days} ${days === 1 ? 'day' : 'days'}`;
  return hours === 0 || hours === 24 ? dayText : `${dayText} ${hours} h`;
}
