import type { LoginFailure } from '../../auth/password-guards.js';
import { counterKey } from './client-address.js';
import { dayBuckets } from './day-buckets.js';
import { slotOwner, slotOwnerIsDead } from './slot-owner.js';
import type { Peek, ProtectRepo, PurgeCounts, Reservation, ReserveInput } from './protect-repo.js';
import {
  protectRules,
  retryAfterSeconds,
  type CheckResult,
  type DayCount,
  type FailureOutcome,
  type ProtectRules,
} from './protect-rules.js';

export * from './protect-rules.js';

/** A check that has not reported back within this long (its process died) stops holding a slot. */
export const RESERVATION_TTL_MS = 60_000;

/**
 * The brute-force policy over the store: times are milliseconds since the epoch from the
 * caller's clock, addresses are raw client addresses (normalized and keyed here).
 */
export class ProtectPolicy {
  readonly rules: ProtectRules;

  constructor(
    private readonly repo: ProtectRepo,
    rules: Partial<ProtectRules> = {},
  ) {
    this.rules = protectRules(rules);
  }

  async check(address: string, now: number): Promise<CheckResult> {
    const block = await this.repo.activeBlock(keyOf(address), now);
    return block === null ? { blocked: false } : { blocked: true, retryAfterSeconds: retryAfterSeconds(block.until, now) };
  }

  /**
   * Counts an attempt from `address` before its password is checked (a slot while it runs), so
   * that no more than `maxFailures` passwords are checked per window however many arrive at
   * once, on any worker or host sharing the store.
   */
  reserve(address: string, now: number): Promise<Reservation> {
    return this.repo.reserve(this.reserveInput(address, now));
  }

  /** What `reserve` would answer now, by reading only (an attempt waiting for a slot polls this). */
  peek(address: string, now: number): Promise<Peek> {
    return this.repo.peek(this.reserveInput(address, now));
  }

  private reserveInput(address: string, now: number): ReserveInput {
    return {
      key: keyOf(address),
      now,
      rules: this.rules,
      pendingSince: now - RESERVATION_TTL_MS,
      owner: slotOwner(),
      ownerIsDead: slotOwnerIsDead,
    };
  }

  /** Frees a reserved slot whose check succeeded (or never ran). */
  release(reserved: number): Promise<void> {
    return this.repo.release(reserved);
  }

  /** Records a failed check; `reserved` (its slot) turns into the failure. */
  recordFailure(address: string, login: string, now: number, reserved?: number, failure?: LoginFailure): Promise<FailureOutcome> {
    return this.repo.recordFailure(
      { key: keyOf(address), address, login: clip(login), now, rules: this.rules, ...(failure === undefined ? {} : { failure }) },
      reserved,
    );
  }

  /** Counts an attempt refused because of a block and logs it (time, address, login). */
  recordBlockedAttempt(address: string, login: string, now: number): Promise<void> {
    return this.repo.recordBlockedAttempt(address, clip(login), now, keyOf(address));
  }

  /** An attempt the login form refused for its challenge: listed, never counted towards a block. */
  recordChallengeRefusal(address: string, login: string, now: number): Promise<void> {
    return this.repo.recordChallengeRefusal(address, clip(login), now, keyOf(address));
  }

  /** Whether `address` is blocked, and its failures in the window (what decides the login form's challenge). */
  async standing(address: string, now: number): Promise<{ readonly blocked: boolean; readonly failures: number }> {
    const key = keyOf(address);
    if ((await this.repo.activeBlock(key, now)) !== null) return { blocked: true, failures: 0 };
    return { blocked: false, failures: await this.repo.failureCount(key, now - this.rules.windowSeconds * 1000) };
  }

  /** Failures of `address` after `since`, without reserving anything. */
  failuresSince(address: string, since: number): Promise<number> {
    return this.repo.failureCount(keyOf(address), since);
  }

  /** All blocked attempts ever (the `jetpack_protect_blocked_attempts` value). */
  blockedCount(): Promise<number> {
    return this.repo.blockedCount();
  }

  /** Blocked attempts per calendar day in `timeZone` (default UTC), oldest first, zero days included. */
  async historyByDay(days: number, now: number, timeZone?: string): Promise<DayCount[]> {
    const { dates, bounds } = dayBuckets(days, now, timeZone);
    const counts = await this.repo.countEvents('blocked', bounds);
    return dates.map((date, i) => ({ date, count: counts[i] ?? 0 }));
  }

  /**
   * Forgets failures and blocks the rules can no longer count at `now`, and events older than
   * `retentionMs`; the blocked-attempts total stays.
   */
  purge(now: number, retentionMs: number): Promise<PurgeCounts> {
    return this.repo.purge({
      failures: now - this.rules.windowSeconds * 1000,
      blocks: now - this.rules.escalationWindowSeconds * 1000,
      events: now - retentionMs,
    });
  }
}

/** Unparsable addresses (a Unix socket, a broken proxy header) are still counted, under their own text. */
export function keyOf(address: string): string {
  return counterKey(address) ?? `raw:${address.slice(0, 100)}`;
}

/** Logins are attacker-chosen: keep the log rows small. */
function clip(login: string): string {
  // What was typed is kept to show an operator, not to match: a NUL (which PostgreSQL's text
  // cannot hold, and the attempt was refused for anyway) is shown as U+FFFD.
  const shown = login.includes('\u0000') ? login.replaceAll('\u0000', '\ufffd') : login;
  return shown.length > 200 ? shown.slice(0, 200) : shown;
}
