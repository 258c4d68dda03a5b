/**
 * A user as `wp/v2/users` shows it (docs/spec/current-clients.md §B.3): the stored record, its
 * roles and the profile fields WordPress keeps (kept in user meta), in the field set of each
 * context, plus the item schema.
 */
import { gravatarUrl } from '../../core/gravatar.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/objects.js';
import { capabilitiesOfRoles } from '../../auth/roles.js';
import { ROLES_META_KEY, rolesOf, type Store, type UserRecord } from '../../store/types.js';

/** Profile fields of WordPress's user that Siteward's users table does not hold: user meta keys. */
export const PROFILE_META = ['first_name', 'last_name', 'description', 'nickname', 'locale', 'user_url', 'nicename'] as const;
export type ProfileKey = (typeof PROFILE_META)[number];

export type Context = 'view' | 'embed' | 'edit';

/** Everything a user item is built from. */
export interface UserProfile {
  readonly user: UserRecord;
  readonly roles: readonly string[];
  readonly meta: Readonly<Record<ProfileKey, string>>;
  /** The block editor's saved preferences (`meta.persisted_preferences`), undefined when never saved. */
  readonly preferences?: JsonObject;
}

/** The user meta key of `meta.persisted_preferences` (docs/spec/current-clients.md §F.5). */
export const PREFERENCES_META = 'persisted_preferences';

/** WordPress's `user_nicename` from a login (`sanitize_title` of the login, shortened to 50). */
export function defaultSlug(login: string): string {
  return login
    .toLowerCase()
    .replace(/@/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 50);
}

