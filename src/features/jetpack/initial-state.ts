/**
 * The admin page's `Initial_State` object (docs/spec/jetpack-v4-reference.md §11). WordPress printed every top-level
 * scalar as a string (true → "1", false → "", numbers → "123"); nested values keep JSON types.
 */
import { gravatarUrl } from '../../core/gravatar.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { Principal } from '../../rest/types.js';
import { getIn } from './catalog/option-storage.js';
import { STATS_ROLES } from './catalog/option-validators.js';
import { statsRoles } from '../jetpack-v4/stats-roles.js';
import { catalogOf, type PluginContext } from './context.js';
import { passes } from '../jetpack-v4/permissions.js';
import { isSitePublic } from './operations/active-modules.js';
import { readJumpstartState } from './operations/jumpstart-state.js';
import { listModules } from './operations/module-records.js';
import { readDismissedNotices } from './operations/notices.js';
import { SETTING_OPTION_NAMES } from './operations/settings.js';
import { siteStatus } from './operations/site-status.js';

export interface InitialStateOptions {
  user: Principal;
  /** A `wp_rest` nonce for the user's session. */
  nonce: string;
}

const ROLE_NAMES: Record<(typeof STATS_ROLES)[number], string> = {
  administrator: 'Administrator',
  editor: 'Editor',
  author: 'Author',
  contributor: 'Contributor',
  subscriber: 'Subscriber',
};

/** How WordPress's `wp_localize_script` prints a top-level value. */
function printed(value: JsonValue): JsonValue {
  if (value === true) return '1';
  if (value === false || value === null) return '';
  if (typeof value === 'number') return String(value);
  return value;
}

/** The /user-connection-data body of a site that is not connected (no linked account). */
function notConnectedUserData(ctx: PluginContext, user: Principal, viewStats: boolean, devMode: boolean): JsonObject {
  return {
    othersLinked: false,
    currentUser: {
      isConnected: false,
      isMaster: false,
      username: user.login,
      wpcomUser: { avatar: gravatarUrl(user.email, 64) },
      gravatar: `<img alt='' src='${gravatarUrl(user.email, 40)}' class='avatar avatar-40 photo' height='40' width='40' />`,
      permissions: {
        admin_page: passes('view_admin', user, ctx),
        connect: !devMode && user.can('manage_options'),
        disconnect: user.can('manage_options'),
        manage_modules: user.can('manage_options'),
        network_admin: false,
        network_sites_page: false,
        edit_posts: user.can('edit_posts'),
        manage_options: user.can('manage_options'),
        view_stats: viewStats,
      },
    },
  };
}

/** `{userid, username}` of the linked account, or "" when the user is not linked. */
function tracksUserData(userData: JsonValue): JsonValue {
  if (getIn(userData, ['currentUser', 'isConnected']) !== true) return '';
  const id = getIn(userData, ['currentUser', 'wpcomUser', 'ID']);
  const login = getIn(userData, ['currentUser', 'wpcomUser', 'login']);
  return id !== undefined && login !== undefined ? { userid: id, username: login } : '';
}

/**
 * Builds `Initial_State` with every key of docs/spec/jetpack-v4-reference.md §11, in its order.
 *
 * @example
 * const state = await buildInitialState(ctx, { user, nonce });
 * html += `<script>var Initial_State = ${JSON.stringify(state)};</script>`;
 */
export async function buildInitialState(ctx: PluginContext, opts: InitialStateOptions): Promise<JsonObject> {
  const { user, nonce } = opts;
  const catalog = catalogOf(ctx);
  const status = await siteStatus(ctx);
  const options = ctx.store.options;
  const dismissed = await readDismissedNotices(options);
  const roles = await statsRoles(ctx.store.options);
  const viewStats = user.roles.some((role) => roles.includes(role));
  const userData = ctx.userConnectionData
    ? await ctx.userConnectionData(user)
    : notConnectedUserData(ctx, user, viewStats, status.devMode.isActive);
  const adminUrl = ctx.site.adminUrl();

  const state: JsonObject = {
    WP_API_root: ctx.site.restRoot(),
    WP_API_nonce: nonce,
    // The admin page's assets are served under the admin URL (the client appends `/images/jp-4/`).
    pluginBaseUrl: adminUrl.replace(/\/+$/, ''),
    connectionStatus: {
      isActive: status.connected,
      isStaging: false,
      devMode: { ...status.devMode },
      isPublic: await isSitePublic(options),
    },
    // An empty PHP array printed as `[]`.
    dismissedNotices: Object.keys(dismissed).length > 0 ? dismissed : [],
    isDevVersion: !/^\d+(\.\d+)+$/.test(ctx.site.version),
    currentVersion: ctx.site.version,
    // The historical list named Automattic staff; Siteward has no support team's Gravatars to show.
    happinessGravIds: [],
    // Only for users who may read GET /module/all (in dev mode that needs manage_options).
    getModules: passes('view_admin', user, ctx) ? (JSON.parse(JSON.stringify(await listModules(ctx, catalog, user))) as JsonObject) : {},
    showJumpstart: (await readJumpstartState(options)) === 'new_connection',
    rawUrl: ctx.site
      .homeUrl()
      .replace(/^.*?:\/\//, '')
      .replace(/\/+$/, '')
      .replace(/\//g, '::'),
    adminUrl,
    stats: {
      data: { general: false, day: false, week: false, month: false },
      roles: Object.fromEntries(STATS_ROLES.map((role) => [role, { name: ROLE_NAMES[role], canView: roles.includes(role) }])),
    },
    settingNames: { ...SETTING_OPTION_NAMES },
    userData,
    ...(ctx.accountServiceConfigured === undefined ? {} : { accountServiceConfigured: ctx.accountServiceConfigured }),
    locale: '{}',
    localeSlug: 'en',
    jetpackStateNotices: { messageCode: null, errorCode: null, errorDescription: null },
    tracksUserData: tracksUserData(userData),
  };
  return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, printed(value)]));
}
