/**
 * `wp/v2/users`, `wp/v2/users/{id}` and `wp/v2/users/me` (WordPress's `WP_REST_Users_Controller`,
 * docs/spec/current-clients.md §B): routes, arguments, permission checks in WordPress's order.
 * The collection and `{id}` may run inside `batch/v1` (WordPress ≥ 6.6); `me` may not.
 */
import { RestResponse, type JsonValue, type EndpointDefinition, type RestRequest } from '../../rest/types.js';
import type { RestError } from '../../rest/errors.js';
import { checkLogin, checkPassword } from '../../auth/user-validation.js';
import type { FeatureContext } from '../contract.js';
import {
  knownProfile,
  loadAllProfiles,
  loadProfile,
  userItem,
  userSchema,
  type Context,
  type ItemUrls,
  type UserProfile,
} from './user-records.js';
import { collectionQuery, CONTEXT_ARG, pageOf, queryOf, selectUsers, type CollectionQuery } from './users-query.js';
import { createUser, deleteUser, sanitizeReassign, updateUser, type WriteDeps } from './user-writes.js';
import { userServiceError, wpError } from './wp-errors.js';
import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { answers, defineRoute, permission } from '../../rest/define-route.js';
import { frozenCopy } from '../../core/objects.js';

/** `check_user_password` plus Siteward's password rule (the CLI's). */
function sanitizePassword(value: unknown, request: RestRequest): string | RestError {
  const password = String(value);
  if (password === '') return wpError('empty_password', request);
  if (password.includes('\\')) return wpError('backslash_password', request);
  const problem = checkPassword(password);
  return problem ? userServiceError(problem) : password;
}

function sanitizeUsername(value: unknown): string | RestError {
  const login = String(value);
  const problem = checkLogin(login);
  return problem ? userServiceError(problem) : login;
}

/**
 * The writable fields as the body (WordPress `get_endpoint_args_for_item_schema`): on a create,
 * `username`, `email` and `password` are required; on an update every field is optional.
 */
const itemBody = <Create extends boolean>(create: Create) => {
  const str = (description: string, options: object = {}) => Type.String({ description, ...options });
  // Required on a create, optional on an update (a type only: the object is the same).
  const needed = <T extends TSchema>(schema: T) => (create ? schema : Type.Optional(schema)) as Create extends true ? T : TOptional<T>;
  return Type.Object({
    username: needed(str('Login name for the user.', { sanitizeCallback: sanitizeUsername })),
    name: Type.Optional(str('Display name for the user.')),
    first_name: Type.Optional(str('First name for the user.')),
    last_name: Type.Optional(str('Last name for the user.')),
    email: needed(str('The email address for the user.', { format: 'email' })),
    url: Type.Optional(str('URL of the user.', { format: 'uri' })),
    description: Type.Optional(str('Description of the user.')),
    locale: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('en_US')], { description: 'Locale for the user.' })),
    nickname: Type.Optional(str('The nickname for the user.')),
    slug: Type.Optional(str('An alphanumeric identifier for the user.')),
    roles: Type.Optional(Type.Array(Type.String(), { description: 'Roles assigned to the user.' })),
    password: needed(str('Password for the user (never included).', { sanitizeCallback: sanitizePassword })),
    meta: Type.Optional(Type.Unsafe<unknown>({ description: 'Meta fields.', type: 'object' })),
  });
};
const createBody = itemBody(true);
const updateBody = itemBody(false);

/** WordPress's answer to a delete: the record as it was. */
export const deletedSchema = (item: JsonValue | null): JsonValue => ({
  type: 'object',
  properties: { deleted: { type: 'boolean' }, previous: item ?? {} },
  required: ['deleted', 'previous'],
});

const contextOf = (given: { readonly context?: unknown }): Context =>
  given.context === 'edit' ? 'edit' : given.context === 'embed' ? 'embed' : 'view';

/** `edit_user` on a user: yourself always (logged in), anyone else with `edit_users`. */
function canEditUser(request: RestRequest, id: number): boolean {
  return request.user.id !== 0 && (request.user.id === id || request.user.can('edit_users'));
}

/** An item route's URL parameters: `{id}`'s, none for `me`. */
type TargetParams = { readonly id?: number };

/** A built page of the collection: its items (frozen) and paging headers. */
interface CollectionPage {
  readonly items: readonly unknown[];
  readonly headers: Readonly<Record<string, string>>;
  readonly beyondLast: boolean;
}
/** Pages kept per profile list (cleared when full): a site's clients ask a handful of queries. */
const PAGE_CACHE_SIZE = 32;

