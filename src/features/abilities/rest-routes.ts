/**
 * `wp-abilities/v1`, as WordPress 6.9 serves it (docs/spec/abilities-mcp.md A.2; the list, run and
 * categories controllers of WordPress/abilities-api): the abilities whose `meta.show_in_rest` is
 * true, one of them with its `_links`, running one by the method its annotations ask for, and the
 * categories. A logged-in user with `read` lists; running asks the ability's own permission.
 */
import { Type } from '@sinclair/typebox';
import type { JsonValue } from '../../core/json.js';
import type { SitewardApi } from '../../plugins/api.js';
import { checkedByHandler, defineRoute, permission, type NamedPermission } from '../../rest/define-route.js';
import { authorizationRequiredStatus, RestError } from '../../rest/errors.js';
import { RestResponse, type RestRequest } from '../../rest/types.js';
import type { AbilityCaller } from '../../plugins/ability-types.js';
import { bearerToken, type AbilityCall, type BearerSlot } from './bearer-slot.js';
import { abilityError } from './errors.js';
import { runMethod, type Ability, type AbilityCategory, type AbilityRegistry } from './registry.js';

export const ABILITIES_NAMESPACE = 'wp-abilities/v1';

/** `read`; a request with a bearer token is let through to the handler, which checks the token first (bearer-slot.ts). */
const canRead: NamedPermission = permission('read, or a bearer token for wp-abilities/v1 (checked by the handler)', (request) =>
  bearerToken(request) !== null ? true : request.user.can('read'),
);
const READ_REFUSED = () => new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', { status: 403 });

/** WordPress's `sanitize_key`: lowercase, then only a-z, 0-9, `_` and `-`. */
const sanitizeKey = (value: unknown) =>
  String(value)
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '');

const CONTEXT = Type.Union([Type.Literal('view'), Type.Literal('embed'), Type.Literal('edit')], {
  default: 'view',
  description: 'Scope under which the request is made; determines fields present in response.',
});
const PAGING = {
  context: CONTEXT,
  page: Type.Integer({ default: 1, minimum: 1, description: 'Current page of the collection.' }),
  per_page: Type.Integer({ default: 50, minimum: 1, maximum: 100, description: 'Maximum number of items to be returned in result set.' }),
};

type Context = 'view' | 'embed' | 'edit';

/** The answer of one ability (`prepare_item_for_response`); `embed` keeps only what the schema marks for it. */
function abilityJson(ability: Ability, context: Context, restUrl: (path: string) => string): Record<string, unknown> {
  const data: Record<string, unknown> =
    context === 'embed'
      ? { name: ability.name, label: ability.label, category: ability.category }
      : {
          name: ability.name,
          label: ability.label,
          description: ability.description,
          category: ability.category,
          // PHP's empty array is `[]` on the wire.
          input_schema: ability.inputSchema ?? [],
          output_schema: ability.outputSchema ?? [],
          meta: ability.meta,
        };
  data._links = {
    self: [{ href: restUrl(`/${ABILITIES_NAMESPACE}/abilities/${ability.name}`) }],
    collection: [{ href: restUrl(`/${ABILITIES_NAMESPACE}/abilities`) }],
    'wp:action-run': [{ href: restUrl(`/${ABILITIES_NAMESPACE}/abilities/${ability.name}/run`) }],
  };
  return data;
}

function categoryJson(category: AbilityCategory, context: Context, restUrl: (path: string) => string): Record<string, unknown> {
  const data: Record<string, unknown> =
    context === 'embed'
      ? { slug: category.slug, label: category.label }
      : {
          slug: category.slug,
          label: category.label,
          description: category.description,
          meta: Object.keys(category.meta).length > 0 ? category.meta : [],
        };
  data._links = {
    self: [{ href: restUrl(`/${ABILITIES_NAMESPACE}/categories/${category.slug}`) }],
    collection: [{ href: restUrl(`/${ABILITIES_NAMESPACE}/categories`) }],
    abilities: [{ href: restUrl(`/${ABILITIES_NAMESPACE}/abilities?category=${category.slug}`) }],
  };
  return data;
}

/**
 * A page of a collection with WordPress's headers: `X-WP-Total`, `X-WP-TotalPages`, and a `Link`
 * with `prev` (any page after the first, as WordPress: even past the last) and `next`, the
 * request's query kept and `page` replaced (`add_query_arg`).
 */
/**
 * PHP's `array_slice($items, $offset, $length)`: a negative offset counts from the end. WordPress
 * reaches one with `page=1e400`, which its integer sanitizing makes 0.
 */
