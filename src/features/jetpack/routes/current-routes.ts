/**
 * The 4.3+ spellings of the plugin's routes (docs/spec/jetpack-v4-reference.md §12,
 * docs/spec/current-clients.md A.1): the same operations, permissions, errors and events as the
 * 2016 routes beside them, under the names Jetpack's admin client has called since 4.3. The
 * connection's own 4.3+ routes are the connection feature's (connection/current-routes.ts).
 */
import { isPlainObject } from '../../../core/objects.js';
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../../plugins/api.js';
import { defineRoute } from '../../../rest/define-route.js';
import { invalidParams } from '../../../rest/errors.js';
import type { EndpointCallback, RestRequest } from '../../../rest/types.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import { isBooleanLike, toBoolean } from '../catalog/option-validators.js';
import type { PluginContext } from '../context.js';
import { argumentMessages, pluginError } from '../../jetpack-v4/errors.js';
import { activateJumpstart, deactivateJumpstart } from '../operations/jumpstart.js';
import { readJumpstartState } from '../operations/jumpstart-state.js';
import { dismissNotice } from '../operations/notices.js';
import { reset } from '../operations/reset.js';
import { invalidSettingValues, writeSettingsObject } from '../operations/settings-object.js';
import { stateKeys } from '../state-keys.js';
import { namedPermission } from '../../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE, flagged } from '../../jetpack-v4/route-helpers.js';

/** What `GET module/{slug}/data` answers for one module (docs/spec/current-clients.md A.6); features that run a module add theirs. */
export type ModuleDataProvider = EndpointCallback;

/** The 4.3.0 spelling took DELETE; 4.3.1+ takes an EDITABLE method with a body flag. */
const EDITABLE_OR_DELETE = [...EDITABLE, 'DELETE'] as const;

/** The body of a settings write: the JSON object, else the form parameters (docs/spec/current-clients.md A.5 step 2). */
function settingsBody(request: RestRequest): unknown {
  return isPlainObject(request.json) ? request.json : request.bodyParams;
}

/** Writes answer in the `edit` context (WordPress's default for them). */
const EDIT_CONTEXT = Type.Object({ context: Type.Unknown({ default: 'edit' }) });

export function registerCurrentRoutes(
  api: SitewardApi,
  ctx: PluginContext,
  catalog: ModuleCatalog,
  dataProviders: ReadonlyMap<string, ModuleDataProvider>,
): void {
  const configureModules = namedPermission('configure_modules', ctx);
  const manageModules = namedPermission('manage_modules', ctx);
  const viewAdmin = namedPermission('view_admin', ctx);
  // POST settings (no 2016 twin: always the 4.4+ way). GET settings is in site-routes.ts, where the two shapes meet.
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/settings',
    defineRoute({
      methods: EDITABLE,
      query: EDIT_CONTEXT,
      // The values of known keys are checked before the permission, as Jetpack's declared arguments are.
      validateCallback: (request) => invalidSettingValues(catalog, settingsBody(request)) ?? true,
      permission: configureModules,
      handler: ({ request }) => writeSettingsObject(ctx, catalog, settingsBody(request), request.user, undefined, request),
      // Its permission is GET settings' Allow: a capability check.
      replayable: 'permission',
    }),
  );
  // After `/settings/update` (site-routes.ts), which keeps its 2016 meaning; there is no GET (docs/spec/current-clients.md A.1).
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/settings/(?P<module>[a-z\\-]+)',
    defineRoute({
      methods: EDITABLE,
      params: Type.Object({ module: Type.String() }),
      query: EDIT_CONTEXT,
      permission: configureModules,
      handler: ({ params, request }) => writeSettingsObject(ctx, catalog, settingsBody(request), request.user, params.module, request),
    }),
  );

  api.registerRoute(JETPACK_NAMESPACE, '/jumpstart', [
    defineRoute({
      // 4.5–7.4: the stored state, `false` when never set (docs/spec/current-clients.md A.1).
      permission: namedPermission('manage_settings', ctx),
      handler: async () => ({
        status: (await ctx.store.options.get(stateKeys.jumpstart)) === undefined ? false : await readJumpstartState(ctx.store.options),
      }),
    }),
    defineRoute({
      methods: EDITABLE,
      body: Type.Object({
        active: Type.Boolean({
          validateCallback: (value: unknown) => (isBooleanLike(value) ? true : invalidParams(argumentMessages.active)),
        }),
      }),
      permission: manageModules,
      handler: ({ body, request }) =>
        toBoolean(body.active) === true ? activateJumpstart(ctx, catalog, request) : deactivateJumpstart(ctx, catalog, request),
    }),
  ]);

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/options/(?P<options>[a-z\\-]+)',
    defineRoute({
      methods: EDITABLE_OR_DELETE,
      params: Type.Object({ options: Type.String() }),
      permission: manageModules,
      handler: ({ params, request }) =>
        flagged(request, 'reset', true) ? reset(ctx, catalog, params.options, request) : pluginError('invalid_param'),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/notice/(?P<notice>[a-z\\-_]+)',
    defineRoute({
      methods: EDITABLE_OR_DELETE,
      params: Type.Object({ notice: Type.String() }),
      permission: viewAdmin,
      handler: ({ params, request }) =>
        flagged(request, 'dismissed', true) ? dismissNotice(ctx, params.notice, request.user, request) : pluginError('invalid_dismissed'),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/module/(?P<slug>[a-z\\-]+)/data',
    defineRoute({
      params: Type.Object({ slug: Type.String() }),
      query: Type.Object({ range: Type.String({ default: 'day' }) }),
      permission: viewAdmin,
      // A module without data answers 200 `null`, as Jetpack's handler returns nothing (docs/spec/current-clients.md A.6).
      handler: ({ params, request }) => {
        const provider = dataProviders.get(params.slug);
        return provider ? provider(request) : null;
      },
    }),
  );
}
