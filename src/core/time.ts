/** Durations in milliseconds, one definition each. */

/** One day (24 hours) in milliseconds; calendar days in a time zone are `dayBuckets`' business. */
export const DAY_MS = 86_400_000;
