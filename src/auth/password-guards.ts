/**
 * Hooks around every password check (the `/login` form and JSON login, HTTP Basic with an
 * application password, `/setup` token attempts). A guard can refuse an attempt before the
 * password is checked at all (brute-force protection) and learns each outcome afterwards.
 */

/** Where a password (or setup token) is being checked. */
export type PasswordCheckVia = 'login-form' | 'login-json' | 'basic' | 'setup';

export interface PasswordAttempt {
  readonly via: PasswordCheckVia;
  /** The login tried (as typed; '' for setup tokens). Never the password. */
  readonly login: string;
  /** The client address (the socket's, or the last `X-Forwarded-For` entry when the proxy is trusted). */
  readonly ip: string;
}

/** A guard's answer before the check: go on, or refuse with an error the caller sends as is. */
export type GuardVerdict =
  | { readonly allow: true }
  | { readonly allow: false; readonly status: number; readonly code: string; readonly message: string; readonly retryAfterSeconds?: number };

export type GuardRefusal = Extract<GuardVerdict, { allow: false }>;

/**
 * @example
 * ctx.addPasswordGuard({
 *   before: async (attempt) => (await isBlocked(attempt.ip) ? refusal : { allow: true }),
 *   after: async (attempt, outcome) => { if (!outcome.ok) await countFailure(attempt.ip); },
 * });
 */
export interface PasswordGuard {
  before?(attempt: PasswordAttempt): GuardVerdict | Promise<GuardVerdict>;
  after?(attempt: PasswordAttempt, outcome: { readonly ok: boolean }): void | Promise<void>;
}

const ALLOW: GuardVerdict = { allow: true };

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

  async before(attempt: PasswordAttempt): Promise<GuardVerdict> {
    for (const guard of this.guards) {
      if (!guard.before) continue;
      const verdict = await guard.before(attempt);
      if (!verdict.allow) return verdict;
    }
    return ALLOW;
  }

  async after(attempt: PasswordAttempt, ok: boolean): Promise<void> {
    for (const guard of this.guards) await guard.after?.(attempt, { ok });
  }

  /** Runs `check` between the hooks: refused attempts never reach it. */
  async around<T extends { ok: boolean }>(attempt: PasswordAttempt, check: () => Promise<T>): Promise<T | { ok: false; refused: GuardRefusal }> {
    if (this.empty) return check();
    const verdict = await this.before(attempt);
    if (!verdict.allow) return { ok: false, refused: verdict };
    const result = await check();
    await this.after(attempt, result.ok);
    return result;
  }
}
