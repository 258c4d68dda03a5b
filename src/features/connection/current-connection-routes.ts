/**
 * The 4.3+ names of the connection routes (docs/spec/jetpack-v4-reference.md §12,
 * docs/spec/current-clients.md A.1–A.3, A.7): the 2016 routes' handlers and permission checks
 * (connection-routes.ts) under today's spellings, the 4.3.0 DELETE variants included, plus
 * `connection/test`.
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../plugins/api.js';
import { defineRoute, PUBLIC } from '../../rest/define-route.js';
import { invalidParams } from '../../rest/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { argumentMessages, pluginError, successMessages } from '../jetpack-v4/errors.js';
import { EDITABLE, JETPACK_NAMESPACE, flagged } from '../jetpack-v4/route-helpers.js';
import type { ConnectionHandlers, ConnectionRouteDeps } from './connection-routes.js';
import { connectionTestAnswer, runConnectionTest } from './connection-test.js';
import { isSitePublic } from '../jetpack-v4/site-visibility.js';

export interface CurrentConnectionDeps extends ConnectionRouteDeps {
  /** The bound of each call `connection/test` makes to the account service, in ms. */
  readonly accountsTimeoutMs: number;
}

export function registerCurrentConnectionRoutes(api: SitewardApi, deps: CurrentConnectionDeps, handlers: ConnectionHandlers): void {
  const { service } = deps;
  const { require } = handlers;

  const disconnect = defineRoute({
    methods: 'DELETE',
    permission: require('disconnect'),
    handler: ({ request }) => handlers.disconnect(request),
  });
  api.registerRoute(JETPACK_NAMESPACE, '/connection', [
    defineRoute({
      permission: PUBLIC,
      // The 2016 body, plus the keys today's clients read; `offlineMode` is `devMode` under its current name (docs/spec/current-clients.md A.2).
      handler: async ({ request }) => {
        const [body, facts, isPublic] = await Promise.all([handlers.status(), service.facts(), isSitePublic(deps.store.options)]);
        return {
          ...body,
          isRegistered: facts.registered,
          isUserConnected: request.user.id !== 0 && facts.linked.includes(request.user.id),
          hasConnectedOwner: facts.master !== null,
          offlineMode: { ...body.devMode, wpLocalConstant: false },
          isPublic,
        };
      },
    }),
    defineRoute({
      methods: EDITABLE,
      body: Type.Object({
        isActive: Type.Unknown({
          validateCallback: (value: unknown) => (value === false ? true : invalidParams(argumentMessages.isActiveFalse)),
        }),
      }),
      permission: require('disconnect'),
      handler: ({ request }) => handlers.disconnect(request),
    }),
    disconnect,
  ]);

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/connection/url',
    defineRoute({
      // Today's clients send where the flow started and where to return; Siteward's login flow returns to the admin page.
      query: Type.Object({ from: Type.Optional(Type.String()), redirect: Type.Optional(Type.String()) }),
      permission: handlers.connectUrlPermission,
      handler: ({ request }) => handlers.connectUrl(request),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/connection/data',
    defineRoute({
      permission: require('user_connection_data'),
      // The 2016 body without `othersLinked`, plus today's `connectionOwner` (docs/spec/current-clients.md A.3).
      handler: async ({ request }) => {
        const body = await handlers.userData(request);
        if (!isPlainObject(body)) return body;
        const { master } = await service.facts();
        const owner = master === null ? undefined : await deps.store.users.byId(master);
        return { currentUser: body.currentUser ?? null, connectionOwner: owner?.displayName ?? null };
      },
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/connection/user',
    defineRoute({
      methods: [...EDITABLE, 'DELETE'],
      // Jetpack's unlink_user_permission_callback: jetpack_connect_user, and the caller is linked (docs/spec/current-clients.md A.1).
      permission: require('unlink_user', async (user) => (await service.facts()).linked.includes(user.id)),
      handler: ({ request }) =>
        flagged(request, 'linked', false) ? handlers.unlink(request.user.id, request) : pluginError('invalid_param'),
    }),
  );

  api.registerRoute(
    JETPACK_NAMESPACE,
    '/connection/test',
    defineRoute({
      permission: require('manage_modules'),
      handler: async () =>
        connectionTestAnswer(
          await runConnectionTest(service, deps.store.users, deps.accountsTimeoutMs),
          successMessages.connectionTestsPassed,
        ),
    }),
  );
}
