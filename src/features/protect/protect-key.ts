import { randomBytes } from 'node:crypto';

/** `jetpack_protect_key` values are 40 hex characters (the reference's keys were 40+ characters). */
export function createProtectKey(random: (size: number) => Buffer = randomBytes): string {
  return random(20).toString('hex');
}

export type ProtectKeyUpdate =
  { readonly ok: true; readonly key: string; readonly created: boolean } | { readonly ok: false; readonly message: string };

/**
 * Handles `POST /module/protect` with `jetpack_protect_key`: `"create"` makes a new local key
 * (Siteward has no Protect API to fetch one from); any other alphanumeric value (letters,
 * digits, `-`, `_`; empty clears it) is kept as sent, so an operator can carry a key over.
 * An invalid value gets the reference's alphanumeric message.
 */
export function updateProtectKey(value: unknown, random?: (size: number) => Buffer): ProtectKeyUpdate {
  if (typeof value !== 'string' || !/^[\w-]*$/.test(value)) {
    return { ok: false, message: 'jetpack_protect_key must be an alphanumeric string.' };
  }
  return value === 'create' ? { ok: true, key: createProtectKey(random), created: true } : { ok: true, key: value, created: false };
}