function phpSlice<T>(items: readonly T[], offset: number, length: number): readonly T[] {
  const start = offset < 0 ? Math.max(0, items.length + offset) : offset;
  return items.slice(start, start + length);
}

function paged<T>(items: readonly T[], page: number, perPage: number, request: RestRequest, base: string, json: (item: T) => unknown) {
  const total = items.length;
  const maxPages = Math.ceil(total / perPage);
  const data = request.method === 'HEAD' ? [] : phpSlice(items, (page - 1) * perPage, perPage).map(json);
  const response = new RestResponse(data, 200, { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) });
  const urlFor = (target: number) => {
    const params = new URLSearchParams();
    let placed = false;
    for (const [name, value] of Object.entries(request.query)) {
      if (name === 'page') {
        params.append('page', String(target));
        placed = true;
      } else if (typeof value === 'string' || typeof value === 'number') params.append(name, String(value));
    }
    if (!placed) params.append('page', String(target));
    return `${base}${base.includes('?') ? '&' : '?'}${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${urlFor(page - 1)}>; rel="prev"`);
  if (page < maxPages) links.push(`<${urlFor(page + 1)}>; rel="next"`);
  if (links.length > 0) response.header('Link', links.join(', '));
  return response;
}

/** The run controller's `get_input_from_request`: `?input=` for GET and DELETE, the JSON body's `input` for the others. */
export function inputFromRequest(request: RestRequest, ability: Ability): unknown {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') {
    const sent = request.query.input;
    // WordPress reads `?input[field]=value` (PHP's query syntax). A URL-encoded JSON document is
    // read too (docs/spec/abilities-mcp.md A.2), unless the ability takes a string as such.
    if (typeof sent === 'string' && /^\s*[[{]/.test(sent) && !takesString(ability)) {
      try {
        return JSON.parse(sent) as unknown;
      } catch {
        return sent; // fails the schema check, with its message
      }
    }
    return sent ?? null;
  }
  const json = request.json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) return (json as Record<string, unknown>).input ?? null;
  return null;
}