export function registerUserRoutes(ctx: FeatureContext, deps: WriteDeps): void {
  const urls: ItemUrls = { rest: (path) => ctx.api.restUrl(path), home: ctx.site.homeUrl, avatarSizes: ctx.config.avatarSizes };
  const schema = () => userSchema(ctx.config.avatarSizes);
  /**
   * The target of an item route: `{id}` read in WordPress's order (a body or query `id` wins over
   * the URL's), or for `me` always the current user (0 when logged out), a sent `id` ignored
   * (WordPress's `*_current_item`).
   */
  const targetId = (request: RestRequest, params: TargetParams): number => params.id ?? request.user.id;
  // The profile found by the permission check, for the handler that follows on the same request.
  const found = new WeakMap<RestRequest, UserProfile>();
  const targetFound = (request: RestRequest, profile: UserProfile | undefined): UserProfile | RestError => {
    if (!profile) return wpError('user_invalid_id', request);
    if (found.get(request) !== profile) found.set(request, profile);
    return profile;
  };
  /** The target's profile; without a promise when it is cached and known to be current. */
  const target = (request: RestRequest, id: number): UserProfile | RestError | Promise<UserProfile | RestError> => {
    const known = knownProfile(deps.store, id);
    if (known) return targetFound(request, known);
    return loadProfile(deps.store, id).then((profile) => targetFound(request, profile));
  };
  /** Runs `judge` on the target's profile (or passes its error on), without a promise when the profile is known. */
  const withTarget = <T>(
    request: RestRequest,
    params: TargetParams,
    judge: (profile: UserProfile) => T,
  ): T | RestError | Promise<T | RestError> => {
    const profile = target(request, targetId(request, params));
    const next = (p: UserProfile | RestError) => ('user' in p ? judge(p) : p);
    return profile instanceof Promise ? profile.then(next) : next(profile);
  };
  // Speed: a profile object stands for its user until the user's data changes (loadProfile
  // keeps it per credentials version), so its item is built once per context and frozen; the
  // REST layer then reuses the item's encoded JSON too (users/me: docs/performance.md).
  const items = new WeakMap<UserProfile, Map<Context, Readonly<Record<string, unknown>>>>();
  const itemOf = (profile: UserProfile, context: Context): Readonly<Record<string, unknown>> => {
    let byContext = items.get(profile);
    if (!byContext) items.set(profile, (byContext = new Map()));
    let item = byContext.get(context);
    if (!item) byContext.set(context, (item = frozenCopy(userItem(profile, context, urls))));
    return item;
  };
  const respond = (request: RestRequest, profile: UserProfile, context: Context, status = 200) =>
    new RestResponse(itemOf(profile, context), status);

  const pageCache = new WeakMap<readonly UserProfile[], Map<string, CollectionPage>>();
  const list: EndpointDefinition = defineRoute({
    query: collectionQuery,
    response: answers({ schema: 'collection' }),
    permission: permission('list_users for filters', (request: RestRequest, { query }: { readonly query: CollectionQuery }) => {
      const canList = request.user.can('list_users');
      if (query.roles !== undefined && !canList) return wpError('cannot_filter_roles', request);
      if (query.context === 'edit' && !canList) return wpError('forbidden_context_list', request);
      if ((query.orderby === 'email' || query.orderby === 'registered_date') && !canList) return wpError('forbidden_orderby', request);
      // No post types: whoever may write posts counts as able to see authors (docs/spec/current-clients.md §B.4 ⚠ decision).
      if (query.who === 'authors' && !request.user.can('edit_posts')) return wpError('forbidden_who', request);
      return true;
    }),
    handler: async ({ query, request }) => {
      const q = queryOf(query, request.user.can('list_users'));
      const all = await loadAllProfiles(deps.store);
      const context = contextOf(query);
      // Speed: while the list is the cached one, the same query gets the same frozen page (its
      // JSON is then encoded once); the key holds everything the answer is made from.
      let pages = pageCache.get(all);
      if (!pages) pageCache.set(all, (pages = new Map()));
      const key = `${context}\n${JSON.stringify(q)}\n${JSON.stringify(request.query)}`;
      let page = pages.get(key);
      if (!page) {
        const built = pageOf(selectUsers(all, q), q, request, urls.rest('/wp/v2/users'));
        page = { ...built, items: Object.freeze(built.items.map((p) => itemOf(p, context))) };
        if (pages.size >= PAGE_CACHE_SIZE) pages.clear();
        pages.set(key, page);
      }
      if (page.beyondLast) return wpError('invalid_page_number', request);
      // A copy: the REST layer adds its own headers (Allow) to the response's.
      return new RestResponse(page.items, 200, { ...page.headers });
    },
    // Profiles, roles and the query only: every write to a user moves the credentials version.
    replayable: true,
  });

  const create: EndpointDefinition = defineRoute({
    methods: 'POST',
    body: createBody,
    response: answers({ schema: 'item', status: 201 }),
    permission: permission('create_users', (request: RestRequest) =>
      request.user.can('create_users') ? true : wpError('cannot_create', request),
    ),
    replayable: 'permission',
    handler: async ({ body, sent, request }) => {
      // An `id` from anywhere names an existing user (WordPress's create_item).
      if (sent.includes('id')) return wpError('user_exists', request);
      const created = await createUser(deps, request, body);
      if (!('user' in created)) return created;
      return respond(request, created, 'edit', 201).header('Location', urls.rest(`/wp/v2/users/${created.user.id}`));
    },
  });

  /**
   * `{id}` is one of the arguments (validated, shown), read in WordPress's order: a body or
   * query `id` wins over the URL's. `me` has none: its target is the current user.
   */
  const idParams = (me: boolean) =>
    me
      ? Type.Object({})
      : Type.Object({ id: Type.Integer({ description: 'Unique identifier for the user.', asArgument: true, wordpressOrder: true }) });
  const readQuery = Type.Object({ context: Type.Unsafe<Context>(CONTEXT_ARG) });
  const read = (me: boolean): EndpointDefinition =>
    defineRoute({
      params: idParams(me),
      query: readQuery,
      response: answers({ schema: 'item' }),
      permission: permission(
        me ? 'logged in' : 'self or list_users',
        (request: RestRequest, { params, query }: { readonly params: TargetParams; readonly query: Static<typeof readQuery> }) => {
          if (me && request.user.id === 0) return wpError('not_logged_in', request);
          return withTarget(request, params, (profile) => {
            const self = request.user.id === profile.user.id;
            if (self) return true;
            if (query.context === 'edit' && !canEditUser(request, profile.user.id)) return wpError('forbidden_context_item', request);
            // Others are visible to who may edit or list users (nobody has published posts here).
            return canEditUser(request, profile.user.id) || request.user.can('list_users') ? true : wpError('cannot_view', request);
          });
        },
      ),
      handler: ({ query, request }) => respond(request, found.get(request)!, contextOf(query)),
      // The profile (moved by the credentials version), the asker's capabilities and the query only.
      replayable: true,
    });

  const update = (me: boolean): EndpointDefinition =>
    defineRoute({
      methods: ['POST', 'PUT', 'PATCH'],
      params: idParams(me),
      body: updateBody,
      response: answers({ schema: 'item' }),
      permission: permission(
        'self or edit_users; roles: promote_users',
        (
          request: RestRequest,
          {
            params,
            body,
            sent,
          }: { readonly params: TargetParams; readonly body: Static<typeof updateBody>; readonly sent: readonly string[] },
        ) =>
          withTarget(request, params, (profile) => {
            if (body.roles !== undefined) {
              if (!request.user.can('promote_users')) return wpError('cannot_edit_roles', request);
              // Only id and roles: promote_users suffices (core-data sends the record's id with the change).
              // `_locale` is api-fetch's, on every request (docs/spec/current-clients.md §0).
              const others = sent.filter((k) => k !== 'id' && k !== 'roles' && k !== '_locale');
              if (others.length === 0) return true;
            }
            return canEditUser(request, profile.user.id) ? true : wpError('cannot_edit', request);
          }),
      ),
      replayable: 'permission',
      handler: async ({ body, request }) => {
        const updated = await updateUser(deps, request, found.get(request)!, body);
        if (!('user' in updated)) return updated;
        const response = respond(request, updated, 'edit');
        return updated.setCookie === undefined ? response : response.header('Set-Cookie', updated.setCookie);
      },
    });

  const removeQuery = Type.Object({
    force: Type.Boolean({ description: 'Required to be true, as users do not support trashing.', default: false }),
    reassign: Type.Unsafe<number | false>({
      description: "Reassign the deleted user's posts and links to this user ID.",
      type: 'integer',
      sanitizeCallback: sanitizeReassign,
    }),
  });
  const remove = (me: boolean): EndpointDefinition =>
    defineRoute({
      methods: 'DELETE',
      params: idParams(me),
      query: removeQuery,
      response: answers({ schema: deletedSchema }),
      permission: permission('delete_users', (request: RestRequest, { params }: { readonly params: TargetParams }) =>
        withTarget(request, params, () => (request.user.can('delete_users') ? true : wpError('cannot_delete', request))),
      ),
      replayable: 'permission',
      handler: async ({ query, request }) => {
        const profile = found.get(request)!;
        const previous = userItem(profile, 'edit', urls);
        const refused = await deleteUser(deps, request, profile, query);
        return refused ?? { deleted: true, previous };
      },
    });

  const batch = { v1: true } as const;
  // Today's WordPress wire: rest_invalid_param carries `details` (docs/spec/compat.md §9).
  ctx.api.registerRoute('wp/v2', '/users', Object.assign([list, create], { schema, allowBatch: batch, invalidParamDetails: true }));
  ctx.api.registerRoute(
    'wp/v2',
    '/users/(?P<id>[\\d]+)',
    Object.assign([read(false), update(false), remove(false)], { schema, allowBatch: batch, invalidParamDetails: true }),
  );
  ctx.api.registerRoute(
    'wp/v2',
    '/users/me',
    Object.assign([read(true), update(true), remove(true)], { schema, invalidParamDetails: true }),
  );
}
