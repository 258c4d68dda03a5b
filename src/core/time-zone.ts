/**
 * Whether `name` is an IANA time zone the runtime knows (`UTC`, `Europe/Paris`, aliases such as
 * `Asia/Calcutta`).
 *
 * Memory: `UTC`, the default, is answered without asking ICU. The first `Intl.DateTimeFormat`
 * made with a time zone maps about 6 MB of ICU's code and data into the process, and every
 * worker checked the configured zone at start: a site on UTC never needs them
 * (docs/performance.md 19).
 */
export function isTimeZone(name: string): boolean {
  if (name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
