/**
 * The 4.3+ spellings of the plugin's routes (docs/spec/jetpack-v4-reference.md §12,
 * docs/spec/current-clients.md A.1): the same operations, permissions, errors and events as the
 * 2016 routes beside them, under the names Jetpack's admin client has called since 4.3. The
 * connection's own 4.3+ routes are the connection feature's (connection/current-routes.ts).
 */
import { isPlainObject } from '../../../core/objects.js';
import type { SitewardApi } from '../../../plugins/api.js';
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
import { requirePermission } from '../../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE, flagged, urlParam } from '../../jetpack-v4/route-helpers.js';

/** What `GET module/{slug}/data` answers for one module (docs/spec/current-clients.md A.6); features that run a module add theirs. */
export type ModuleDataProvider = EndpointCallback;

/** The 4.3.0 spelling took DELETE; 4.3.1+ takes an EDITABLE method with a body flag. */
const EDITABLE_OR_DELETE = [...EDITABLE, 'DELETE'] as const;

/** The body of a settings write: the JSON object, else the form parameters (docs/spec/current-clients.md A.5 step 2). */
function settingsBody(request: RestRequest): unknown {
  return isPlainObject(request.json) ? request.json : request.bodyParams;
}

export function registerCurrentRoutes(
  api: SitewardApi,
  ctx: PluginContext,
  catalog: ModuleCatalog,
  dataProviders: ReadonlyMap<string, ModuleDataProvider>,
): void {
  // POST settings (no 2016 twin: always the 4.4+ way). GET settings is in site-routes.ts, where the two shapes meet.
  api.registerRoute(JETPACK_NAMESPACE, '/settings', {
    methods: EDITABLE,
    args: { context: { default: 'edit' } },
    // The values of known keys are checked before the permission, as Jetpack's declared arguments are.
    validateCallback: (request) => invalidSettingValues(catalog, settingsBody(request)) ?? true,
    callback: (request) => writeSettingsObject(ctx, catalog, settingsBody(request), request.user, undefined, request),
    permissionCallback: requirePermission('configure_modules', ctx),
    // Its permission is GET settings' Allow: a capability check.
    replayable: 'permission',
  });
  // After `/settings/update` (site-routes.ts), which keeps its 2016 meaning; there is no GET (docs/spec/current-clients.md A.1).
  api.registerRoute(JETPACK_NAMESPACE, '/settings/(?P<module>[a-z\\-]+)', {
    methods: EDITABLE,
    args: { context: { default: 'edit' } },
    callback: (request) => writeSettingsObject(ctx, catalog, settingsBody(request), request.user, urlParam(request, 'module'), request),
    permissionCallback: requirePermission('configure_modules', ctx),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/jumpstart', [
    {
      // 4.5–7.4: the stored state, `false` when never set (docs/spec/current-clients.md A.1).
      methods: 'GET',
      callback: async () => ({
        status: (await ctx.store.options.get(stateKeys.jumpstart)) === undefined ? false : await readJumpstartState(ctx.store.options),
      }),
      permissionCallback: requirePermission('manage_settings', ctx),
    },
    {
      methods: EDITABLE,
      args: {
        active: {
          type: 'boolean',
          required: true,
          validateCallback: (value) => (isBooleanLike(value) ? true : invalidParams(argumentMessages.active)),
        },
      },
      callback: (request) =>
        toBoolean(request.params.active) === true ? activateJumpstart(ctx, catalog, request) : deactivateJumpstart(ctx, catalog, request),
      permissionCallback: requirePermission('manage_modules', ctx),
    },
  ]);

  api.registerRoute(JETPACK_NAMESPACE, '/options/(?P<options>[a-z\\-]+)', {
    methods: EDITABLE_OR_DELETE,
    callback: (request) =>
      flagged(request, 'reset', true) ? reset(ctx, catalog, urlParam(request, 'options'), request) : pluginError('invalid_param'),
    permissionCallback: requirePermission('manage_modules', ctx),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/notice/(?P<notice>[a-z\\-_]+)', {
    methods: EDITABLE_OR_DELETE,
    callback: (request) =>
      flagged(request, 'dismissed', true)
        ? dismissNotice(ctx, urlParam(request, 'notice'), request.user, request)
        : pluginError('invalid_dismissed'),
    permissionCallback: requirePermission('view_admin', ctx),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/module/(?P<slug>[a-z\\-]+)/data', {
    methods: 'GET',
    args: {
      range: { type: 'string', default: 'day' },
    },
    // A module without data answers 200 `null`, as Jetpack's handler returns nothing (docs/spec/current-clients.md A.6).
    callback: (request) => {
      const provider = dataProviders.get(urlParam(request, 'slug'));
      return provider ? provider(request) : null;
    },
    permissionCallback: requirePermission('view_admin', ctx),
  });
}