function takesString(ability: Ability): boolean {
  const type = ability.inputSchema?.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

function caller(request: RestRequest): AbilityCaller {
  return { user: request.user, credential: request.credential ?? null, via: 'rest' as const };
}

/**
 * `wp-abilities/v1` is one OAuth protected resource (its base URL, RFC 9728 metadata beside the
 * MCP servers'): a token for it runs any ability its scopes and its user's capabilities allow.
 */
export function registerAbilityRoutes(api: SitewardApi, registry: AbilityRegistry, bearer: BearerSlot): void {
  const restUrl = (path: string) => api.restUrl(path);
  const resource = restUrl(`/${ABILITIES_NAMESPACE}`);
  /** The caller: the REST layer's user, or the bearer token's (checked for `calls`); or the refusal. */
  const callerOf = async (request: RestRequest, calls: readonly AbilityCall[]): Promise<AbilityCaller | RestResponse> => {
    if (bearerToken(request) === null) return caller(request);
    if (!bearer.check)
      return new RestResponse(
        {
          code: 'invalid_token',
          message: 'Bearer tokens need a connected account service (SITEWARD_ACCOUNTS_ISSUER).',
          data: { status: 401 },
        },
        401,
      );
    return bearer.check(request, resource, calls, 'rest');
  };
  /** For the reading routes: the refusal of a bearer token, or null to answer. */
  const readRefusal = async (request: RestRequest): Promise<RestResponse | RestError | null> => {
    if (bearerToken(request) === null) return null;
    const who = await callerOf(request, []);
    if (who instanceof RestResponse) return who;
    return who.user.can('read') ? null : READ_REFUSED();
  };
  /** The run controller's checks after the caller is known: found and shown, the method, the input, the permission (a refusal is a `denied` run). */
  const runRefusal = async (request: RestRequest, who: AbilityCaller): Promise<RestError | null> => {
    const ability = shown(request.urlParams.name ?? '');
    if (!ability) return abilityError('not_found');
    const methodError = wrongMethod(ability, request.method);
    if (methodError) return methodError;
    const checked = registry.checkInput(ability, registry.normalizeInput(ability, inputFromRequest(request, ability)));
    if (!checked.ok) return checked.error;
    const allowed = await registry.checkPermission(ability, checked.value, who);
    if (allowed === true) return null;
    const status = authorizationRequiredStatus(who.user.id !== 0);
    const refused = allowed === false ? abilityError('cannot_execute', { status }) : withStatus(allowed, status);
    await registry.denied(ability, checked.value, refused, who);
    return refused;
  };
  const shown = (name: string) => {
    const ability = registry.get(name);
    return ability && ability.meta.show_in_rest ? ability : undefined;
  };
  const NAME_PARAMS = Type.Object({ name: Type.String({ description: 'Unique identifier for the ability.' }) });

  api.registerRoute(
    ABILITIES_NAMESPACE,
    '/abilities',
    defineRoute({
      query: Type.Object({
        ...PAGING,
        category: Type.Optional(
          Type.String({ description: 'Limit results to abilities in specific ability category.', sanitizeCallback: sanitizeKey }),
        ),
      }),
      permission: canRead,
      handler: async ({ query, request }) => {
        const refused = await readRefusal(request);
        if (refused) return refused;
        let abilities = registry.list().filter((ability) => ability.meta.show_in_rest);
        if (query.category) abilities = abilities.filter((ability) => ability.category === query.category);
        const base = restUrl(`/${ABILITIES_NAMESPACE}/abilities`);
        return paged(abilities, query.page, query.per_page, request, base, (a) => abilityJson(a, query.context, restUrl));
      },
    }),
  );

  api.registerRoute(
    ABILITIES_NAMESPACE,
    '/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run',
    defineRoute({
      // WordPress registers every method: which one an ability wants is known only when it is asked.
      methods: 'GET, POST, PUT, PATCH, DELETE',
      params: NAME_PARAMS,
      body: Type.Object({ input: Type.Optional(checkedByHandler('object', 'Input parameters for the ability execution.')) }),
      // The run controller's `check_ability_permissions`: found and shown, the method, the input, the
      // permission. With a bearer token the handler checks it all once the token is known.
      permission: permission('the ability’s own permission (with a bearer token: checked by the handler)', async (request) => {
        if (bearerToken(request) !== null) return true;
        return (await runRefusal(request, caller(request))) ?? true;
      }),
      handler: async ({ params, request }) => {
        const ability = shown(params.name);
        if (!ability) return abilityError('not_found');
        let who = caller(request);
        if (bearerToken(request) !== null) {
          const found = await callerOf(request, [{ ability, input: inputFromRequest(request, ability) }]);
          if (found instanceof RestResponse) return found;
          who = found;
          const refused = await runRefusal(request, who);
          if (refused) return refused;
        }
        const outcome = await registry.run(ability, inputFromRequest(request, ability), who);
        return outcome.ok ? new RestResponse(outcome.value as JsonValue) : outcome.error;
      },
    }),
  );

  api.registerRoute(
    ABILITIES_NAMESPACE,
    '/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+)',
    defineRoute({
      params: NAME_PARAMS,
      query: Type.Object({ context: CONTEXT }),
      permission: canRead,
      handler: async ({ params, query, request }) => {
        const refused = await readRefusal(request);
        if (refused) return refused;
        const ability = shown(params.name);
        return ability ? abilityJson(ability, query.context, restUrl) : abilityError('not_found');
      },
    }),
  );

  api.registerRoute(
    ABILITIES_NAMESPACE,
    '/categories',
    defineRoute({
      query: Type.Object(PAGING),
      permission: canRead,
      handler: async ({ query, request }) => {
        const refused = await readRefusal(request);
        if (refused) return refused;
        const base = restUrl(`/${ABILITIES_NAMESPACE}/categories`);
        return paged(registry.categories(), query.page, query.per_page, request, base, (c) => categoryJson(c, query.context, restUrl));
      },
    }),
  );

  api.registerRoute(
    ABILITIES_NAMESPACE,
    '/categories/(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)',
    defineRoute({
      params: Type.Object({ slug: Type.String({ description: 'Unique identifier for the ability category.' }) }),
      query: Type.Object({ context: CONTEXT }),
      permission: canRead,
      handler: async ({ params, query, request }) => {
        const refused = await readRefusal(request);
        if (refused) return refused;
        const category = registry.category(params.slug);
        return category ? categoryJson(category, query.context, restUrl) : abilityError('category_not_found');
      },
    }),
  );
}

/** `validate_request_method`. */
function wrongMethod(ability: Ability, method: string): RestError | null {
  const expected = runMethod(ability);
  if (method === expected || (expected === 'GET' && method === 'HEAD')) return null;
  return abilityError(expected === 'GET' ? 'method_get' : expected === 'DELETE' ? 'method_delete' : 'method_post');
}

/** WordPress's `add_data( array( 'status' => … ) )` on the callback's own error. */
function withStatus(error: RestError, status: number): RestError {
  return new RestError(error.code, error.message, { ...(error.data ?? {}), status });
}
