import type { Clock } from '../auth/clock.js';

/**
 * Counts failed logins per login name and refuses further attempts for a while after too many,
 * so a password cannot be guessed at full speed. An attempt takes its slot (`begin`) before the
 * password is checked, so a burst of parallel attempts gets no more checks than the limit. In
 * memory, and synchronous (hence atomic): the dev service is one process.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { count: number; since: number }>();
  /** Checks in progress per login. */
  readonly #running = new Map<string, number>();
  readonly #clock: Clock;
  readonly #max: number;
  readonly #windowMs: number;

  constructor(clock: Clock, max = 5, windowMs = 15 * 60_000) {
    this.#clock = clock;
    this.#max = max;
    this.#windowMs = windowMs;
  }

  /** True while `login` has used up its failed attempts in the current window. */
  blocked(login: string): boolean {
    const entry = this.#entry(login);
    return entry !== undefined && entry.count >= this.#max;
  }

  /**
   * Takes a slot for one password check of `login`: false (check nothing, refuse) while its
   * failures in the window plus the checks in progress reach the limit. Each true is paired
   * with one `end`.
   */
  begin(login: string): boolean {
    const key = login.toLowerCase();
    const running = this.#running.get(key) ?? 0;
    if ((this.#entry(login)?.count ?? 0) + running >= this.#max) return false;
    this.#running.set(key, running + 1);
    return true;
  }

  /** Ends a check `begin` allowed, counting its failure or clearing the count on success. */
  end(login: string, ok: boolean): void {
    const key = login.toLowerCase();
    const running = (this.#running.get(key) ?? 1) - 1;
    if (running > 0) this.#running.set(key, running);
    else this.#running.delete(key);
    if (ok) this.succeed(login);
    else this.fail(login);
  }

  fail(login: string): void {
    const key = login.toLowerCase();
    const entry = this.#entry(login) ?? { count: 0, since: this.#clock() };
    entry.count += 1;
    this.#failures.set(key, entry);
    // Bounded: a flood of made-up logins must not grow memory without limit.
    if (this.#failures.size > 10_000) {
      const oldest = this.#failures.keys().next();
      if (oldest.done !== true) this.#failures.delete(oldest.value);
    }
  }

  succeed(login: string): void {
    this.#failures.delete(login.toLowerCase());
  }

  #entry(login: string): { count: number; since: number } | undefined {
    const key = login.toLowerCase();
    const entry = this.#failures.get(key);
    if (entry !== undefined && this.#clock() - entry.since >= this.#windowMs) {
      this.#failures.delete(key);
      return undefined;
    }
    return entry;
  }
}
