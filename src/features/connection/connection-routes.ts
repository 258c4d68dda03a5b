/**
 * The connection routes of `jetpack/v4` (docs/spec/jetpack-v4-reference.md §3.1–§3.6 with docs/spec/compat.md §9),
 * registered through the plugin API like every other route.
 */
import type { SitewardAuthenticator } from '../../auth/authenticator.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { EndpointCallback, JsonValue, PermissionCallback, Principal, RestRequest } from '../../rest/types.js';
import { invalidParams, type RestError } from '../../rest/errors.js';
import { argumentMessages } from '../jetpack-v4/errors.js';
import { passes, permissionError, type DevModeState, type PermissionCheck } from '../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import type { ConnectionService } from './connection-service.js';
import { connectionRefusalError, restErrorOf } from './rest-errors.js';
import { userConnectionData, type UserDataDeps } from './user-connection-data.js';
import { labelPermission } from '../../rest/permission-label.js';

export interface ConnectionRouteDeps extends UserDataDeps {
  readonly service: ConnectionService;
  readonly authenticator: SitewardAuthenticator;
  readonly homeUrl: string;
  readonly devModeState: () => DevModeState;
  readonly clock: () => number;
}

const SUCCESS = { code: 'success' } as const;

/** The `id` of `/unlink`, when given: a positive integer (docs/spec/jetpack-v4-reference.md §3.5). */
function unlinkTarget(request: RestRequest): number | undefined {
  const raw = request.params.id;
  return raw === undefined || raw === null || raw === '' ? undefined : Number(raw);
}

/**
 * The callbacks and permission callbacks of the connection routes, shared by the 2016 names
 * (registered here) and the 4.3+ names (current-connection-routes.ts): one behaviour, two spellings.
 */
export interface ConnectionHandlers {
  readonly require: (check: PermissionCheck, also?: (user: Principal) => boolean | Promise<boolean>) => PermissionCallback;
  /** The `connection-status` body. */
  readonly status: () => Promise<{
    isActive: boolean;
    isStaging: false;
    devMode: { isActive: boolean; constant: boolean; url: boolean; filter: false };
  }>;
  readonly connectUrlPermission: PermissionCallback;
  readonly connectUrl: EndpointCallback;
  readonly userData: (request: RestRequest) => Promise<JsonValue | RestError>;
  readonly disconnect: EndpointCallback;
  /** Unlinks a user (the current one unless `/unlink` names another). */
  readonly unlink: (userId: number) => Promise<typeof SUCCESS | RestError>;
}

export function registerConnectionRoutes(api: SitewardApi, deps: ConnectionRouteDeps): ConnectionHandlers {
  const { service } = deps;
  const site = { site: { devMode: deps.devModeState } };
  const require = (check: PermissionCheck, also: (user: Principal) => boolean | Promise<boolean> = () => true): PermissionCallback =>
    labelPermission(
      async (request) => (passes(check, request.user, site) && (await also(request.user)) ? true : permissionError(check, request.user)),
      check,
    );
  const handlers: ConnectionHandlers = {
    require,
    status: async () => {
      const mode = deps.devModeState();
      return {
        isActive: (await service.facts()).connected,
        isStaging: false,
        devMode: { isActive: mode.constant || mode.url, constant: mode.constant, url: mode.url, filter: false },
      };
    },
    // Linking oneself needs `read`; connecting a site that has no master user yet needs `manage_options` (jetpack_connect).
    connectUrlPermission: require('connect_url', async (user) => user.can('manage_options') || (await service.facts()).connected),
    connectUrl: async (request) => {
      if (service.engine === null) return connectionRefusalError('not_configured');
      // The nonce is bound to the browser session, which the REST request carries only in its cookie.
      const identity = await deps.authenticator.identify(request.headers);
      return `${deps.homeUrl}/connect/start?_wpnonce=${deps.authenticator.createNonce('connect', identity)}`;
    },
    userData: async (request) => {
      const data = await userConnectionData(deps, request.user, true);
      return data.ok ? data.body : restErrorOf(data.error);
    },
    disconnect: async () => {
      const done = await service.disconnect();
      if (done.ok) return SUCCESS;
      return 'refusal' in done ? connectionRefusalError(done.refusal) : restErrorOf(done.error);
    },
    unlink: async (userId) => {
      const done = await service.unlink(userId);
      if (done.ok) return SUCCESS;
      return 'refusal' in done ? connectionRefusalError(done.refusal) : restErrorOf(done.error);
    },
  };

  api.registerRoute(JETPACK_NAMESPACE, '/connection-status', {
    methods: 'GET',
    permissionCallback: labelPermission(() => true, 'public'),
    callback: handlers.status,
  });

  api.registerRoute(JETPACK_NAMESPACE, '/connect-url', {
    methods: 'GET',
    permissionCallback: handlers.connectUrlPermission,
    callback: handlers.connectUrl,
  });

  api.registerRoute(JETPACK_NAMESPACE, '/user-connection-data', {
    methods: 'GET',
    permissionCallback: require('user_connection_data'),
    callback: handlers.userData,
  });

  api.registerRoute(JETPACK_NAMESPACE, '/disconnect/site', {
    methods: EDITABLE,
    permissionCallback: require('disconnect'),
    callback: handlers.disconnect,
  });

  api.registerRoute(JETPACK_NAMESPACE, '/unlink', {
    methods: EDITABLE,
    args: {
      id: {
        // No default: the current user is the default, and an anonymous request must meet the permission check (401), not this one.
        validateCallback: (value) => (/^\d+$/.test(String(value)) && Number(value) > 0 ? true : invalidParams(argumentMessages.unlinkId)),
      },
    },
    // Unlinking someone else needs manage_options (docs/spec/compat.md §9).
    permissionCallback: labelPermission(async (request) => {
      const target = unlinkTarget(request);
      const allowed = target === undefined || target === request.user.id ? () => true : (user: Principal) => user.can('manage_options');
      return require('link_user', allowed)(request);
    }, 'link_user'),
    callback: (request) => handlers.unlink(unlinkTarget(request) ?? request.user.id),
  });

  api.registerRoute(JETPACK_NAMESPACE, '/recheck-ssl', {
    methods: EDITABLE,
    permissionCallback: require('view_admin'),
    callback: () => service.recheckSsl(deps.clock()),
  });
  return handlers;
}
