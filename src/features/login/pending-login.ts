/**
 * The login form's second step carries a pending-login token instead of a session: signed
 * (HMAC, a key derived from the master secret), short-lived, tied to the user's password (a
 * password change voids it) and used once (remembered in the store until it expires). No
 * session exists until the code is right.
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UserRecord } from '../../store/types.js';
import type { UsedTokens } from './used-tokens.js';

export const PENDING_FIELD = 'two_factor_token';
export const CODE_FIELD = 'two_factor_code';
const LIFETIME_MS = 5 * 60_000;

export interface PendingLogin {
  readonly userId: number;
  readonly remember: boolean;
  readonly redirectTo: string;
  readonly expires: number;
  readonly nonce: string;
  readonly password: string;
}

export function pendingLogins(opts: { encryptionKey: Uint8Array; used: UsedTokens; clock: () => number }) {
  const key = Buffer.from(hkdfSync('sha256', opts.encryptionKey, 'siteward', 'siteward pending login v1', 32));
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  const fingerprint = (user: UserRecord) => createHash('sha256').update(user.passHash).digest('base64url').slice(0, 22);

  return {
    issue(user: UserRecord, o: { remember: boolean; redirectTo: string }): string {
      const claims: PendingLogin = {
        userId: user.id,
        remember: o.remember,
        redirectTo: o.redirectTo.slice(0, 2000),
        expires: opts.clock() + LIFETIME_MS,
        nonce: randomBytes(16).toString('base64url'),
        password: fingerprint(user),
      };
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${body}.${sign(body)}`;
    },

    /** The claims of an intact, unexpired token, or null. Not yet used up: see `consume`. */
    read(token: unknown): PendingLogin | null {
      if (typeof token !== 'string' || token.length > 4096) return null;
      const [body, mac, extra] = token.split('.');
      if (!body || !mac || extra !== undefined) return null;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (typeof value !== 'object' || value === null) return null;
      const c = value as Record<string, unknown>;
      if (
        typeof c.userId !== 'number' ||
        typeof c.remember !== 'boolean' ||
        typeof c.redirectTo !== 'string' ||
        typeof c.expires !== 'number' ||
        typeof c.nonce !== 'string' ||
        typeof c.password !== 'string'
      )
        return null;
      if (c.expires <= opts.clock()) return null;
      return { userId: c.userId, remember: c.remember, redirectTo: c.redirectTo, expires: c.expires, nonce: c.nonce, password: c.password };
    },

    /** True when the token still belongs to the user's current password. */
    matches(claims: PendingLogin, user: UserRecord): boolean {
      return claims.password === fingerprint(user);
    },

    /** Uses the token up; true only the first time (any process). */
    consume(claims: PendingLogin): Promise<boolean> {
      return opts.used.use(`pending:${claims.nonce}`, claims.expires);
    },

    /** True once the token was used (checked before the code, so a used token spends no code). */
    used(claims: PendingLogin): Promise<boolean> {
      return opts.used.used(`pending:${claims.nonce}`);
    },
  };
}

export type PendingLogins = ReturnType<typeof pendingLogins>;
