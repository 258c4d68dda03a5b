import type { GuardOutcome, PasswordAttempt } from '../../auth/password-guards.js';
import type { AllowEntry } from './allow-list.js';
import { isAllowed } from './allow-list.js';
import type { FailureOutcome, ProtectPolicy } from './protect-policy.js';

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
      const now = clock();
      // Counted before the password is checked, atomically in the store: a burst of parallel
      // attempts gets `maxFailures` checks, not as many as arrive before the first failures land.
      const slot = await policy.reserve(attempt.ip, now);
      if (slot.kind === 'reserved') return { allow: true, ticket: slot.id };
      await policy.recordBlockedAttempt(attempt.ip, attempt.login, now);
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
        if (ticket !== undefined) await policy.release(ticket);
        return { recorded: false, why };
      }
      // A success does not reset the count: an attacker holding one account could otherwise
      // log in between guesses at other accounts and never reach the threshold.
      if (result.ok) {
        if (ticket !== undefined) await policy.release(ticket);
        return { recorded: false, why: 'success' };
      }
      return { recorded: true, outcome: await policy.recordFailure(attempt.ip, attempt.login, clock(), ticket, result.failure) };
    },
  };
}

/** While the window's failures and the checks in progress make the limit: back once those are judged. */
const BUSY_RETRY_SECONDS = 5;
const BUSY_MESSAGE = 'Too many login attempts from your address at once. Try again in a few seconds.';

function blockedMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const wait = minutes >= 120 ? `${Math.ceil(minutes / 60)} hours` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many failed login attempts from your address. Try again in ${wait}.`;
}
