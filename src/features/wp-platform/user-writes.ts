/**
 * Creating, changing and deleting users through `wp/v2/users` (docs/spec/current-clients.md
 * §B.4, §B.6): WordPress's checks in its order, Siteward's password rule (the CLI's), and the
 * last administrator kept. A password or role change ends the user's other sessions.
 */
import { ROLES, isRoleName } from '../../auth/roles.js';
import { prepareUser, insertUser, duplicateResult, type UserWithRoles } from '../../auth/user-service.js';
import { hashPassword } from '../../auth/passwords.js';
import { newPasswordProblem } from '../../auth/password-strength.js';
import type { SitewardAuthenticator } from '../../auth/authenticator.js';
import { UniqueViolationError } from '../../store/errors.js';
import { invalidParams, type RestError } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { loadAllProfiles, loadProfile, sanitizeSlug, slugOf, type ProfileKey, type UserProfile } from './user-records.js';
import { unknownRoleError, userServiceError, wpError } from './wp-errors.js';

export interface WriteDeps {
  readonly store: Store;
  readonly authenticator: SitewardAuthenticator;
}

/** Profile fields of the request body → their user-meta keys. */
const META_PARAMS: Readonly<Record<string, ProfileKey>> = {
  first_name: 'first_name',
  last_name: 'last_name',
  description: 'description',
  nickname: 'nickname',
  locale: 'locale',
  url: 'user_url',
};

/**
 * `check_role_update`: unknown role 400, a role the caller may not give 403, and editing
 * yourself to roles without `edit_users` refused; then Siteward's rule: the last administrator
 * keeps the role.
 */
async function checkRoles(deps: WriteDeps, request: RestRequest, targetId: number | null, currentRoles: readonly string[], roles: readonly string[]): Promise<RestError | null> {
  for (const role of roles) {
    if (!isRoleName(role)) return unknownRoleError(role);
    if (targetId === request.user.id && !ROLES[role].capabilities.has('edit_users')) return wpError('self_demotion', request);
    // Every standard role is editable by whoever may promote users (administrators).
    if (!request.user.can('promote_users')) return wpError('role_not_allowed', request);
  }
  if (targetId !== null && currentRoles.includes('administrator') && !roles.includes('administrator')) {
    if ((await deps.store.users.countByRole('administrator')) <= 1) return wpError('last_admin_demotion', request);
  }
  return null;
}

/**
 * Ends every session of the user, as `siteward user set-password` does. (A login cookie is bound
 * to the password, so after a password change no session of the user could go on anyway.)
 */
async function endSessions(deps: WriteDeps, userId: number): Promise<void> {
  await deps.store.sessions.destroyForUser(userId);
  deps.authenticator.forgetUser(userId);
}

/** A slug no other user has; an error when taken. */
async function checkSlug(store: Store, slug: string, selfId: number | null, request: RestRequest): Promise<RestError | null> {
  const all = await loadAllProfiles(store);
  return all.some((p) => p.user.id !== selfId && slugOf(p) === slug) ? wpError('invalid_slug', request) : null;
}

async function writeMeta(store: Store, userId: number, params: Record<string, unknown>, slug: string | undefined): Promise<void> {
  for (const [param, key] of Object.entries(META_PARAMS)) {
    const value = params[param];
    if (typeof value === 'string') await store.userMeta.set(userId, key, value);
  }
  if (slug !== undefined) await store.userMeta.set(userId, 'nicename', slug);
}

function requestedRoles(params: Record<string, unknown>): string[] | undefined {
  return Array.isArray(params.roles) ? params.roles.map(String) : undefined;
}

/**
 * Siteward's one password rule (src/auth/password-strength.ts, the CLI's, setup's and reset's),
 * answered as WordPress answers a refused argument: 400 `rest_invalid_param` naming `password`.
 */
async function weakPassword(password: string, related: readonly string[]): Promise<RestError | null> {
  const problem = await newPasswordProblem(password, related);
  return problem ? invalidParams({ password: problem.message }) : null;
}

