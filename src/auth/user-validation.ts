/** Rules for logins, e-mail addresses and passwords, with WordPress's codes and wording where it has them. */
import { longerThan, USER_LIMITS } from '../core/text-limits.js';

export type UserErrorCode =
  | 'empty_user_login'
  | 'invalid_username'
  | 'user_login_too_long'
  | 'existing_user_login'
  | 'invalid_email'
  | 'display_name_too_long'
  | 'existing_user_email'
  | 'invalid_role'
  | 'empty_password'
  | 'password_too_short'
  | 'password_too_long'
  | 'weak_password'
  | 'unknown_user';

export interface UserError {
  readonly code: UserErrorCode;
  readonly message: string;
}

export const MIN_PASSWORD_LENGTH = 8;
/** Bounds the work one login attempt can cause. */
export const MAX_PASSWORD_LENGTH = 4096;
export const MAX_LOGIN_LENGTH = USER_LIMITS.login;

export const userError = (code: UserErrorCode, message: string): UserError => ({ code, message });

/**
 * A login must already be what WordPress's strict `sanitize_user` would keep: ASCII letters,
 * digits, space, `_ . - @`, no leading, trailing or doubled spaces, at most 60 characters.
 * (It also keeps `|` out, which separates the login cookie's fields.)
 */
export function checkLogin(login: string): UserError | null {
  if (login.trim() === '') return userError('empty_user_login', 'Cannot create a user with an empty login name.');
  if (login.length > MAX_LOGIN_LENGTH) {
    return userError('user_login_too_long', `Username may not be longer than ${MAX_LOGIN_LENGTH} characters.`);
  }
  if (!/^[A-Za-z0-9 _.@-]+$/.test(login) || login !== login.trim() || login.includes('  ')) {
    return userError(
      'invalid_username',
      'This username is invalid because it uses illegal characters. Use letters, digits, spaces and . - _ @ only.',
    );
  }
  return null;
}

/** WordPress's `is_email` (docs/spec/compat.md §10). */
export function isEmail(email: string): boolean {
  if (email.length < 6) return false;
  const at = email.indexOf('@', 1);
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (domain.includes('..')) return false;
  if (domain.startsWith('.') || domain.endsWith('.')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => /^[a-z0-9-]+$/i.test(label) && !label.startsWith('-') && !label.endsWith('-'));
}

export function checkEmail(email: string): UserError | null {
  // WordPress's user_email column holds 100 characters.
  if (longerThan(email, USER_LIMITS.email))
    return userError('invalid_email', `The email address may not be longer than ${USER_LIMITS.email} characters.`);
  return isEmail(email) ? null : userError('invalid_email', 'The email address is not valid.');
}

/** WordPress's display_name column holds 250 characters. */
export function checkDisplayName(name: string): UserError | null {
  return longerThan(name, USER_LIMITS.displayName)
    ? userError('display_name_too_long', `The display name may not be longer than ${USER_LIMITS.displayName} characters.`)
    : null;
}

export function checkPassword(password: string): UserError | null {
  if (password === '') return userError('empty_password', 'Please enter a password.');
  if (password.length < MIN_PASSWORD_LENGTH) {
    return userError('password_too_short', `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return userError('password_too_long', `The password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`);
  }
  return null;
}

export function duplicateLoginError(): UserError {
  return userError('existing_user_login', 'Sorry, that username already exists!');
}

export function duplicateEmailError(): UserError {
  return userError('existing_user_email', 'Sorry, that email address is already used!');
}

export function unknownRoleError(role: string, known: readonly string[]): UserError {
  return userError('invalid_role', `Unknown role "${role}"; use one of: ${known.join(', ')}.`);
}

export function unknownUserError(login: string): UserError {
  return userError('unknown_user', `Unknown user "${login}".`);
}
