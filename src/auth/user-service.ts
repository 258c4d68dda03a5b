import { UniqueViolationError } from '../store/errors.js';
import type { Store, StoreTransaction, UserRecord } from '../store/types.js';
import type { AuditEventInput } from '../wire/audit.js';
import { hashPassword } from './passwords.js';
import { ROLE_NAMES, isRoleName, type RoleName } from './roles.js';
import {
  checkEmail,
  checkDisplayName,
  checkLogin,
  checkPassword,
  duplicateEmailError,
  duplicateLoginError,
  unknownRoleError,
  unknownUserError,
  type UserError,
} from './user-validation.js';

export interface NewUserInput {
  readonly login: string;
  readonly email: string;
  readonly password: string;
  readonly role: string;
  /** Defaults to the login. */
  readonly displayName?: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: UserError };

export interface UserWithRoles {
  readonly user: UserRecord;
  readonly roles: readonly string[];
}

/** A validated new user whose password is already hashed (hashing is slow: keep it out of transactions). */
export interface PreparedUser {
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  readonly passHash: string;
  readonly role: RoleName;
}

const fail = <T>(error: UserError): Result<T> => ({ ok: false, error });

/** Validates a new user and hashes the password. */
export async function prepareUser(input: NewUserInput): Promise<Result<PreparedUser>> {
  const problem =
    checkLogin(input.login) ?? checkEmail(input.email) ?? checkDisplayName(input.displayName ?? '') ?? checkPassword(input.password);
  if (problem) return fail(problem);
  if (!isRoleName(input.role)) return fail(unknownRoleError(input.role, ROLE_NAMES));
  return {
    ok: true,
    value: {
      login: input.login,
      email: input.email,
      displayName: input.displayName?.trim() || input.login,
      passHash: await hashPassword(input.password),
      role: input.role,
    },
  };
}

/**
 * Inserts a prepared user with its role inside a transaction. A duplicate found up front is an
 * error result; one inserted concurrently makes the insert throw a UniqueViolationError (which
 * must roll the transaction back: PostgreSQL cannot go on after it), turned into the same
 * result by `duplicateResult`.
 */
export async function insertUser(tx: StoreTransaction, prepared: PreparedUser): Promise<Result<UserWithRoles>> {
  if (await tx.users.byLogin(prepared.login)) return fail(duplicateLoginError());
  if (await tx.users.byEmail(prepared.email)) return fail(duplicateEmailError());
  const user = await tx.users.create(prepared);
  await tx.users.setRoles(user.id, [prepared.role]);
  return { ok: true, value: { user, roles: [prepared.role] } };
}

/** The error result for a UniqueViolationError thrown out of a transaction; rethrows anything else. */
export function duplicateResult<T>(error: unknown): Result<T> {
  if (error instanceof UniqueViolationError) {
    return fail(error.field === 'email' ? duplicateEmailError() : duplicateLoginError());
  }
  throw error;
}

export interface UserService {
  create(input: NewUserInput): Promise<Result<UserWithRoles>>;
  /** Sets a new password and ends every session of the user (as WordPress's `wp_set_password`). */
  /**
   * Sets a password and ends all of the user's sessions; `record` gives the audit events (the
   * password change, `session.ended` when sessions ended) written in the same transaction.
   */
  setPassword(login: string, password: string, record?: PasswordEvents): Promise<Result<UserRecord>>;
  /** Deletes a user with their sessions and application passwords. */
  delete(login: string): Promise<Result<UserRecord>>;
  list(): Promise<UserWithRoles[]>;
}

/** The audit events of a password set for `user` that ended `sessionsEnded` sessions. */
export type PasswordEvents = (user: UserRecord, sessionsEnded: number) => readonly AuditEventInput[];

export interface UserServiceOptions {
  /** Called after a user's password, roles or existence changed (e.g. to drop cached verifications). */
  onUserChanged?: (userId: number) => void;
}

/**
 * User management with validation (duplicate login or e-mail, unknown role, password rules).
 *
 * @example
 * const users = createUserService(store, { onUserChanged: (id) => authenticator.forgetUser(id) });
 * const created = await users.create({ login: 'ann', email: 'ann@example.com', password, role: 'editor' });
 * if (!created.ok) console.error(created.error.message);
 */
export function createUserService(store: Store, options: UserServiceOptions = {}): UserService {
  const changed = (id: number): void => options.onUserChanged?.(id);

  return {
    async create(input) {
      const prepared = await prepareUser(input);
      if (!prepared.ok) return prepared;
      return store.transaction((tx) => insertUser(tx, prepared.value)).catch(duplicateResult<UserWithRoles>);
    },

    async setPassword(login, password, record) {
      const problem = checkPassword(password);
      if (problem) return fail(problem);
      const user = await store.users.byLogin(login);
      if (!user) return fail(unknownUserError(login));
      const passHash = await hashPassword(password);
      await store.transaction(async (tx) => {
        await tx.users.setPassword(user.id, passHash);
        const ended = await tx.sessions.destroyForUser(user.id);
        for (const event of record?.(user, ended) ?? []) tx.audit(event);
      });
      changed(user.id);
      return { ok: true, value: { ...user, passHash } };
    },

    async delete(login) {
      const user = await store.users.byLogin(login);
      if (!user) return fail(unknownUserError(login));
      await store.users.delete(user.id);
      changed(user.id);
      return { ok: true, value: user };
    },

    async list() {
      const users = await store.users.list();
      return Promise.all(users.map(async (user) => ({ user, roles: await store.users.roles(user.id) })));
    },
  };
}
