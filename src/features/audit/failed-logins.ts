/**
 * Failed logins, collapsed (docs/audit-log.md "Failed logins"): a password guess is not a
 * change, and one event per attempt would let an attacker grow the log without bound (Simple
 * History #107: 8 million rows). Each failure bumps one counter per address, login and window;
 * when the window has ended a job turns each counter into one `login.failed` event with its
 * count and first and last time.
 */
import type { PasswordGuard } from '../../auth/password-guards.js';
import type { AuditLogRepo } from '../../store/types.js';

/** The window failures of one address and login collapse into. */
export const FAILED_LOGIN_WINDOW_MS = 10 * 60_000;

/** The guard that counts every failed password check (form, JSON, Basic, setup, two-factor, SSO). */
export function failedLoginGuard(
  log: Pick<AuditLogRepo, 'countFailedLogin'>,
  clock: () => number,
  windowMs = FAILED_LOGIN_WINDOW_MS,
): PasswordGuard {
  return {
    after: async (attempt, outcome) => {
      if (!outcome.ok) await log.countFailedLogin(attempt.ip, attempt.login, clock(), windowMs);
    },
  };
}
