/** Settings, Jump Start, reset and notice endpoints (docs/spec/jetpack-v4-reference.md §3.12–§3.17). */
import type { SitewardApi } from '../../../plugins/api.js';
import type { EndpointDefinition } from '../../../rest/types.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import type { PluginContext } from '../context.js';
import { activateJumpstart, deactivateJumpstart } from '../operations/jumpstart.js';
import { dismissNotice } from '../operations/notices.js';
import { reset } from '../operations/reset.js';
import { readSettings, updateSetting } from '../operations/settings.js';
import { readSettingsObject, settingsObjectVersioned } from '../operations/settings-object.js';
import { requirePermission } from '../../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE, urlParam } from '../../jetpack-v4/route-helpers.js';

export function registerSiteRoutes(api: SitewardApi, ctx: PluginContext, catalog: ModuleCatalog): void {
  api.registerRoute(JETPACK_NAMESPACE, '/settings', {
    methods: 'GET',
    // The one route both shapes spell alike: the spec's answer unless the operator chose today's
    // (SITEWARD_SETTINGS_SHAPE=current; docs/spec/current-clients.md A.4).
    callback: (request) => (ctx.settingsShape === 'current' ? readSettingsObject(ctx, catalog, request.user) : readSettings(ctx)),
    permissionCallback: requirePermission('view_admin', ctx),
    // Options (and, in today's shape, the user's record) only, unless a plugin's option reads its own.
    replayable: () => ctx.settingsShape !== 'current' || settingsObjectVersioned(catalog),
  });
  const settingUpdate: EndpointDefinition = {
    methods: EDITABLE,
    callback: (request) => updateSetting(ctx, request.json, request),
    permissionCallback: requirePermission('manage_settings', ctx),
  };
  api.registerRoute(JETPACK_NAMESPACE, '/settings/update', settingUpdate);
  // The path the historical admin client called (docs/spec/compat.md §9).
  api.registerRoute(JETPACK_NAMESPACE, '/setting/update', settingUpdate);

  api.registerRoute(JETPACK_NAMESPACE, '/jumpstart/activate', {
    methods: EDITABLE,
    callback: (request) => activateJumpstart(ctx, catalog, request),
    permissionCallback: requirePermission('manage_modules', ctx),
  });
  api.registerRoute(JETPACK_NAMESPACE, '/jumpstart/deactivate', {
    methods: EDITABLE,
    callback: (request) => deactivateJumpstart(ctx, catalog, request),
    permissionCallback: requirePermission('manage_modules', ctx),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/reset/(?P<options_or_modules>[a-z\\-]+)', {
    methods: EDITABLE,
    callback: (request) => reset(ctx, catalog, urlParam(request, 'options_or_modules'), request),
    permissionCallback: requirePermission('manage_modules', ctx),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/notice/(?P<notice>[a-z\\-_]+)/dismiss', {
    methods: EDITABLE,
    callback: (request) => dismissNotice(ctx, urlParam(request, 'notice'), request.user, request),
    permissionCallback: requirePermission('view_admin', ctx),
  });
}
