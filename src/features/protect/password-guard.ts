import type { GuardOutcome, PasswordAttempt } from '../../auth/password-guards.js';
import type { AllowEntry } from './allow-list.js';
import { isAllowed } from './allow-list.js';
import { isServiceUnavailable } from '../../core/unavailable.js';
import { keyOf, type FailureOutcome, type ProtectPolicy } from './protect-policy.js';
import type { Peek, Reservation } from './protect-repo.js';

export type { PasswordAttempt };

export const PROTECT_BLOCKED_CODE = 'siteward_protect_blocked';

export type GuardDecision =
  | { readonly allow: true; readonly ticket?: number }
  | {
      readonly allow: false;
      readonly status: 429;
      readonly code: typeof PROTECT_BLOCKED_CODE;
      readonly message: string;
      readonly retryAfterSeconds: number;
    };

export type GuardRecord =
  | { readonly recorded: false; readonly why: 'inactive' | 'allowed' | 'success' }
  | { readonly recorded: true; readonly outcome: FailureOutcome };

export interface PasswordGuard {
  /** True when a login-form attempt must carry a solved challenge: `challengeAfter` failures and not yet blocked. */
  wantsChallenge(attempt: PasswordAttempt): Promise<boolean>;
  /** The block refusal this address gets now (with when it ends), counting nothing; null when not blocked. */
  refusalNow(attempt: PasswordAttempt): Promise<Extract<GuardDecision, { allow: false }> | null>;
  /** Logs a login-form attempt refused for its challenge (named in the attempts list; not a failure, no block). */
  challengeRefused(attempt: PasswordAttempt): Promise<void>;
  /**
   * Call before checking the password: counts the attempt (a slot, `ticket`) or refuses it; a
   * refusal has been counted as a blocked attempt.
   */
  before(attempt: PasswordAttempt): Promise<GuardDecision>;
  /** Call after checking it, with the ticket `before` gave; failures count towards a block. */
  after(attempt: PasswordAttempt, result: GuardOutcome, ticket?: number): Promise<GuardRecord>;
}

export interface PasswordGuardOptions {
  readonly policy: ProtectPolicy;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** The parsed `jetpack_protect_global_whitelist`, read per attempt so edits apply at once. */
  readonly allowList: () => Promise<readonly AllowEntry[]> | readonly AllowEntry[];
  /** Whether the protect module is active; default always. */
  readonly active?: () => Promise<boolean> | boolean;
  /**
   * Failures after which the login form asks for a proof-of-work challenge (0: never). No
   * challenge when the block comes first (`maxFailures` at or below it).
   */
  readonly challengeAfter?: number;
  /**
   * How long an attempt waits for a slot while the checks already running from its address make
   * the limit (they take milliseconds), before it is refused as busy; default 2000 ms.
   */
  readonly busyWaitMs?: number;
}

