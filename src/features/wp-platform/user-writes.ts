/**
 * Creating, changing and deleting users through `wp/v2/users` (docs/spec/current-clients.md
 * §B.4, §B.6): WordPress's checks in its order, Siteward's password rule (the CLI's), and the
 * last administrator kept (atomically). A password or role change ends the user's other
 * sessions; the caller's own goes on, its cookie signed again after their own password change.
 */
import { ROLES, isRoleName } from '../../auth/roles.js';
import { prepareUser, insertUser, duplicateResult, type UserWithRoles } from '../../auth/user-service.js';
import { hashPassword } from '../../auth/passwords.js';
import { newPasswordProblem } from '../../auth/password-strength.js';
import type { SitewardAuthenticator } from '../../auth/authenticator.js';
import { UniqueViolationError } from '../../store/errors.js';
import { isRestError, type RestError } from '../../rest/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { JsonObject } from '../../core/json.js';
import type { RestRequest } from '../../rest/types.js';
import type { Store, StoreTransaction } from '../../store/types.js';
import { LOGIN_COOKIE_NAME, loginCookieHeader, readCookie } from '../../auth/login-cookie.js';
import { loadAllProfiles, loadProfile, PREFERENCES_META, sanitizeSlug, slugOf, type ProfileKey, type UserProfile } from './user-records.js';
import { invalidArgument, unknownRoleError, userServiceError, wpError } from './wp-errors.js';
import { atMostMessage, longerThan, USER_LIMITS } from '../../core/text-limits.js';
import { auditEvent, RequestSources, type AuditSource } from '../audit/index.js';
import type { AuditChange } from '../../wire/audit.js';

/** Who asks (audit events): the request's user, credential and address. */
function sourceOf(deps: WriteDeps, request: RestRequest): Promise<AuditSource> {
  return new RequestSources(deps.store.appPasswords).of(request);
}

const userObject = (id: number, login: string) => ({ type: 'user', id: String(id), name: login });

export interface WriteDeps {
  readonly store: Store;
  readonly authenticator: SitewardAuthenticator;
}

/** The writable fields a create or update carries (validated and sanitized by the route's arguments). */
export type UserFields = {
  readonly username?: string;
  readonly name?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly email?: string;
  readonly url?: string;
  readonly description?: string;
  readonly locale?: string;
  readonly nickname?: string;
  readonly slug?: string;
  readonly roles?: readonly string[];
  readonly password?: string;
  readonly meta?: unknown;
};

/** Profile fields of the request body → their user-meta keys. */
const META_PARAMS: Readonly<Partial<Record<keyof UserFields, ProfileKey>>> = {
  first_name: 'first_name',
  last_name: 'last_name',
  description: 'description',
  nickname: 'nickname',
  locale: 'locale',
  url: 'user_url',
};

/**
 * `check_role_update`: unknown role 400, a role the caller may not give 403, and editing
 * yourself to roles without `edit_users` refused. (Siteward's last-administrator rule is checked
 * inside the write's transaction: see `keepsAnAdministrator`.)
 */
function checkRoles(request: RestRequest, targetId: number | null, roles: readonly string[]): RestError | null {
  for (const role of roles) {
    if (!isRoleName(role)) return unknownRoleError(role);
    if (targetId === request.user.id && !ROLES[role].capabilities.has('edit_users')) return wpError('self_demotion', request);
    // Every standard role is editable by whoever may promote users (administrators).
    if (!request.user.can('promote_users')) return wpError('role_not_allowed', request);
  }
  return null;
}

/**
 * Inside the transaction that removes an administrator (deletion or demotion): whether another
 * one remains. The lock makes the count and the write one step, so two administrators removing
 * each other at once cannot both pass (on PostgreSQL the second waits and then counts again).
 */
async function keepsAnAdministrator(tx: StoreTransaction, userId: number): Promise<boolean> {
  await tx.users.lockCredentials();
  if (!(await tx.users.roles(userId)).includes('administrator')) return true;
  return (await tx.users.countByRole('administrator')) > 1;
}

