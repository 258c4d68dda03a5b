/**
 * The `wp/v2/users` collection query (docs/spec/current-clients.md §B.2, §B.5): filters, search,
 * order and the page, over the site's users in memory, and the pagination headers.
 */
import type { RestRequest } from '../../rest/types.js';
import { capabilitiesOfRoles } from '../../auth/roles.js';
import { pagingHeaders } from '../pagination.js';
import { slugOf, type UserProfile } from './user-records.js';
import { Type, type Static } from '@sinclair/typebox';
import type { ArgDefinition } from '../../rest/types.js';
import { validateValue } from '../../rest/args/index.js';
import type { Context } from './user-records.js';

export const ORDERBY = ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'] as const;

export const CONTEXT_ARG: ArgDefinition = {
  description: 'Scope under which the request is made; determines fields present in response.',
  type: 'string',
  enum: ['view', 'embed', 'edit'],
  default: 'view',
};

/** The collection's arguments, in WordPress's order (their `args` are worked out from these once). */
export const collectionQuery = Type.Object({
  context: Type.Unsafe<Context>(CONTEXT_ARG),
  page: Type.Integer({ description: 'Current page of the collection.', default: 1, minimum: 1 }),
  per_page: Type.Integer({ description: 'Maximum number of items to be returned in result set.', default: 10, minimum: 1, maximum: 100 }),
  search: Type.Optional(Type.String({ description: 'Limit results to those matching a string.' })),
  exclude: Type.Array(Type.Integer(), { description: 'Ensure result set excludes specific IDs.', default: [] }),
  include: Type.Array(Type.Integer(), { description: 'Limit result set to specific IDs.', default: [] }),
  offset: Type.Optional(
    Type.Integer({
      description: 'Offset the result set by a specific number of items.',
      // WordPress declares no minimum (a negative offset fails its SQL); here it is a clear 400.
      validateCallback: (value: unknown, _request: RestRequest, name: string) =>
        validateValue(value, { type: 'integer', minimum: 0 }, name),
    }),
  ),
  order: Type.Unsafe<'asc' | 'desc'>({
    description: 'Order sort attribute ascending or descending.',
    type: 'string',
    enum: ['asc', 'desc'],
    default: 'asc',
  }),
  orderby: Type.Unsafe<(typeof ORDERBY)[number]>({
    description: 'Sort collection by user attribute.',
    type: 'string',
    enum: ORDERBY,
    default: 'name',
  }),
  slug: Type.Optional(Type.Array(Type.String(), { description: 'Limit result set to users with one or more specific slugs.' })),
  roles: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.',
    }),
  ),
  who: Type.Optional(
    Type.Unsafe<'authors'>({ description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] }),
  ),
});
/** What the collection's handler and permission check read. */
export type CollectionQuery = Static<typeof collectionQuery>;

export interface UsersQuery {
  readonly page: number;
  readonly perPage: number;
  readonly offset: number | undefined;
  readonly search: string | undefined;
  readonly include: readonly number[];
  readonly exclude: readonly number[];
  readonly slug: readonly string[];
  readonly roles: readonly string[] | undefined;
  readonly orderby: (typeof ORDERBY)[number];
  readonly order: 'asc' | 'desc';
  readonly authorsOnly: boolean;
  /** Whether the caller may see every user (`list_users`); otherwise only authors of published posts, of which Siteward has none. */
  readonly listAll: boolean;
}

const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The query from the collection's sanitized arguments; `listAll`: whether the caller has `list_users`. */
export function queryOf(p: CollectionQuery, listAll: boolean): UsersQuery {
  return {
    // `page=1e400` passes WordPress's validation and becomes 0 through PHP's `(int)`: the first page.
    page: Math.max(1, Number(p.page ?? 1)),
    perPage: Number(p.per_page ?? 10),
    offset: p.offset === undefined ? undefined : Number(p.offset),
    search: typeof p.search === 'string' && p.search !== '' ? p.search : undefined,
    include: numbers(p.include),
    exclude: numbers(p.exclude),
    slug: strings(p.slug),
    roles: p.roles === undefined ? undefined : strings(p.roles),
    orderby: (p.orderby as UsersQuery['orderby'] | undefined) ?? 'name',
    order: p.order === 'desc' ? 'desc' : 'asc',
    authorsOnly: p.who === 'authors',
    listAll,
  };
}

/** WP_User_Query's search: `*term*`, the columns chosen from the term's shape; callers without `list_users` search fewer. */
function matchesSearch(profile: UserProfile, term: string, listAll: boolean): boolean {
  const needle = term.replace(/^\*|\*$/g, '').toLowerCase();
  const { user } = profile;
  let columns: string[];
  if (term.includes('@')) columns = [user.email];
  else if (/^\d+$/.test(needle)) columns = [user.login, String(user.id)];
  else columns = [user.login, profile.meta.user_url, user.email, slugOf(profile), user.displayName];
  if (!listAll) columns = [user.login, String(user.id), slugOf(profile), user.displayName].filter((c) => columns.includes(c));
  return columns.some((c) => c.toLowerCase().includes(needle));
}

/** The matching users, ordered (not yet paged). */
export function selectUsers(all: readonly UserProfile[], q: UsersQuery): UserProfile[] {
  // Without list_users WordPress lists only authors of published posts: Siteward has no posts.
  if (!q.listAll && !q.authorsOnly) return [];
  let users = all.filter((u) => {
    if (q.include.length > 0 && !q.include.includes(u.user.id)) return false;
    if (q.exclude.includes(u.user.id)) return false;
    if (q.slug.length > 0 && !q.slug.includes(slugOf(u))) return false;
    if (q.roles !== undefined && q.roles.length > 0 && !u.roles.some((r) => q.roles!.includes(r))) return false;
    if (q.authorsOnly && !capabilitiesOfRoles(u.roles).has('edit_posts')) return false;
    if (q.search !== undefined && !matchesSearch(u, q.search, q.listAll)) return false;
    return true;
  });
  const key = sortKey(q);
  users = [...users].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const c = typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
    return c !== 0 ? c : a.user.id - b.user.id;
  });
  return q.order === 'desc' ? users.reverse() : users;
}

function sortKey(q: UsersQuery): (u: UserProfile) => string | number {
  switch (q.orderby) {
    case 'id':
      return (u) => u.user.id;
    case 'include':
      return (u) => q.include.indexOf(u.user.id);
    case 'include_slugs':
      return (u) => q.slug.indexOf(slugOf(u));
    case 'registered_date':
      return (u) => u.user.registered;
    case 'slug':
      return (u) => slugOf(u);
    case 'email':
      return (u) => u.user.email.toLowerCase();
    case 'url':
      return (u) => u.meta.user_url;
    default:
      return (u) => u.user.displayName.toLowerCase();
  }
}

/** The page asked for, `X-WP-Total`, `X-WP-TotalPages` and the `Link` header's prev/next. */
export function pageOf<T>(
  items: readonly T[],
  q: UsersQuery,
  request: RestRequest,
  collectionUrl: string,
): { items: T[]; headers: Record<string, string>; beyondLast: boolean } {
  const total = items.length;
  const totalPages = total === 0 ? 0 : Math.ceil(total / q.perPage);
  const start = q.offset !== undefined && q.offset !== 0 ? q.offset : (q.page - 1) * q.perPage;
  const headers = pagingHeaders(total, q.page, q.perPage, request, collectionUrl);
  return { items: items.slice(start, start + q.perPage), headers, beyondLast: q.page > totalPages && total > 0 };
}
