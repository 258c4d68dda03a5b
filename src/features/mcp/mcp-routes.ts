/**
 * Where the MCP servers are served (see mcp-server.ts): the WordPress adapter's default server at
 * `POST /wp-json/mcp/mcp-adapter-default-server` and Siteward's at `POST /wp-json/siteward/v1/mcp`.
 * Both are REST routes, so the REST layer authenticates first: a login cookie or an application
 * password (HTTP Basic), as the adapter accepts. With an account service connected, an OAuth
 * bearer token for the endpoint works too (agent-auth.ts), within its scopes. Nobody signed in
 * gets 401 with the challenge that tells an MCP client where to sign in. There is no SSE stream:
 * GET answers 405, as the adapter's transport does.
 */
import { Type } from '@sinclair/typebox';
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { SitewardApi } from '../../plugins/api.js';
import { defineRoute, permission } from '../../rest/define-route.js';
import { RestResponse, type RestRequest } from '../../rest/types.js';
import { ABILITIES_NAMESPACE, bearerToken, type AbilityCall, type AbilityRegistry, type BearerCheck } from '../abilities/index.js';
import { bearerChallenge, READ_SCOPE, type AgentAuth } from './agent-auth.js';
import { refusal } from './bearer-check.js';
import type * as McpServerModule from './mcp-server.js';
import { publicAbilities, toolName } from './mcp-tools.js';

type McpServers = typeof McpServerModule;
type Configure = ReturnType<McpServers['adapterServer']>;

/**
 * The MCP SDK (with zod and Ajv, several MB of heap) loads at the first MCP request, not at
 * start-up: most workers never serve one (issue 44 item 4). Once per process.
 */
let mcpServers: Promise<McpServers> | undefined;
const loadMcpServers = (): Promise<McpServers> => (mcpServers ??= import('./mcp-server.js'));

export const ADAPTER_NAMESPACE = 'mcp';
export const ADAPTER_ROUTE = '/mcp-adapter-default-server';
export const SITEWARD_MCP_NAMESPACE = 'siteward/v1';
export const SITEWARD_MCP_ROUTE = '/mcp';

/**
 * Checked in the handler, not by the REST layer: an MCP client must get the Bearer challenge, not
 * the REST layer's plain 401. The name says so in the route table.
 */
const SIGNED_IN_BY_HANDLER = permission('signed in: login, application password or bearer token (checked by the handler)', () => true);

/** GET: no server-sent event stream here (JSON-RPC error, as the SDK answers an unsupported method). */
function noStream(): RestResponse {
  return new RestResponse({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }, 405, {
    Allow: 'POST, DELETE',
  });
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * DNS rebinding and cross-site calls (the MCP transport's security warning: servers must check
 * `Origin`): a request that names an origin other than the site's own or a loopback one (a
 * client on the user's machine, such as the MCP Inspector) gets 403 before anything else. A
 * request without `Origin` (every non-browser client) passes; its credentials are checked next.
 */
function foreignOrigin(request: RestRequest, siteOrigin: string): RestResponse | null {
  const origin = request.headers.origin;
  if (origin === undefined || origin === siteOrigin) return null;
  try {
    if (LOOPBACK_HOSTS.has(new URL(origin).hostname)) return null;
  } catch {
    // not a URL: refused below
  }
  return new RestResponse({ jsonrpc: '2.0', error: { code: -32000, message: `Invalid Origin header: ${origin}` }, id: null }, 403);
}

/** The abilities the JSON-RPC message(s) would run, with their input: a tools/call names one (directly, or through the adapter's execute tool). */
function abilitiesCalled(body: unknown, registry: AbilityRegistry, adapter: boolean): AbilityCall[] {
  const messages = Array.isArray(body) ? body : [body];
  const calls: AbilityCall[] = [];
  for (const message of messages) {
    if (message === null || typeof message !== 'object') continue;
    const { method, params } = message as {
      method?: unknown;
      params?: { name?: unknown; arguments?: { ability_name?: unknown; parameters?: unknown } };
    };
    if (method !== 'tools/call' || !params) continue;
    if (adapter) {
      const name = params.arguments?.ability_name;
      const ability = params.name === 'mcp-adapter-execute-ability' && typeof name === 'string' ? registry.get(name) : undefined;
      if (ability) calls.push({ ability, input: params.arguments?.parameters ?? null });
    } else {
      const ability = publicAbilities(registry).find((a) => toolName(a) === params.name);
      if (ability) calls.push({ ability, input: params.arguments ?? null });
    }
  }
  return calls;
}

export function registerMcpRoutes(api: SitewardApi, registry: AbilityRegistry, auth: AgentAuth | null, bearer: BearerCheck): void {
  const servers = [
    [ADAPTER_NAMESPACE, ADAPTER_ROUTE, 'mcp-adapter-default-server', true],
    [SITEWARD_MCP_NAMESPACE, SITEWARD_MCP_ROUTE, 'siteward', false],
  ] as const;
  for (const [namespace, route, name, adapter] of servers) {
    let configured: Configure | undefined;
    const serve = async (request: RestRequest, caller: AbilityCaller): Promise<RestResponse> => {
      const mcp = await loadMcpServers();
      configured ??= adapter ? mcp.adapterServer(registry) : mcp.sitewardServer(registry);
      return mcp.serveMcp(request, caller, name, configured);
    };
    const resource = api.restUrl(`/${namespace}${route}`);

    /** Who calls: the REST layer's user, or the bearer token's; or the answer that refuses. */
    const siteOrigin = new URL(resource).origin;
    const callerOf = async (request: RestRequest): Promise<AbilityCaller | RestResponse> => {
      const foreign = foreignOrigin(request, siteOrigin);
      if (foreign) return foreign;
      if (bearerToken(request) !== null) return bearer(request, resource, abilitiesCalled(request.json, registry, adapter), 'mcp');
      if (request.user.id !== 0) return { user: request.user, credential: request.credential ?? null, via: 'mcp' };
      if (!auth) return refusal(401, 'rest_not_logged_in', 'You are not currently logged in.');
      return refusal(
        401,
        'rest_not_logged_in',
        'You are not currently logged in.',
        bearerChallenge(auth.metadataUrl(resource), READ_SCOPE),
      );
    };

    api.registerRoute(namespace, route, [
      defineRoute({
        methods: 'POST, DELETE',
        // The JSON-RPC message: the SDK checks it.
        body: Type.Object({}),
        permission: SIGNED_IN_BY_HANDLER,
        handler: async ({ request }) => {
          const caller = await callerOf(request);
          return caller instanceof RestResponse ? caller : serve(request, caller);
        },
      }),
      defineRoute({
        permission: SIGNED_IN_BY_HANDLER,
        handler: async ({ request }) => {
          const caller = await callerOf(request);
          return caller instanceof RestResponse ? caller : noStream();
        },
      }),
    ]);
  }
}

/** The RFC 9728 metadata documents' paths and bodies, for the feature's pages: both MCP servers and `wp-abilities/v1`. */
export function metadataPages(api: SitewardApi, auth: AgentAuth): { path: string; body: Record<string, unknown> }[] {
  return [
    [ADAPTER_NAMESPACE, ADAPTER_ROUTE],
    [SITEWARD_MCP_NAMESPACE, SITEWARD_MCP_ROUTE],
    [ABILITIES_NAMESPACE, ''],
  ].map(([namespace, route]) => {
    const resource = api.restUrl(`/${namespace}${route}`);
    return { path: new URL(auth.metadataUrl(resource)).pathname, body: auth.metadata(resource) };
  });
}
