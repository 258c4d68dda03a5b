/** Settings, Jump Start, reset and notice endpoints (docs/spec/jetpack-v4-reference.md §3.12–§3.17). */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../../plugins/api.js';
import { defineRoute } from '../../../rest/define-route.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import type { PluginContext } from '../context.js';
import { activateJumpstart, deactivateJumpstart } from '../operations/jumpstart.js';
import { dismissNotice } from '../operations/notices.js';
import { reset } from '../operations/reset.js';
import { readSettings, updateSetting } from '../operations/settings.js';
import { readSettingsObject, settingsObjectVersioned } from '../operations/settings-object.js';
import { namedPermission } from '../../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE } from '../../jetpack-v4/route-helpers.js';

export function registerSiteRoutes(api: SitewardApi, ctx: PluginContext, catalog: ModuleCatalog): void {
  const manageModules = namedPermission('manage_modules', ctx);
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/settings',
    defineRoute({
      // The one route both shapes spell alike: the spec's answer unless the operator chose today's
      // (SITEWARD_SETTINGS_SHAPE=current; docs/spec/current-clients.md A.4).
      permission: namedPermission('view_admin', ctx),
      handler: ({ request }) => (ctx.settingsShape === 'current' ? readSettingsObject(ctx, catalog, request.user) : readSettings(ctx)),
      // Options (and, in today's shape, the user's record) only, unless a plugin's option reads its own.
      replayable: () => ctx.settingsShape !== 'current' || settingsObjectVersioned(catalog),
    }),
  );
  const settingUpdate = defineRoute({
    methods: EDITABLE,
    permission: namedPermission('manage_settings', ctx),
    handler: ({ request }) => updateSetting(ctx, request.json, request),
  });
  api.registerRoute(JETPACK_NAMESPACE, '/settings/update', settingUpdate);
  // The path the historical admin client called (docs/spec/compat.md §9).
  api.registerRoute(JETPACK_NAMESPACE, '/setting/update', settingUpdate);

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/jumpstart/activate',
    defineRoute({ methods: EDITABLE, permission: manageModules, handler: ({ request }) => activateJumpstart(ctx, catalog, request) }),
  );
  api.registerRoute(
    JETPACK_NAMESPACE,
    '/jumpstart/deactivate',
    defineRoute({ methods: EDITABLE, permission: manageModules, handler: ({ request }) => deactivateJumpstart(ctx, catalog, request) }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/reset/(?P<options_or_modules>[a-z\\-]+)',
    defineRoute({
      methods: EDITABLE,
      params: Type.Object({ options_or_modules: Type.String() }),
      permission: manageModules,
      handler: ({ params, request }) => reset(ctx, catalog, params.options_or_modules, request),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/notice/(?P<notice>[a-z\\-_]+)/dismiss',
    defineRoute({
      methods: EDITABLE,
      params: Type.Object({ notice: Type.String() }),
      permission: namedPermission('view_admin', ctx),
      handler: ({ params, request }) => dismissNotice(ctx, params.notice, request.user, request),
    }),
  );
}