/** The caller's own login session, when the caller is `userId` logged in by the login cookie. */
interface OwnSession {
  readonly token: string;
  readonly cookie: string;
}

async function ownSession(deps: WriteDeps, request: RestRequest, userId: number): Promise<OwnSession | null> {
  if (request.user.id !== userId || (request.credential ?? null) !== null) return null;
  const cookie = readCookie(request.headers.cookie, LOGIN_COOKIE_NAME);
  if (cookie === undefined || cookie === '') return null;
  const identity = await deps.authenticator.identify(request.headers);
  return identity.kind === 'cookie' && identity.principal.id === userId ? { token: identity.sessionToken, cookie } : null;
}

/**
 * After a password or role change: ends the user's other sessions, as `siteward user
 * set-password` does; the caller's own session goes on when the change is their own.
 */
async function endOtherSessions(deps: WriteDeps, userId: number, own: OwnSession | null, source: AuditSource): Promise<void> {
  if (own) await deps.authenticator.sessions.destroyOtherSessions(userId, own.token, source);
  else await deps.authenticator.sessions.destroyUserSessions(userId, source);
  deps.authenticator.forgetUser(userId);
}

/** A slug no other user has; an error when taken. */
async function checkSlug(store: Store, slug: string, selfId: number | null, request: RestRequest): Promise<RestError | null> {
  const all = await loadAllProfiles(store);
  return all.some((p) => p.user.id !== selfId && slugOf(p) === slug) ? wpError('invalid_slug', request) : null;
}

async function writeMeta(
  store: Pick<StoreTransaction, 'userMeta'>,
  userId: number,
  params: UserFields,
  slug: string | undefined,
): Promise<void> {
  for (const [param, key] of Object.entries(META_PARAMS)) {
    const value = params[param as keyof UserFields];
    if (typeof value === 'string') await store.userMeta.set(userId, key, value);
  }
  if (slug !== undefined) await store.userMeta.set(userId, 'nicename', slug);
}

/**
 * WordPress's own length limits (`wp_insert_user`, in its order, with its codes), then its
 * `wp_users` column sizes and Siteward's for what WordPress keeps unbounded in user meta: checked
 * before anything else (a password check over a 9 MB name would be slow). `slug` is sanitized.
 */
function tooLong(p: UserFields, slug: string | undefined): RestError | null {
  const over = (name: keyof UserFields, max: number) => typeof p[name] === 'string' && longerThan(p[name], max);
  if (over('username', USER_LIMITS.login)) return wpError('login_too_long');
  if (slug !== undefined && longerThan(slug, USER_LIMITS.nicename)) return wpError('nicename_too_long');
  if (over('url', USER_LIMITS.url)) return wpError('url_too_long');
  const sizes: readonly (readonly [keyof UserFields, number])[] = [
    ['email', USER_LIMITS.email],
    ['name', USER_LIMITS.displayName],
    ['first_name', USER_LIMITS.name],
    ['last_name', USER_LIMITS.name],
    ['nickname', USER_LIMITS.name],
    ['description', USER_LIMITS.description],
  ];
  for (const [name, max] of sizes) if (over(name, max)) return invalidArgument(name, atMostMessage(name, max));
  return null;
}

function requestedRoles(params: UserFields): string[] | undefined {
  return Array.isArray(params.roles) ? params.roles.map(String) : undefined;
}

/**
 * Siteward's one password rule (src/auth/password-strength.ts, the CLI's, setup's and reset's),
 * answered as WordPress answers a refused argument: 400 `rest_invalid_param` naming `password`.
 */
async function weakPassword(password: string, related: readonly string[]): Promise<RestError | null> {
  const problem = await newPasswordProblem(password, related);
  return problem ? invalidArgument('password', problem.message) : null;
}

