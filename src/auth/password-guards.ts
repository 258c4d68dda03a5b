/**
 * Hooks around every password check (the `/login` form and JSON login, HTTP Basic with an
 * application password, `/setup` token attempts). A guard can refuse an attempt before the
 * password is checked at all (brute-force protection) and learns each outcome afterwards.
 */
import { authError } from './errors.js';

/**
 * Where a password (or setup token) is being checked. `two-factor`: the code of the login
 * form's second step, which counts as a password check (a wrong code is a failure); `sso`: a
 * sign-in callback from the account service.
 */
export type PasswordCheckVia = 'login-form' | 'login-json' | 'basic' | 'setup' | 'two-factor' | 'sso';

export interface PasswordAttempt {
  readonly via: PasswordCheckVia;
  /** The login tried (as typed; '' for setup tokens). Never the password. */
  readonly login: string;
  /** The client address (the socket's, or the last `X-Forwarded-For` entry when the proxy is trusted). */
  readonly ip: string;
  /** `solved`: the request carried a valid, unused proof-of-work solution (the login form's challenge). */
  readonly challenge?: 'solved';
}

/** A guard's answer before the check: go on, or refuse with an error the caller sends as is. */
export type GuardVerdict =
  /**
   * `ticket`: a slot the guard reserved for this check (e.g. an attempt counted in the store
   * before the password is checked, so a parallel burst cannot outrun the count); handed back
   * to the same guard's `after`.
   */
  | { readonly allow: true; readonly ticket?: number }
  | {
      readonly allow: false;
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly retryAfterSeconds?: number;
    };

export type GuardRefusal = Extract<GuardVerdict, { allow: false }>;

/**
 * @example
 * ctx.addPasswordGuard({
 *   before: async (attempt) => (await isBlocked(attempt.ip) ? refusal : { allow: true }),
 *   after: async (attempt, outcome) => { if (!outcome.ok) await countFailure(attempt.ip); },
 * });
 */
export interface PasswordGuard {
  /**
   * True when this attempt must carry a solved challenge before its password is checked (e.g.
   * after a few failures from its address); asked before `before`, skipped when it carries one.
   */
  wantsChallenge?(attempt: PasswordAttempt): boolean | Promise<boolean>;
  /** The refusal `attempt` would get now, counting nothing (the login page shows a block before anyone types); null: none. */
  refusalNow?(attempt: PasswordAttempt): Promise<GuardRefusal | null>;
  /** Learns that `attempt` was refused for a missing, wrong or replayed challenge (no password was checked). */
  challengeRefused?(attempt: PasswordAttempt): void | Promise<void>;
  before?(attempt: PasswordAttempt): GuardVerdict | Promise<GuardVerdict>;
  after?(attempt: PasswordAttempt, outcome: GuardOutcome, ticket?: number): void | Promise<void>;
}

/** What a failed check got wrong, so the failure can be named (Protect's list): the password, or the second factor. */
export type LoginFailure = 'password' | 'code' | 'recovery_code';

/** The result a guard's `after` learns: `failure` says what was wrong when `ok` is false (default: the password). */
export interface GuardOutcome {
  readonly ok: boolean;
  readonly failure?: LoginFailure;
}

/** A recovery code has letters and a dash (`5fnhv-ojhxz`); an app's code is digits. */
export function secondFactorFailure(code: string): Exclude<LoginFailure, 'password'> {
  return /[a-z]/i.test(code) ? 'recovery_code' : 'code';
}

const ALLOW: GuardVerdict = { allow: true };

/** The refusal of an attempt that needs a solved challenge first (the login form shows one). */
export const CHALLENGE_REQUIRED: GuardRefusal = (() => {
  const error = authError('challenge_required');
  return { allow: false, status: error.status, code: error.code, message: error.message };
})();

/** The registered guards, asked in registration order; the first refusal wins. */
export class PasswordGuards {
  private readonly guards: PasswordGuard[] = [];

  add(guard: PasswordGuard): void {
    this.guards.push(guard);
  }

  /** True when no guard is registered: callers skip the hooks entirely (no cost without protect). */
  get empty(): boolean {
    return this.guards.length === 0;
  }

  /** True when a guard wants `attempt` to carry a solved challenge (the login form asks for one up front). */
  async wantsChallenge(attempt: PasswordAttempt): Promise<boolean> {
    if (attempt.challenge === 'solved') return false;
    for (const guard of this.guards) if (await guard.wantsChallenge?.(attempt)) return true;
    return false;
  }

  /** The first refusal a guard would give `attempt` now, without counting it; null when none would. */
  async refusalNow(attempt: PasswordAttempt): Promise<GuardRefusal | null> {
    for (const guard of this.guards) {
      const refusal = (await guard.refusalNow?.(attempt)) ?? null;
      if (refusal !== null) return refusal;
    }
    return null;
  }

  async before(attempt: PasswordAttempt): Promise<GuardVerdict> {
    return (await this.beforeAll(attempt)).verdict;
  }

  async after(attempt: PasswordAttempt, outcome: GuardOutcome, tickets: readonly (number | undefined)[] = []): Promise<void> {
    for (const [i, guard] of this.guards.entries()) await guard.after?.(attempt, outcome, tickets[i]);
  }

  /** The first refusal, or allow with each guard's ticket (by registration index). */
  private async beforeAll(attempt: PasswordAttempt): Promise<{ verdict: GuardVerdict; tickets: (number | undefined)[] }> {
    const tickets: (number | undefined)[] = [];
    // Nothing reserved yet: a challenge refusal has no slot to give back.
    if (await this.wantsChallenge(attempt)) {
      for (const guard of this.guards) await guard.challengeRefused?.(attempt);
      return { verdict: CHALLENGE_REQUIRED, tickets };
    }
    for (const guard of this.guards) {
      if (!guard.before) {
        tickets.push(undefined);
        continue;
      }
      const verdict = await guard.before(attempt);
      if (!verdict.allow) {
        // The guards that already reserved a slot learn that no check happened.
        for (const [i, earlier] of this.guards.slice(0, tickets.length).entries())
          if (tickets[i] !== undefined) await earlier.after?.(attempt, { ok: true }, tickets[i]);
        return { verdict, tickets };
      }
      tickets.push(verdict.ticket);
    }
    return { verdict: ALLOW, tickets };
  }

  /** Runs `check` between the hooks: refused attempts never reach it. */
  async around<T extends { ok: boolean; failure?: LoginFailure }>(
    attempt: PasswordAttempt,
    check: () => Promise<T>,
  ): Promise<T | { ok: false; refused: GuardRefusal }> {
    if (this.empty) return check();
    const { verdict, tickets } = await this.beforeAll(attempt);
    if (!verdict.allow) return { ok: false, refused: verdict };
    let result: T;
    try {
      result = await check();
    } catch (error) {
      // No password was judged (e.g. the store failed): reserved slots are given back.
      for (const [i, guard] of this.guards.entries())
        if (tickets[i] !== undefined) await guard.after?.(attempt, { ok: true }, tickets[i])?.catch?.(() => undefined);
      throw error;
    }
    await this.after(attempt, result.failure === undefined ? { ok: result.ok } : { ok: result.ok, failure: result.failure }, tickets);
    return result;
  }
}
