/**
 * The connection routes of `jetpack/v4` (docs/spec/jetpack-v4-reference.md §3.1–§3.6 with docs/spec/compat.md §9),
 * registered through the plugin API like every other route.
 */
import type { SitewardAuthenticator } from '../../auth/authenticator.js';
import type { SitewardApi } from '../../plugins/api.js';
import { Type } from '@sinclair/typebox';
import { defineRoute, permission, PUBLIC, type NamedPermission } from '../../rest/define-route.js';
import type { EndpointCallback, JsonValue, Principal, RestRequest } from '../../rest/types.js';
import { invalidParams, type RestError } from '../../rest/errors.js';
import { argumentMessages } from '../jetpack-v4/errors.js';
import { passes, permissionError, type DevModeState, type PermissionCheck } from '../jetpack-v4/permissions.js';
import { EDITABLE, JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import type { ConnectionService } from './connection-service.js';
import { connectionRefusalError, restErrorOf } from './rest-errors.js';
import { userConnectionData, type UserDataDeps } from './user-connection-data.js';
import { RequestSources } from '../audit/index.js';

export interface ConnectionRouteDeps extends UserDataDeps {
  readonly service: ConnectionService;
  readonly authenticator: SitewardAuthenticator;
  readonly homeUrl: string;
  readonly devModeState: () => DevModeState;
  readonly clock: () => number;
}

const SUCCESS = { code: 'success' } as const;

/** The `id` of `/unlink`, when given: a positive integer (docs/spec/jetpack-v4-reference.md §3.5). */
function unlinkTarget(raw: unknown): number | undefined {
  return raw === undefined || raw === null || raw === '' ? undefined : Number(raw);
}

/** `/unlink`'s body. No default for `id`: the current user is the default, and an anonymous request must meet the permission check (401), not this one. */
const UNLINK_BODY = Type.Object({
  id: Type.Optional(
    Type.Unknown({
      validateCallback: (value: unknown) =>
        /^\d+$/.test(String(value)) && Number(value) > 0 ? true : invalidParams(argumentMessages.unlinkId),
    }),
  ),
});

/**
 * The callbacks and permission callbacks of the connection routes, shared by the 2016 names
 * (registered here) and the 4.3+ names (current-connection-routes.ts): one behaviour, two spellings.
 */
export interface ConnectionHandlers {
  readonly require: (check: PermissionCheck, also?: (user: Principal) => boolean | Promise<boolean>) => NamedPermission;
  /** The `connection-status` body. */
  readonly status: () => Promise<{
    isActive: boolean;
    isStaging: false;
    devMode: { isActive: boolean; constant: boolean; url: boolean; filter: false };
  }>;
  readonly connectUrlPermission: NamedPermission;
  readonly connectUrl: EndpointCallback;
  readonly userData: (request: RestRequest) => Promise<JsonValue | RestError>;
  readonly disconnect: EndpointCallback;
  /** Unlinks a user (the current one unless `/unlink` names another), recording who asked. */
  readonly unlink: (userId: number, request: RestRequest) => Promise<typeof SUCCESS | RestError>;
}

export function registerConnectionRoutes(api: SitewardApi, deps: ConnectionRouteDeps): ConnectionHandlers {
  const { service } = deps;
  const sources = new RequestSources(deps.store.appPasswords, deps.clock);
  const site = { site: { devMode: deps.devModeState } };
  const require = (check: PermissionCheck, also: (user: Principal) => boolean | Promise<boolean> = () => true): NamedPermission =>
    permission(check, async (request: RestRequest) =>
      passes(check, request.user, site) && (await also(request.user)) ? true : permissionError(check, request.user),
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
    disconnect: async (request) => {
      const done = await service.disconnect(await sources.of(request));
      if (done.ok) return SUCCESS;
      return 'refusal' in done ? connectionRefusalError(done.refusal) : restErrorOf(done.error);
    },
    unlink: async (userId, request) => {
      const done = await service.unlink(userId, await sources.of(request));
      if (done.ok) return SUCCESS;
      return 'refusal' in done ? connectionRefusalError(done.refusal) : restErrorOf(done.error);
    },
  };

  api.registerRoute(JETPACK_NAMESPACE, '/connection-status', defineRoute({ permission: PUBLIC, handler: handlers.status }));

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/connect-url',
    defineRoute({ permission: handlers.connectUrlPermission, handler: ({ request }) => handlers.connectUrl(request) }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/user-connection-data',
    defineRoute({ permission: require('user_connection_data'), handler: ({ request }) => handlers.userData(request) }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/disconnect/site',
    defineRoute({ methods: EDITABLE, permission: require('disconnect'), handler: ({ request }) => handlers.disconnect(request) }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/unlink',
    defineRoute({
      methods: EDITABLE,
      body: UNLINK_BODY,
      // Unlinking someone else needs manage_options (docs/spec/compat.md §9).
      permission: permission('link_user', (request: RestRequest, { body }: { body: { id?: unknown } }) => {
        const target = unlinkTarget(body.id);
        const allowed = target === undefined || target === request.user.id ? () => true : (user: Principal) => user.can('manage_options');
        return require('link_user', allowed).check(request, undefined);
      }),
      handler: ({ body, request }) => handlers.unlink(unlinkTarget(body.id) ?? request.user.id, request),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/recheck-ssl',
    defineRoute({ methods: EDITABLE, permission: require('view_admin'), handler: () => service.recheckSsl(deps.clock()) }),
  );
  return handlers;
}