/** WordPress's `sanitize_title` for a requested slug. */
export function sanitizeSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]/g, '')
    .replace(/[\s-]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function slugOf(profile: UserProfile): string {
  return profile.meta.nicename || defaultSlug(profile.user.login);
}

/** Profiles kept per store (a handful of users read their own record over and over: `users/me`). */
const PROFILE_CACHE_SIZE = 64;
interface CachedProfile {
  readonly version: number;
  readonly profile: UserProfile;
}
const profileCaches = new WeakMap<Store, Map<number, CachedProfile>>();

/**
 * Loads one user's profile; undefined when there is no such user. Speed: building one takes
 * three queries (record, roles, meta), about 200 µs in process; a profile is reused while the
 * store's credentials version stays the same, which every write to a user's record, roles or
 * meta bumps, in any process (`src/store/users-repo.ts`). The version is read before building:
 * a write during the build makes the entry stale, never wrong.
 */
/**
 * The cached profile, when the store knows its credentials version without a query and the
 * entry is at it (speed: users/me's three permission checks per request then need no promise);
 * undefined when only loadProfile can tell.
 */
export function knownProfile(store: Store, id: number): UserProfile | undefined {
  const version = store.sessions.knownCredentialsVersion?.();
  if (version === undefined) return undefined;
  const hit = profileCaches.get(store)?.get(id);
  return hit !== undefined && hit.version === version ? hit.profile : undefined;
}

export async function loadProfile(store: Store, id: number): Promise<UserProfile | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
  let cache = profileCaches.get(store);
  if (!cache) profileCaches.set(store, (cache = new Map()));
  const hit = cache.get(id);
  if (hit !== undefined && hit.version === version) return hit.profile;
  const user = await store.users.byId(id);
  if (!user) return undefined;
  const profile = await profileOf(store, user);
  cache.delete(id);
  if (cache.size >= PROFILE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(id, { version, profile });
  return profile;
}

export async function profileOf(store: Store, user: UserRecord): Promise<UserProfile> {
  const [roles, all] = await Promise.all([store.users.roles(user.id), store.userMeta.all(user.id)]);
  return profileFrom(user, roles, all);
}

function profileFrom(user: UserRecord, roles: readonly string[], meta: ReadonlyMap<string, JsonValue>): UserProfile {
  const fields = Object.fromEntries(PROFILE_META.map((key) => [key, textOf(meta.get(key))])) as Record<ProfileKey, string>;
  const preferences = meta.get(PREFERENCES_META);
  return isPlainObject(preferences) ? { user, roles, meta: fields, preferences: preferences as JsonObject } : { user, roles, meta: fields };
}

/** The meta keys a profile is built from: roles, the profile fields, the editor's preferences. */
const PROFILE_KEYS = [ROLES_META_KEY, ...PROFILE_META, PREFERENCES_META];

/**
 * The most bytes of profiles kept in the cache of every user's profile (about 4,000 ordinary
 * users). A larger store is read afresh per request instead of held in every worker.
 */
export const PROFILE_LIST_CACHE_BYTES = 4 << 20;

/**
 * What a profile's objects take on V8's heap besides its strings (the record, roles, meta and
 * their hidden classes): measured as 1,071 bytes a profile of 3,000 ordinary users (heap after
 * a full collection), of which their strings, counted as below, were 303.
 */
export const PROFILE_OBJECT_BYTES = 768;

interface CachedList {
  readonly version: number;
  readonly profiles: readonly UserProfile[];
}
const listCaches = new WeakMap<Store, CachedList>();

/** About how many bytes of heap a profile takes: its objects, and its strings at two bytes a character (preferences as JSON). */
export function profileBytes(profile: UserProfile): number {
  const { user } = profile;
  let n = user.login.length + user.email.length + user.displayName.length + user.passHash.length;
  for (const role of profile.roles) n += role.length;
  for (const key of PROFILE_META) n += profile.meta[key].length;
  if (profile.preferences !== undefined) n += JSON.stringify(profile.preferences).length;
  return PROFILE_OBJECT_BYTES + 2 * n;
}

/**
 * Every user's profile, by id (the collection filters and pages them in memory). Speed: two
 * queries in all (the users, then their profile meta in one read) instead of two a user, and
 * the list is kept while the credentials version stays the same (every write to a user's
 * record, roles or meta bumps it, in any process) and its size (profileBytes) is
 * within PROFILE_LIST_CACHE_BYTES. The version is read first: a write during the build makes the
 * entry stale, never wrong.
 */
export async function loadAllProfiles(store: Store): Promise<readonly UserProfile[]> {
  const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
  const cached = listCaches.get(store);
  if (cached !== undefined && cached.version === version) return cached.profiles;
  const [users, meta] = await Promise.all([store.users.list(), store.userMeta.ofEveryUser(PROFILE_KEYS)]);
  const none = new Map<string, JsonValue>();
  const profiles = users.map((user) => {
    const own = meta.get(user.id) ?? none;
    return profileFrom(user, rolesOf(own.get(ROLES_META_KEY)), own);
  });
  let bytes = 0;
  for (const profile of profiles) bytes += profileBytes(profile);
  if (bytes <= PROFILE_LIST_CACHE_BYTES) listCaches.set(store, { version, profiles });
  else listCaches.delete(store);
  return profiles;
}

function textOf(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** ISO 8601 with offset, as WordPress's `registered_date` (`2026-08-01T10:00:00+00:00`). */
function registeredDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export interface ItemUrls {
  readonly rest: (path: string) => string;
  readonly home: string;
  readonly avatarSizes: readonly number[];
}

// Speed: a hash per avatar size was a fifth of a cached users/me; a profile's email never changes (a new one is a new profile).
const avatarCache = new WeakMap<UserProfile, { readonly sizes: readonly number[]; readonly urls: Readonly<Record<string, string>> }>();
function avatarUrls(profile: UserProfile, sizes: readonly number[]): Readonly<Record<string, string>> {
  const hit = avatarCache.get(profile);
  if (hit !== undefined && hit.sizes === sizes) return hit.urls;
  const urls = Object.fromEntries(sizes.map((size) => [String(size), gravatarUrl(profile.user.email, size)]));
  avatarCache.set(profile, { sizes, urls });
  return urls;
}

/** The user item in a context's field set, in WordPress's key order, with `_links`. */
export function userItem(profile: UserProfile, context: Context, urls: ItemUrls): Record<string, unknown> {
  const { user, roles, meta } = profile;
  const edit = context === 'edit';
  const out: Record<string, unknown> = { id: user.id };
  if (edit) out.username = user.login;
  out.name = user.displayName;
  if (edit) {
    out.first_name = meta.first_name;
    out.last_name = meta.last_name;
    out.email = user.email;
  }
  out.url = meta.user_url;
  out.description = meta.description;
  // Siteward has no author archives: the link is the site's home page, the one page it has.
  out.link = urls.home;
  if (edit) {
    out.locale = meta.locale || 'en_US';
    out.nickname = meta.nickname || user.login;
  }
  out.slug = slugOf(profile);
  if (edit) {
    out.registered_date = registeredDate(user.registered);
    out.roles = [...roles];
    const caps: Record<string, boolean> = {};
    for (const cap of capabilitiesOfRoles(roles)) caps[cap] = true;
    for (const role of roles) caps[role] = true;
    out.capabilities = caps;
    out.extra_capabilities = Object.fromEntries(roles.map((role) => [role, true]));
  }
  out.avatar_urls = { ...avatarUrls(profile, urls.avatarSizes) };
  // The one registered user meta, WordPress's `persisted_preferences`, is shown in edit context
  // only; with nothing to show, `meta` is an empty PHP array.
  if (context === 'edit') out.meta = { [PREFERENCES_META]: profile.preferences ?? {} };
  else if (context === 'view') out.meta = [];
  out._links = {
    self: [{ href: urls.rest(`/wp/v2/users/${user.id}`) }],
    collection: [{ href: urls.rest('/wp/v2/users') }],
  };
  return out;
}

/** The item schema (title `user`), shown by OPTIONS and read by core-data. */
export function userSchema(avatarSizes: readonly number[]): JsonValue {
  const all = ['embed', 'view', 'edit'];
  const str = (description: string, context: string[], extra: Record<string, JsonValue> = {}): JsonValue => ({
    description,
    type: 'string',
    context,
    ...extra,
  });
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'user',
    type: 'object',
    properties: {
      id: { description: 'Unique identifier for the user.', type: 'integer', context: all, readonly: true },
      username: str('Login name for the user.', ['edit'], { required: true }),
      name: str('Display name for the user.', all),
      first_name: str('First name for the user.', ['edit']),
      last_name: str('Last name for the user.', ['edit']),
      email: str('The email address for the user.', ['edit'], { format: 'email', required: true }),
      url: str('URL of the user.', all, { format: 'uri' }),
      description: str('Description of the user.', all),
      link: str('Author URL of the user.', all, { format: 'uri', readonly: true }),
      locale: str('Locale for the user.', ['edit'], { enum: ['', 'en_US'] }),
      nickname: str('The nickname for the user.', ['edit']),
      slug: str('An alphanumeric identifier for the user.', all),
      registered_date: str('Registration date for the user.', ['edit'], { format: 'date-time', readonly: true }),
      roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' }, context: ['edit'] },
      password: str('Password for the user (never included).', [], { required: true }),
      capabilities: { description: 'All capabilities assigned to the user.', type: 'object', context: ['edit'], readonly: true },
      extra_capabilities: {
        description: 'Any extra capabilities assigned to the user.',
        type: 'object',
        context: ['edit'],
        readonly: true,
      },
      avatar_urls: {
        description: 'Avatar URLs for the user.',
        type: 'object',
        context: all,
        readonly: true,
        properties: Object.fromEntries(
          avatarSizes.map((size) => [
            String(size),
            { description: `Avatar URL with image size of ${size} pixels.`, type: 'string', format: 'uri', context: all },
          ]),
        ),
      },
      meta: {
        description: 'Meta fields.',
        type: 'object',
        context: ['view', 'edit'],
        properties: {
          [PREFERENCES_META]: {
            description: 'Preferences persisted by the block editor and other admin screens.',
            type: 'object',
            context: ['edit'],
            properties: {
              _modified: { description: 'The date and time the preferences were updated.', type: 'string', format: 'date-time' },
            },
            additionalProperties: true,
          },
        },
      },
    },
  };
}