/** POST wp/v2/users (a sent `id` refused by the route). */
export async function createUser(deps: WriteDeps, request: RestRequest, p: UserFields): Promise<UserProfile | RestError> {
  const roles = requestedRoles(p);
  if (roles) {
    const problem = checkRoles(request, null, roles);
    if (problem) return problem;
  }
  const slug = typeof p.slug === 'string' && p.slug !== '' ? sanitizeSlug(p.slug) : undefined;
  const long = tooLong(p, slug);
  if (long) return long;
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
  const source = await sourceOf(deps, request);
  const inserted = await deps.store
    .transaction(async (tx) => {
      const done = await insertUser(tx, prepared.value);
      if (done.ok) {
        const { user: created, roles: given } = done.value;
        tx.audit(
          auditEvent(source, 'user.created', userObject(created.id, created.login), {
            login: { before: null, after: created.login },
            email: { before: null, after: created.email },
            roles: { before: null, after: roles ?? given },
            password: { secret: true },
          }),
        );
      }
      return done;
    })
    .catch(duplicateResult<UserWithRoles>);
  if (!inserted.ok) return userServiceError(inserted.error);
  const id = inserted.value.user.id;
  if (roles && roles.length !== 1) await deps.store.users.setRoles(id, roles);
  await writeMeta(deps.store, id, p, slug);
  return (await loadProfile(deps.store, id))!;
}

/**
 * `meta.persisted_preferences` of a request (WordPress registers it as an object with any
 * members); undefined when not sent. Other meta keys are not registered: ignored, as in WordPress.
 */
function preferencesOf(meta: unknown): JsonObject | undefined | RestError {
  if (!isPlainObject(meta) || !Object.hasOwn(meta, PREFERENCES_META)) return undefined;
  const value = meta[PREFERENCES_META];
  if (!isPlainObject(value)) return invalidArgument('meta', `meta.${PREFERENCES_META} is not of type object.`);
  if (Buffer.byteLength(JSON.stringify(value)) > USER_LIMITS.preferencesBytes)
    return invalidArgument('meta', `meta.${PREFERENCES_META} must be at most ${USER_LIMITS.preferencesBytes} bytes as JSON.`);
  return value as JsonObject;
}

/** A user after an update; `setCookie` re-signs the caller's login cookie after their own password change. */
export type UpdatedUser = UserProfile & { readonly setCookie?: string };