export function createPasswordGuard(options: PasswordGuardOptions): PasswordGuard {
  const { policy, clock } = options;
  const active = options.active ?? (() => true);

  async function exempt(ip: string): Promise<'inactive' | 'allowed' | null> {
    if (!(await active())) return 'inactive';
    if (isAllowed(ip, await options.allowList())) return 'allowed';
    return null;
  }

  const challengeAfter = options.challengeAfter ?? 0;
  const busyWaitMs = options.busyWaitMs ?? 2000;
  const local = new LocalSlots();
  /** Attempts of one address waiting in this process share each read: a burst's waiters cost one query at a time. */
  const peeking = new Map<string, Promise<Peek>>();

  return {
    async wantsChallenge(attempt) {
      // People use the HTML form; scripts (JSON, Basic) keep today's answer: the block.
      if (attempt.via !== 'login-form' || challengeAfter <= 0 || challengeAfter >= policy.rules.maxFailures) return false;
      if ((await exempt(attempt.ip)) !== null) return false;
      const standing = await policy.standing(attempt.ip, clock());
      // A blocked address gets the block (429), never a challenge it could not use.
      return !standing.blocked && standing.failures >= challengeAfter;
    },

    async challengeRefused(attempt) {
      await policy.recordChallengeRefusal(attempt.ip, attempt.login, clock());
    },

    async refusalNow(attempt) {
      if ((await exempt(attempt.ip)) !== null) return null;
      const now = clock();
      const standing = await policy.check(attempt.ip, now);
      if (!standing.blocked) return null;
      const until = new Date(now + standing.retryAfterSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
      return {
        allow: false,
        status: 429,
        code: PROTECT_BLOCKED_CODE,
        message: `${blockedMessage(standing.retryAfterSeconds)} The block ends at ${until} UTC.`,
        retryAfterSeconds: standing.retryAfterSeconds,
      };
    },

    async before(attempt) {
      if ((await exempt(attempt.ip)) !== null) return { allow: true };
      // Counted before the password is checked, atomically in the store: a burst of parallel
      // attempts gets `maxFailures` checks, not as many as arrive before the first failures land.
      let slot = await reserve(attempt.ip);
      // Busy is not blocked: the checks in progress may all succeed. Wait for them (briefly),
      // so that a right password is not refused only because others were being checked.
      // Waiting reads (no lock, no write) until a reservation can succeed.
      for (let waited = 0, pause = 10; slot.kind === 'busy' && waited < busyWaitMs; waited += pause, pause = Math.min(pause * 2, 200)) {
        await sleep(Math.min(pause, busyWaitMs - waited));
        const seen = await peek(attempt.ip);
        if (seen.kind === 'blocked') slot = seen;
        else if (seen.kind === 'free') slot = await reserve(attempt.ip);
      }
      if (slot.kind === 'reserved') return { allow: true, ticket: slot.id };
      await policy.recordBlockedAttempt(attempt.ip, attempt.login, clock()).catch(unlessUnavailable);
      const retryAfterSeconds = slot.kind === 'blocked' ? slot.retryAfterSeconds : BUSY_RETRY_SECONDS;
      return {
        allow: false,
        status: 429,
        code: PROTECT_BLOCKED_CODE,
        message: slot.kind === 'blocked' ? blockedMessage(retryAfterSeconds) : BUSY_MESSAGE,
        retryAfterSeconds,
      };
    },

    async after(attempt, result, ticket) {
      const why = await exempt(attempt.ip);
      if (why !== null) {
        if (ticket !== undefined) await release(ticket);
        return { recorded: false, why };
      }
      // A success does not reset the count: an attacker holding one account could otherwise
      // log in between guesses at other accounts and never reach the threshold.
      if (result.ok) {
        if (ticket !== undefined) await release(ticket);
        return { recorded: false, why: 'success' };
      }
      const now = clock();
      if (ticket !== undefined && ticket < 0) local.release(ticket);
      try {
        return {
          recorded: true,
          outcome: await policy.recordFailure(
            attempt.ip,
            attempt.login,
            now,
            ticket !== undefined && ticket > 0 ? ticket : undefined,
            result.failure,
          ),
        };
      } catch (error) {
        unlessUnavailable(error);
        // The store cannot take the failure (a full disk): it still counts, in this process.
        const failures = local.fail(keyOf(attempt.ip), now);
        return { recorded: true, outcome: { kind: 'counted', failures, remaining: Math.max(0, policy.rules.maxFailures - failures) } };
      }
    },
  };

  /**
   * A slot in the store; when the store cannot write it (a full disk, a read-only file) but
   * can still be read, a slot of this process's own count instead (negative tickets), so reads
   * with an application password keep working and a burst is still held to the limit per process.
   */
  async function reserve(ip: string): Promise<Reservation> {
    const now = clock();
    try {
      return await policy.reserve(ip, now);
    } catch (error) {
      unlessUnavailable(error);
      const standing = await policy.check(ip, now);
      if (standing.blocked)
        return { kind: 'blocked', until: now + standing.retryAfterSeconds * 1000, retryAfterSeconds: standing.retryAfterSeconds };
      const key = keyOf(ip);
      const stored = await policy.failuresSince(ip, now - policy.rules.windowSeconds * 1000);
      return local.reserve(key, stored, now, policy.rules);
    }
  }

  function peek(ip: string): Promise<Peek> {
    const key = keyOf(ip);
    let pending = peeking.get(key);
    if (!pending) {
      pending = policy.peek(ip, clock()).finally(() => peeking.delete(key));
      peeking.set(key, pending);
    }
    return pending;
  }

  async function release(ticket: number): Promise<void> {
    if (ticket < 0) return local.release(ticket);
    await policy.release(ticket).catch(unlessUnavailable);
  }
}

/** What the guard counts in this process while the store cannot take writes. */
class LocalSlots {
  private next = 0;
  private readonly running = new Map<number, string>();
  private readonly failures = new Map<string, number[]>();

  reserve(key: string, storedFailures: number, now: number, rules: ProtectPolicy['rules']): Reservation {
    const since = now - rules.windowSeconds * 1000;
    const recent = (this.failures.get(key) ?? []).filter((at) => at > since);
    this.failures.set(key, recent);
    const running = [...this.running.values()].filter((k) => k === key).length;
    if (storedFailures + recent.length >= rules.maxFailures) {
      return { kind: 'blocked', until: now + rules.blockSeconds * 1000, retryAfterSeconds: rules.blockSeconds };
    }
    if (storedFailures + recent.length + running >= rules.maxFailures) return { kind: 'busy' };
    const id = -++this.next;
    this.running.set(id, key);
    return { kind: 'reserved', id };
  }

  release(ticket: number): void {
    this.running.delete(ticket);
  }

  /** Counts a failure; answers this process's failures of `key` in the window. */
  fail(key: string, now: number): number {
    const list = this.failures.get(key) ?? [];
    list.push(now);
    this.failures.set(key, list);
    return list.length;
  }
}

/** The store's outage errors are swallowed (the caller goes on without the write); anything else is thrown on. */
function unlessUnavailable(error: unknown): void {
  if (!isServiceUnavailable(error)) throw error;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** While the window's failures and the checks in progress make the limit: back once those are judged. */
const BUSY_RETRY_SECONDS = 5;
const BUSY_MESSAGE = 'Too many login attempts from your address at once. Try again in a few seconds.';

function blockedMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const wait = minutes >= 120 ? `${Math.ceil(minutes / 60)} hours` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many failed login attempts from your address. Try again in ${wait}.`;
}
