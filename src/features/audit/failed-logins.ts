/**
 * Failed logins, collapsed (docs/audit-log.md "Failed logins"): a password guess is not a
 * change, and one event per attempt would let an attacker grow the log without bound (Simple
 * History #107: 8 million rows). Each failure bumps one counter per address, login and window;
 * when the window has ended a job turns each counter into one `login.failed` event with its
 * count and first and last time.
 */
import { isServiceUnavailable } from '../../core/unavailable.js';
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
      if (outcome.ok) return;
      try {
        await log.countFailedLogin(attempt.ip, storableLogin(attempt.login), clock(), windowMs);
      } catch (error) {
        // A store that cannot write (full disk, outage) must not change the login's answer: the
        // failure goes uncounted in the audit log (Protect still counts it, in memory if need be).
        if (!isServiceUnavailable(error)) throw error;
      }
    },
  };
}

/**
 * The login as tried, as text every store takes: PostgreSQL's text cannot hold NUL, which a
 * client may send (refused as wrong credentials, still counted); at most 200 characters.
 */
function storableLogin(login: string): string {
  return login.replaceAll('\0', '\uFFFD').slice(0, 200);
}
