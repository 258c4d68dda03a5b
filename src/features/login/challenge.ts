/**
 * The login form's proof-of-work challenge (ALTCHA: altcha-lib here, the `altcha` widget in the
 * browser, both served by Siteward). A challenge is signed with a key derived from the master
 * secret, carries (signed) a digest of the form's anti-CSRF token, so a solution is bound to
 * the browser that got the form, and expires; a verified solution's signature is remembered
 * until then, so each is used once on every worker and host.
 */
import { createHash, hkdfSync } from 'node:crypto';
import type * as AltchaLib from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import type * as AltchaPbkdf2 from 'altcha-lib/algorithms/pbkdf2';
import type { UsedTokens } from './used-tokens.js';

let loaded:
  Promise<Pick<typeof AltchaLib, 'createChallenge' | 'randomInt' | 'verifySolution'> & Pick<typeof AltchaPbkdf2, 'deriveKey'>> | undefined;

/**
 * altcha-lib (with @noble/hashes) is imported at the first challenge, not at start: it is asked
 * for only after failed logins, and a module once loaded stays in the worker's memory.
 */
function altcha() {
  loaded ??= Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]).then(([lib, pbkdf2]) => ({
    createChallenge: lib.createChallenge,
    randomInt: lib.randomInt,
    verifySolution: lib.verifySolution,
    deriveKey: pbkdf2.deriveKey,
  }));
  return loaded;
}

export const CHALLENGE_FIELD = 'altcha';
const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations per try, and how many tries the solver must make (a random count in this range): about a second in a browser. */
const COST = 1000;
const COUNTER_MIN = 2000;
const COUNTER_MAX = 5000;
const LIFETIME_MS = 10 * 60_000;

export interface LoginChallenge {
  /** A new challenge for the form of the browser holding `formToken`, as the widget reads it. */
  create(formToken: string): Promise<Challenge>;
  /** True for a valid, unexpired, unused solution made for this form; it is then used up. */
  verify(payload: unknown, formToken: string): Promise<boolean>;
}

export function loginChallenge(opts: { encryptionKey: Uint8Array; used: UsedTokens; clock: () => number }): LoginChallenge {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', opts.encryptionKey, 'siteward', label, 32)).toString('base64url');
  const hmacSignatureSecret = derive('siteward login challenge v1');
  const hmacKeySignatureSecret = derive('siteward login challenge key v1');
  const formDigest = (formToken: string) => createHash('sha256').update(`siteward challenge|${formToken}`).digest('base64url').slice(0, 32);

  return {
    async create(formToken) {
      const { createChallenge, randomInt, deriveKey } = await altcha();
      return createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(COUNTER_MIN, COUNTER_MAX),
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
        expiresAt: Math.floor((opts.clock() + LIFETIME_MS) / 1000),
        data: { form: formDigest(formToken) },
      });
    },

    async verify(payload, formToken) {
      const decoded = decodePayload(payload);
      if (!decoded) return false;
      const { challenge, solution } = decoded;
      const expiresAt = challenge.parameters.expiresAt;
      if (challenge.parameters.data?.form !== formDigest(formToken) || typeof expiresAt !== 'number' || expiresAt * 1000 <= opts.clock())
        return false;
      const { verifySolution, deriveKey } = await altcha();
      const result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret }).catch(
        () => null,
      );
      if (!result?.verified || typeof challenge.signature !== 'string') return false;
      return opts.used.use(`challenge:${challenge.signature}`, expiresAt * 1000);
    },
  };
}

/** The widget's field: base64 of `{ challenge, solution }`; anything else is null. */
function decodePayload(payload: unknown): { challenge: Challenge; solution: { counter: number; derivedKey: string } } | null {
  if (typeof payload !== 'string' || payload.length > 8192) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(value) || !isObject(value.challenge) || !isObject(value.solution)) return null;
  const { challenge, solution } = value;
  const p = challenge.parameters;
  if (!isObject(p) || typeof challenge.signature !== 'string') return null;
  if (typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
  const strings = ['algorithm', 'nonce', 'salt', 'keyPrefix'] as const;
  if (strings.some((k) => typeof p[k] !== 'string') || typeof p.cost !== 'number' || typeof p.keyLength !== 'number') return null;
  if (p.algorithm !== ALGORITHM || p.cost !== COST) return null;
  const data = isObject(p.data) ? { form: typeof p.data.form === 'string' ? p.data.form : '' } : undefined;
  const parameters = {
    algorithm: String(p.algorithm),
    nonce: String(p.nonce),
    salt: String(p.salt),
    cost: p.cost,
    keyLength: p.keyLength,
    keyPrefix: String(p.keyPrefix),
    ...(typeof p.keySignature === 'string' ? { keySignature: p.keySignature } : {}),
    ...(typeof p.expiresAt === 'number' ? { expiresAt: p.expiresAt } : {}),
    ...(data ? { data } : {}),
  };
  return {
    challenge: { parameters, signature: challenge.signature },
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