/** POST wp/v2/users. */
export async function createUser(deps: WriteDeps, request: RestRequest): Promise<UserProfile | RestError> {
  const p = request.params;
  if (p.id !== undefined) return wpError('user_exists', request);
  const roles = requestedRoles(p);
  if (roles) {
    const problem = await checkRoles(deps, request, null, [], roles);
    if (problem) return problem;
  }
  const slug = typeof p.slug === 'string' && p.slug !== '' ? sanitizeSlug(p.slug) : undefined;
  if (slug !== undefined) {
    const taken = await checkSlug(deps.store, slug, null, request);
    if (taken) return taken;
  }
  const weak = await weakPassword(String(p.password), [String(p.username), String(p.email)]);
  if (weak) return weak;
  const prepared = await prepareUser({
    login: String(p.username),
    email: String(p.email),
    password: String(p.password),
    role: roles?.[0] ?? 'subscriber',
    displayName: typeof p.name === 'string' ? p.name : undefined,
  });
  if (!prepared.ok) return userServiceError(prepared.error);
  const inserted = await deps.store.transaction((tx) => insertUser(tx, prepared.value)).catch(duplicateResult<UserWithRoles>);
  if (!inserted.ok) return userServiceError(inserted.error);
  const id = inserted.value.user.id;
  if (roles && roles.length !== 1) await deps.store.users.setRoles(id, roles);
  await writeMeta(deps.store, id, p, slug);
  return (await loadProfile(deps.store, id))!;
}

/** POST/PUT/PATCH wp/v2/users/{id|me}, after the permission check. */
export async function updateUser(deps: WriteDeps, request: RestRequest, target: UserProfile): Promise<UserProfile | RestError> {
  const p = request.params;
  const { user } = target;
  if (typeof p.username === 'string' && p.username !== user.login) return wpError('username_not_editable', request);
  const email = typeof p.email === 'string' && p.email.toLowerCase() !== user.email.toLowerCase() ? p.email : undefined;
  if (email !== undefined) {
    const owner = await deps.store.users.byEmail(email);
    if (owner && owner.id !== user.id) return wpError('invalid_email', request);
  }
  const slug = typeof p.slug === 'string' ? sanitizeSlug(p.slug) : undefined;
  if (slug !== undefined && slug !== slugOf(target)) {
    const taken = await checkSlug(deps.store, slug, user.id, request);
    if (taken) return taken;
  }
  const roles = requestedRoles(p);
  const rolesChange = roles !== undefined && (roles.length !== target.roles.length || roles.some((r) => !target.roles.includes(r)));
  if (roles) {
    const problem = await checkRoles(deps, request, user.id, target.roles, roles);
    if (problem) return problem;
  }
  if (typeof p.password === 'string') {
    const weak = await weakPassword(p.password, [user.login, email ?? user.email]);
    if (weak) return weak;
  }
  // Hashing is slow: before any write, outside the store's transaction.
  const passHash = typeof p.password === 'string' ? await hashPassword(p.password) : undefined;

  try {
    await deps.store.users.updateProfile(user.id, { email, displayName: typeof p.name === 'string' ? p.name : undefined });
  } catch (error) {
    if (error instanceof UniqueViolationError) return wpError('invalid_email', request);
    throw error;
  }
  await writeMeta(deps.store, user.id, p, slug !== undefined && slug !== slugOf(target) ? slug : undefined);
  if (passHash !== undefined) await deps.store.users.setPassword(user.id, passHash);
  if (rolesChange) await deps.store.users.setRoles(user.id, roles);
  if (passHash !== undefined || rolesChange) await endSessions(deps, user.id);
  return (await loadProfile(deps.store, user.id))!;
}

/** DELETE wp/v2/users/{id|me}, after the permission check: `force` must be true; `reassign` names another existing user or none. */
export async function deleteUser(deps: WriteDeps, request: RestRequest, target: UserProfile): Promise<RestError | null> {
  const p = request.params;
  if (p.force !== true) return wpError('trash_not_supported', request);
  const reassign = p.reassign;
  if (typeof reassign === 'number') {
    // Siteward has no content to hand over; the id must still name another existing user, as in WordPress.
    if (reassign === target.user.id || !(await deps.store.users.byId(reassign))) return wpError('invalid_reassign', request);
  }
  if (target.roles.includes('administrator') && (await deps.store.users.countByRole('administrator')) <= 1) return wpError('last_admin_deletion', request);
  await deps.store.users.delete(target.user.id);
  deps.authenticator.forgetUser(target.user.id);
  return null;
}

/** `reassign`'s sanitizer (WordPress `check_reassign`): an integer, or false / "false" / "" for none. */
export function sanitizeReassign(value: unknown, request: RestRequest): number | false | RestError {
  if (value === false || value === 'false' || value === '') return false;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return wpError('invalid_reassign_param', request);
}

