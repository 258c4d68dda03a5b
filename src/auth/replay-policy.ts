import type { ReplayPolicy } from '../rest/replay.js';
import type { Store } from '../store/types.js';
import { systemClock, type Clock } from './clock.js';
import { NONCE_LIFE_SECONDS, nonceTick } from './nonce.js';

/** One nonce tick in ms: `nonceTick` is `ceil(now / TICK_MS)`, so tick t holds for now in ((t − 1)·TICK_MS, t·TICK_MS]. */
const TICK_MS = (NONCE_LIFE_SECONDS / 2) * 1000;

/**
 * When the REST layer may give an answer again (src/rest/replay.ts), for this process's store
 * and authenticator:
 * - state: the options and credentials versions, known without waiting (SQLite: read in this
 *   request batch with nothing written since, or read now; PostgreSQL: pushed by the change
 *   listener).
 *   Every option, user, role, meta, session and application-password write moves one of them.
 * - time: within the nonce tick (the fresh X-WP-Nonce and the validity of the one sent change
 *   with it) and, for a login, before the session ends; for an application password, while its
 *   verification is trusted (VERIFIED_APP_PASSWORD_TTL_MS after the check). Refused credentials
 *   are never replayed (the REST layer does not ask).
 *
 * `clock` must be the authenticator's.
 */
export function createReplayPolicy(options: { store: Store; clock?: Clock }): ReplayPolicy {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  // Speed: the last pair's text is kept, so a repeat builds no string.
  let lastOptions = -1;
  let lastCredentials = -1;
  let lastText = '';
  return {
    stateVersion() {
      let o = store.options.knownVersion?.();
      let c = store.sessions.knownCredentialsVersion?.();
      if (o === undefined || c === undefined) {
        // SQLite: the batch's first request reads both now (one prepared statement), and the
        // batch's other requests share them.
        const now = store.readStateVersionsNow?.();
        if (now === undefined) return undefined;
        o = now.options;
        c = now.credentials;
      }
      if (o !== lastOptions || c !== lastCredentials) {
        lastOptions = o;
        lastCredentials = c;
        lastText = `${o}.${c}`;
      }
      return lastText;
    },
    expiry(identity) {
      const tickEnd = nonceTick(clock()) * TICK_MS + 1;
      if (identity.kind === 'anonymous') return tickEnd;
      if ((identity.kind === 'cookie' || identity.kind === 'other') && identity.expiresAt !== undefined)
        return Math.min(identity.expiresAt, tickEnd);
      return 0;
    },
    now: clock,
  };
}
