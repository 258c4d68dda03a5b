/**
 * A fixed-window request limit kept in status rows, so every worker and host sharing the store
 * counts together (e.g. "Lost your password?" and Protect's unlock links, per address and per account).
 */
import type { Store } from '../store/types.js';

/** Counts one request under `key`; false once `limit` requests were counted within `windowMs`. */
export async function allowRequest(status: Store['status'], key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
  const row = await status.get(key);
  const value = row?.value;
  const current =
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof value.count === 'number' &&
    typeof value.since === 'number' &&
    now - value.since < windowMs
      ? { count: value.count, since: value.since }
      : { count: 0, since: now };
  if (current.count >= limit) return false;
  await status.set(key, { count: current.count + 1, since: current.since }, now);
  return true;
}
