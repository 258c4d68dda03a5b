/**
 * Where the MCP servers are served (see mcp-server.ts): the WordPress adapter's default server at
 * `POST /wp-json/mcp/mcp-adapter-default-server` and Siteward's at `POST /wp-json/siteward/v1/mcp`.
 * Both are REST routes: the REST layer authenticates (application passwords as HTTP Basic), and
 * the caller must be logged in (the adapter's default, `is_user_logged_in()`). There is no SSE
 * stream: GET answers 405, as the adapter's transport does.
 */
import { Type } from '@sinclair/typebox';
import type { SitewardApi } from '../../plugins/api.js';
import { defineRoute, permission } from '../../rest/define-route.js';
import { RestResponse, type RestRequest } from '../../rest/types.js';
import { adapterServer, serveMcp, sitewardServer } from './mcp-server.js';
import type { AbilityRegistry } from './registry.js';

export const ADAPTER_NAMESPACE = 'mcp';
export const ADAPTER_ROUTE = '/mcp-adapter-default-server';
export const SITEWARD_MCP_NAMESPACE = 'siteward/v1';
export const SITEWARD_MCP_ROUTE = '/mcp';

const loggedIn = permission('logged in', (request) => request.user.id !== 0);

/** GET: no server-sent event stream here (JSON-RPC error, as the SDK answers an unsupported method). */
function noStream(): RestResponse {
  return new RestResponse({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }, 405, {
    Allow: 'POST, DELETE',
  });
}

export function registerMcpRoutes(api: SitewardApi, registry: AbilityRegistry): void {
  const caller = (request: RestRequest) => ({ user: request.user, credential: request.credential ?? null, via: 'mcp' as const });
  const servers = [
    [ADAPTER_NAMESPACE, ADAPTER_ROUTE, 'mcp-adapter-default-server', adapterServer(registry)],
    [SITEWARD_MCP_NAMESPACE, SITEWARD_MCP_ROUTE, 'siteward', sitewardServer(registry)],
  ] as const;
  for (const [namespace, route, name, configure] of servers) {
    api.registerRoute(namespace, route, [
      defineRoute({
        methods: 'POST, DELETE',
        // The JSON-RPC message: the SDK checks it.
        body: Type.Object({}),
        permission: loggedIn,
        handler: ({ request }) => serveMcp(request, caller(request), name, configure),
      }),
      defineRoute({ methods: 'GET', permission: loggedIn, handler: noStream }),
    ]);
  }
}