/** POST/PUT/PATCH wp/v2/users/{id|me}, after the permission check. */
export async function updateUser(
  deps: WriteDeps,
  request: RestRequest,
  target: UserProfile,
  p: UserFields,
): Promise<UpdatedUser | RestError> {
  const { user } = target;
  if (typeof p.username === 'string' && p.username !== user.login) return wpError('username_not_editable', request);
  const email = typeof p.email === 'string' && p.email.toLowerCase() !== user.email.toLowerCase() ? p.email : undefined;
  if (email !== undefined) {
    const owner = await deps.store.users.byEmail(email);
    if (owner && owner.id !== user.id) return wpError('invalid_email', request);
  }
  const slug = typeof p.slug === 'string' ? sanitizeSlug(p.slug) : undefined;
  const long = tooLong(p, slug);
  if (long) return long;
  if (slug !== undefined && slug !== slugOf(target)) {
    const taken = await checkSlug(deps.store, slug, user.id, request);
    if (taken) return taken;
  }
  const roles = requestedRoles(p);
  const rolesChange = roles !== undefined && (roles.length !== target.roles.length || roles.some((r) => !target.roles.includes(r)));
  if (roles) {
    const problem = checkRoles(request, user.id, roles);
    if (problem) return problem;
  }
  if (typeof p.password === 'string') {
    const weak = await weakPassword(p.password, [user.login, email ?? user.email]);
    if (weak) return weak;
  }
  const preferences = preferencesOf(p.meta);
  if (isRestError(preferences)) return preferences;
  // Hashing is slow: before any write, outside the store's transaction.
  const passHash = typeof p.password === 'string' ? await hashPassword(p.password) : undefined;
  const credentialsChange = passHash !== undefined || rolesChange;
  // Found before the password changes: the caller's cookie is signed with the old hash.
  const own = credentialsChange ? await ownSession(deps, request, user.id) : null;
  const demotes = rolesChange && !roles.includes('administrator');

  const source = await sourceOf(deps, request);
  const changes: Record<string, AuditChange> = {};
  if (email !== undefined) changes.email = { before: user.email, after: email };
  if (typeof p.name === 'string' && p.name !== user.displayName) changes.display_name = { before: user.displayName, after: p.name };
  if (passHash !== undefined) changes.password = { secret: true };
  if (rolesChange) changes.roles = { before: [...target.roles], after: roles };
  let refused: RestError | null;
  try {
    refused = await deps.store.transaction(async (tx) => {
      if (demotes && !(await keepsAnAdministrator(tx, user.id))) return wpError('last_admin_demotion', request);
      const object = userObject(user.id, user.login);
      if (Object.keys(changes).length > 0) tx.audit(auditEvent(source, 'user.updated', object, changes));
      if (rolesChange) tx.audit(auditEvent(source, 'user.role_changed', object, { roles: changes.roles! }));
      if (passHash !== undefined) tx.audit(auditEvent(source, 'user.password_changed', object, { password: { secret: true } }));
      await tx.users.updateProfile(user.id, { email, displayName: typeof p.name === 'string' ? p.name : undefined });
      await writeMeta(tx, user.id, p, slug !== undefined && slug !== slugOf(target) ? slug : undefined);
      if (passHash !== undefined) await tx.users.setPassword(user.id, passHash);
      if (rolesChange) await tx.users.setRoles(user.id, roles);
      if (preferences !== undefined) await tx.userMeta.set(user.id, PREFERENCES_META, preferences);
      return null;
    });
  } catch (error) {
    if (error instanceof UniqueViolationError) return wpError('invalid_email', request);
    throw error;
  }
  if (refused) return refused;
  if (credentialsChange) await endOtherSessions(deps, user.id, own, source);
  const profile = (await loadProfile(deps.store, user.id))!;
  if (!own || passHash === undefined) return profile;
  // WordPress sets the auth cookie again after your own password change (`wp_update_user`).
  const resigned = deps.authenticator.sessions.resign(own.cookie, profile.user);
  return resigned ? { ...profile, setCookie: loginCookieHeader(resigned.cookie, { ...resigned, secure: request.origin.secure }) } : profile;
}

/** DELETE wp/v2/users/{id|me}, after the permission check: `force` must be true; `reassign` names another existing user or none. */
export async function deleteUser(
  deps: WriteDeps,
  request: RestRequest,
  target: UserProfile,
  p: { readonly force?: boolean; readonly reassign?: number | false },
): Promise<RestError | null> {
  if (p.force !== true) return wpError('trash_not_supported', request);
  const reassign = p.reassign;
  if (typeof reassign === 'number') {
    // Siteward has no content to hand over; the id must still name another existing user, as in WordPress.
    if (reassign === target.user.id || !(await deps.store.users.byId(reassign))) return wpError('invalid_reassign', request);
  }
  const source = await sourceOf(deps, request);
  const refused = await deps.store.transaction(async (tx) => {
    if (!(await keepsAnAdministrator(tx, target.user.id))) return wpError('last_admin_deletion', request);
    await tx.users.delete(target.user.id);
    tx.audit(
      auditEvent(source, 'user.deleted', userObject(target.user.id, target.user.login), {
        login: { before: target.user.login, after: null },
        email: { before: target.user.email, after: null },
        roles: { before: [...target.roles], after: null },
        reassign: { before: null, after: typeof reassign === 'number' ? reassign : null },
      }),
    );
    return null;
  });
  if (refused) return refused;
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
