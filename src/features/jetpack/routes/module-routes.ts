/**
 * Module endpoints (docs/spec/jetpack-v4-reference.md §3.7–§3.11). Registration order matters: `/module/all` and
 * `/module/activate` come before the `/module/(?P<slug>…)` patterns they overlap, so that a GET
 * of `/module/all` lists modules while a POST of it falls through to the slug route (404 not_found).
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../../plugins/api.js';
import { defineRoute } from '../../../rest/define-route.js';
import { invalidParams, isRestError } from '../../../rest/errors.js';
import type { RestRequest } from '../../../rest/types.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { isBooleanLike, toBoolean } from '../catalog/option-validators.js';
import type { PluginContext } from '../context.js';
import { argumentMessages, pluginError, successMessages } from '../../jetpack-v4/errors.js';
import { activateModule, activateModules, deactivateModule } from '../operations/module-activation.js';
import { updateModuleOptions } from '../operations/module-options.js';
import { getModule, listModules } from '../operations/module-records.js';
import { namedPermission } from '../../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE } from '../../jetpack-v4/route-helpers.js';

const SLUG = '(?P<slug>[a-z\\-]+)';
const SLUG_PARAMS = Type.Object({ slug: Type.String() });

/** The object type of module records for `api.registerField` (docs/spec/site-management-api.md §2.6). */
export const MODULE_OBJECT_TYPE = 'jetpack_module';

/** Adds registered extra fields to one module record. */
function withFields(
  ctx: PluginContext,
  record: Record<string, unknown>,
  request: RestRequest,
): Promise<Record<string, unknown>> | Record<string, unknown> {
  return ctx.fields ? ctx.fields.addToResponse(MODULE_OBJECT_TYPE, record, request) : record;
}

async function listWithFields(ctx: PluginContext, catalog: ModuleCatalog, request: RestRequest): Promise<unknown> {
  const list = await listModules(ctx, catalog, request.user);
  if (!ctx.fields || ctx.fields.fields(MODULE_OBJECT_TYPE).size === 0) return list;
  const out: Record<string, unknown> = {};
  for (const [slug, record] of Object.entries(list)) out[slug] = await withFields(ctx, record, request);
  return out;
}

/**
 * Option updates, after the updaters of registered fields have taken the keys they own. A key of
 * a field without updater stays in the body and is reported like any unknown key.
 */
async function updateWithFields(ctx: PluginContext, catalog: ModuleCatalog, slug: string, request: RestRequest): Promise<unknown> {
  const body = request.json;
  const fields = ctx.fields?.fields(MODULE_OBJECT_TYPE);
  if (!fields || fields.size === 0 || typeof body !== 'object' || body === null || Array.isArray(body) || !catalog.get(slug)) {
    return updateModuleOptions(ctx, catalog, slug, body, request.user, request);
  }
  const rest: Record<string, unknown> = {};
  let fieldKeys = 0;
  for (const [key, value] of Object.entries(body)) {
    if (fields.get(key)?.update) fieldKeys++;
    else rest[key] = value;
  }
  if (fieldKeys === 0) return updateModuleOptions(ctx, catalog, slug, body, request.user, request);
  const updated = await ctx.fields!.update(MODULE_OBJECT_TYPE, { slug }, request);
  if (updated !== true) return updated;
  if (Object.keys(rest).length === 0) return { code: 'success', message: successMessages.moduleUpdated };
  return updateModuleOptions(ctx, catalog, slug, rest, request.user, request);
}

export function registerModuleRoutes(api: SitewardApi, ctx: PluginContext, catalog: ModuleCatalog): void {
  const viewAdmin = namedPermission('view_admin', ctx);
  const manageModules = namedPermission('manage_modules', ctx);
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/module/all',
    defineRoute({ permission: viewAdmin, handler: ({ request }) => listWithFields(ctx, catalog, request) }),
  );

  const modules = Type.Unsafe<unknown>({
    type: 'array',
    required: true,
    // With this default an absent list is "modules must be an array", never a missing parameter.
    default: '',
    // Only unknown slugs are invalid here: a known module that is unavailable is reported by the
    // handler as a 424 with the reason, while the others are activated (docs/spec/compat.md §9).
    validateCallback: (value: unknown) => {
      if (!Array.isArray(value)) return invalidParams(argumentMessages.modulesNotArray);
      const valid = value.every((slug) => typeof slug === 'string' && catalog.has(slug));
      return valid ? true : invalidParams(argumentMessages.modulesNotValid);
    },
  });
  const activeOptions = {
    // An absent `active` activates (docs/spec/compat.md §9).
    default: true,
    validateCallback: (value: unknown) => (isBooleanLike(value) ? true : invalidParams(argumentMessages.active)),
  };
  // The handler reads the JSON body only (docs/spec/jetpack-v4-reference.md §3.10).
  const activateListed = ({ request }: { request: RestRequest }) => {
    const json = request.json;
    const listed = typeof json === 'object' && json !== null ? (json as Record<string, unknown>).modules : undefined;
    if (!Array.isArray(listed)) return pluginError('module_not_found');
    return activateModules(ctx, catalog, listed.map(String), request);
  };
  const bulkActivate = defineRoute({
    methods: EDITABLE,
    body: Type.Object({ modules }),
    permission: manageModules,
    handler: activateListed,
  });
  api.registerRoute(JETPACK_NAMESPACE, '/module/activate', bulkActivate);
  // The path the historical admin client called (docs/spec/compat.md §9).
  api.registerRoute(JETPACK_NAMESPACE, '/modules/activate', bulkActivate);
  // The 4.3+ spelling, before the slug route it overlaps. Jetpack declares `active` but always
  // activates (docs/spec/current-clients.md A.1), so `active` is validated and otherwise ignored.
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/module/all/active',
    defineRoute({
      methods: EDITABLE,
      body: Type.Object({ modules, active: Type.Boolean(activeOptions) }),
      permission: manageModules,
      handler: activateListed,
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    `/module/${SLUG}/active`,
    defineRoute({
      methods: EDITABLE,
      params: SLUG_PARAMS,
      body: Type.Object({ active: Type.Boolean({ ...activeOptions, required: true }) }),
      permission: manageModules,
      handler: ({ params, body, request }) =>
        toBoolean(body.active) ? activateModule(ctx, catalog, params.slug, request) : deactivateModule(ctx, catalog, params.slug, request),
      // A capability check and a check of the value alone: a refused `active` may be answered again.
      replayable: 'arguments',
    }),
  );

  api.registerRoute(JETPACK_NAMESPACE, `/module/${SLUG}`, [
    defineRoute({
      params: SLUG_PARAMS,
      permission: viewAdmin,
      handler: async ({ params, request }) => {
        const record = await getModule(ctx, catalog, params.slug, request.user);
        return isRestError(record) ? record : withFields(ctx, record as Record<string, unknown>, request);
      },
      // Capability checks, so OPTIONS may be answered again; the record reads the connection and services too.
      replayable: 'permission',
    }),
    defineRoute({
      methods: EDITABLE,
      params: SLUG_PARAMS,
      query: Type.Object({ context: Type.Unknown({ default: 'edit' }) }),
      permission: namedPermission('configure_modules', ctx),
      handler: ({ params, request }) => updateWithFields(ctx, catalog, params.slug, request),
      replayable: 'permission',
    }),
  ]);
}
