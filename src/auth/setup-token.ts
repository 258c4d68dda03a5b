import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store, UserRecord } from '../store/types.js';
import type { AuditEventInput } from '../wire/audit.js';
import { duplicateResult, insertUser, prepareUser, type NewUserInput, type Result, type UserWithRoles } from './user-service.js';

/**
 * The option holding the SHA-256 of the current first-run setup token. It lives in the store
 * (not in memory or a file) so that every worker process accepts the token the primary printed.
 */
export const SETUP_TOKEN_OPTION = 'siteward_setup_token_hash';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function sameHash(storedHex: unknown, token: string): boolean {
  if (typeof storedHex !== 'string' || storedHex.length !== 64) return false;
  return timingSafeEqual(Buffer.from(storedHex, 'latin1'), Buffer.from(hashToken(token), 'latin1'));
}

/** True while the site has no administrator, i.e. while `/setup` should be offered. */
export async function setupNeeded(store: Store): Promise<boolean> {
  return (await store.users.countByRole('administrator')) === 0;
}

/**
 * At start (in one process: the primary): while no administrator exists, makes a new one-time
 * token, stores its hash and returns the token to print; otherwise removes any stale token and
 * returns null. Each call replaces the previous token.
 *
 * @example
 * const token = await ensureSetupToken(store);
 * if (token) log.info(`Create the first administrator at ${siteUrl}/setup?token=${token}`);
 */
export async function ensureSetupToken(store: Store): Promise<string | null> {
  if (!(await setupNeeded(store))) {
    await store.options.delete(SETUP_TOKEN_OPTION);
    return null;
  }
  const token = randomBytes(24).toString('base64url');
  await store.options.set(SETUP_TOKEN_OPTION, hashToken(token), false);
  return token;
}

/** Constant-time check of a setup token without using it up. */
export async function checkSetupToken(store: Store, token: string): Promise<boolean> {
  if (token === '') return false;
  return sameHash(await store.options.get(SETUP_TOKEN_OPTION), token);
}

/** Checks a setup token and, when it matches, uses it up (atomically: only one caller wins). */
export async function consumeSetupToken(store: Store, token: string): Promise<boolean> {
  if (token === '') return false;
  let matched = false;
  await store.options.update(SETUP_TOKEN_OPTION, (current) => {
    matched = sameHash(current, token);
    return matched ? undefined : current;
  });
  return matched;
}

export type SetupResult =
  Result<UserWithRoles> | { readonly ok: false; readonly error: { readonly code: 'invalid_setup_token'; readonly message: string } };

/** Carries a refusal out of the setup transaction so that it rolls back (and the token stays). */
class SetupRefused {
  constructor(readonly result: SetupResult) {}
}

/**
 * The `/setup` form in one step: validates the input, then in one transaction uses up the
 * token, makes sure there is still no administrator and creates the administrator. Using the
 * token up first takes the option write lock, so concurrent attempts run one after the other
 * and only one can win. A refused attempt rolls back and leaves the token usable.
 */
export async function completeSetup(
  store: Store,
  token: string,
  input: Omit<NewUserInput, 'role'>,
  /** The audit event of the administrator created, written in the same transaction. */
  record?: (created: UserRecord) => AuditEventInput,
): Promise<SetupResult> {
  const invalid: SetupResult = {
    ok: false,
    error: { code: 'invalid_setup_token', message: 'The setup token is invalid or was already used.' },
  };
  if (!(await checkSetupToken(store, token))) return invalid;
  const prepared = await prepareUser({ ...input, role: 'administrator' });
  if (!prepared.ok) return prepared;
  try {
    return await store.transaction(async (tx) => {
      let matched = false;
      await tx.options.update(SETUP_TOKEN_OPTION, (current) => {
        matched = sameHash(current, token);
        return matched ? undefined : current;
      });
      if (!matched || (await tx.users.countByRole('administrator')) > 0) throw new SetupRefused(invalid);
      const created = await insertUser(tx, prepared.value);
      if (!created.ok) throw new SetupRefused(created);
      if (record) tx.audit(record(created.value.user));
      return created;
    });
  } catch (error) {
    if (error instanceof SetupRefused) return error.result;
    return duplicateResult<UserWithRoles>(error);
  }
}
