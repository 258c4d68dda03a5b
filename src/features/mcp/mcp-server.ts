/**
 * The MCP servers (issue 42 item 3, docs/spec/abilities-mcp.md B, E), built on the official SDK's
 * low-level `Server` and its web-standard Streamable HTTP transport, served as REST routes so
 * that the REST layer authenticates (application passwords today) before MCP is spoken:
 * - `mcp/mcp-adapter-default-server`: the WordPress MCP adapter's default server and its three
 *   tools (discover, get info, execute `{ability_name, parameters}`), so clients written for
 *   WordPress work unchanged;
 * - `siteward/v1/mcp`: one tool per public ability (`meta.mcp.public`), `/` as `-`, its
 *   annotations as readOnlyHint/destructiveHint/idempotentHint, so that a client's approval
 *   prompt can tell a read from a destructive change; the site summary and the recent audit
 *   events as resources.
 * Stateless: each HTTP request gets its own server and transport (no `Mcp-Session-Id`), so any
 * worker on any host answers any request. Every call runs the ability through the registry, as
 * `wp-abilities/v1` does (same checks, same observers).
 *
 * This module and the SDK load at the first MCP request (mcp-routes.ts imports it dynamically):
 * a worker that never serves MCP never loads the SDK, zod or Ajv (issue 44 item 4).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { SITEWARD_VERSION } from '../../core/version.js';
import type { AbilityCaller } from '../../plugins/ability-types.js';
import { RestResponse, type RestRequest } from '../../rest/types.js';
import type { Ability, AbilityRegistry, RunOutcome } from '../abilities/index.js';
import { publicAbilities, toolName } from './mcp-tools.js';

/** What one MCP server offers, for one caller. */
type Configure = (server: Server, caller: AbilityCaller) => void;

/** Text of frozen results (an ability's cached answer, e.g. siteward/list-modules'): encoded once. */
const resultTexts = new WeakMap<object, string>();

function resultText(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = resultTexts.get(value);
  if (text === undefined) resultTexts.set(value, (text = JSON.stringify(value)));
  return text;
}

function jsonResult(value: unknown, isError = false): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: resultText(value) }] };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) result.structuredContent = value as Record<string, unknown>;
  if (isError) result.isError = true;
  return result;
}

function outcomeText(outcome: RunOutcome & { ok: false }): string {
  return `${outcome.error.code}: ${outcome.error.message}`;
}

/** An MCP tool's input schema: the ability's when it takes an object, otherwise an empty object. */
function toolInputSchema(ability: Ability): Tool['inputSchema'] {
  const schema = ability.inputSchema;
  if (schema && schema.type === 'object') return schema as Tool['inputSchema'];
  return { type: 'object', properties: {} };
}

function abilityInfo(ability: Ability) {
  return {
    name: ability.name,
    label: ability.label,
    description: ability.description,
    input_schema: ability.inputSchema ?? [],
    output_schema: ability.outputSchema ?? [],
    meta: ability.meta,
  };
}

/** The WordPress MCP adapter's default server: three tools over every public ability. */
export function adapterServer(registry: AbilityRegistry): Configure {
  const find = (name: unknown) => {
    const ability = typeof name === 'string' ? registry.get(name) : undefined;
    return ability && ability.meta.mcp?.public === true ? ability : undefined;
  };
  const notFound = (name: unknown) => jsonResult({ success: false, error: `Ability '${String(name)}' not found` }, true);
  const tools: Tool[] = [
    {
      name: 'mcp-adapter-discover-abilities',
      description:
        'Discover all available WordPress abilities in the system. Returns a list of all registered abilities with their basic information.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { title: 'Discover Abilities', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'mcp-adapter-get-ability-info',
      description:
        'Get detailed information about a specific WordPress ability including its input/output schema, description, and usage examples.',
      inputSchema: {
        type: 'object',
        properties: { ability_name: { type: 'string', description: 'The full name of the ability to get information about' } },
        required: ['ability_name'],
        additionalProperties: false,
      },
      annotations: { title: 'Get Ability Info', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'mcp-adapter-execute-ability',
      description:
        'Execute a WordPress ability with the provided parameters. This is the primary execution layer that can run any registered ability.',
      inputSchema: {
        type: 'object',
        properties: {
          ability_name: { type: 'string', description: 'The full name of the ability to execute' },
          parameters: { type: 'object', description: 'Parameters to pass to the ability' },
        },
        required: ['ability_name', 'parameters'],
        additionalProperties: false,
      },
      annotations: { title: 'Execute Ability', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
  return (server, caller) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    // The capability is shared with Siteward's server (serveMcp); this one offers no resources.
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    // The MCP SDK's JSON-RPC params (not the REST layer's request parameters).
    server.setRequestHandler(CallToolRequestSchema, async ({ params: call }): Promise<CallToolResult> => {
      const args = call.arguments ?? {};
      switch (call.name) {
        case 'mcp-adapter-discover-abilities':
          return jsonResult({
            abilities: publicAbilities(registry).map((a) => ({ name: a.name, label: a.label, description: a.description })),
          });
        case 'mcp-adapter-get-ability-info': {
          const ability = find(args.ability_name);
          return ability ? jsonResult(abilityInfo(ability)) : notFound(args.ability_name);
        }
        case 'mcp-adapter-execute-ability': {
          const ability = find(args.ability_name);
          if (!ability) return notFound(args.ability_name);
          const parameters = ability.inputSchema === null && isEmpty(args.parameters) ? null : (args.parameters ?? null);
          const outcome = await registry.run(ability, parameters, caller);
          return outcome.ok
            ? jsonResult({ success: true, data: outcome.value })
            : jsonResult({ success: false, error: outcome.error.message }, true);
        }
        default:
          return jsonResult({ success: false, error: `Unknown tool: ${call.name}` }, true);
      }
    });
  };
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);
}

const SUMMARY_URI = 'siteward://site/summary';
const AUDIT_URI = 'siteward://audit/recent';
/** How many events the recent-events resource holds (the ability's first page). */
const RECENT_EVENTS = 50;

/** Siteward's own server: one tool per public ability, with its hints; the site summary as a resource. */
export function sitewardServer(registry: AbilityRegistry): Configure {
  return (server, caller) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: publicAbilities(registry).map((ability): Tool => {
        const { readonly, destructive, idempotent, instructions } = ability.meta.annotations;
        return {
          name: toolName(ability),
          title: ability.label,
          description: instructions ? `${ability.description}\n\n${instructions}` : ability.description,
          inputSchema: toolInputSchema(ability),
          annotations: {
            title: ability.label,
            readOnlyHint: readonly === true,
            destructiveHint: destructive === true,
            idempotentHint: idempotent === true,
            openWorldHint: false,
          },
        };
      }),
    }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params: call }): Promise<CallToolResult> => {
      const ability = publicAbilities(registry).find((a) => toolName(a) === call.name);
      if (!ability) return jsonResult({ code: 'rest_ability_not_found', message: `Unknown tool: ${call.name}` }, true);
      const args = call.arguments;
      const input = ability.inputSchema === null && isEmpty(args) ? null : (args ?? null);
      const outcome = await registry.run(ability, input, caller);
      if (outcome.ok) return jsonResult(outcome.value);
      return { content: [{ type: 'text', text: outcomeText(outcome) }], isError: true };
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [
        {
          uri: SUMMARY_URI,
          name: 'site-summary',
          title: 'Site summary',
          description: 'The site’s name, address and language, and which modules are on.',
          mimeType: 'application/json',
        },
        {
          uri: AUDIT_URI,
          name: 'recent-audit-events',
          title: 'Recent audit events',
          description: `The ${RECENT_EVENTS} newest events of the audit log (administrators; siteward/list-audit-events filters and pages).`,
          mimeType: 'application/json',
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async ({ params: read }) => {
      const uri = read.uri;
      let body: unknown;
      if (uri === SUMMARY_URI) body = await siteSummary(registry, caller);
      else if (uri === AUDIT_URI) body = await runPart(registry, caller, 'siteward/list-audit-events', { per_page: RECENT_EVENTS });
      else throw new Error(`Unknown resource: ${uri}`);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    });
  };
}

/** What an ability answers the caller (its permission applies), or `{error}` with the refusal's code. */
async function runPart(registry: AbilityRegistry, caller: AbilityCaller, name: string, input: unknown): Promise<unknown> {
  const ability = registry.get(name);
  if (!ability) return null;
  const outcome = await registry.run(ability, input, caller);
  return outcome.ok ? outcome.value : { error: outcome.error.code };
}

/** Each part the caller may read, by the abilities that give it (their permissions apply). */
async function siteSummary(registry: AbilityRegistry, caller: AbilityCaller): Promise<Record<string, unknown>> {
  const part = (name: string, input: unknown) => runPart(registry, caller, name, input);
  const modules = await part('siteward/list-modules', null);
  return {
    site: await part('core/get-site-info', { fields: ['name', 'description', 'url', 'language', 'version'] }),
    active_modules: Array.isArray(modules)
      ? (modules as { module: string; activated: boolean }[]).filter((m) => m.activated).map((m) => m.module)
      : modules,
  };
}

let validator: AjvJsonSchemaValidator | undefined;

/**
 * Serves one HTTP request of the Streamable HTTP transport, stateless: a server and a transport
 * for this request alone, JSON answers (no SSE stream), then both closed.
 */
export async function serveMcp(request: RestRequest, caller: AbilityCaller, name: string, configure: Configure): Promise<RestResponse> {
  // Speed: one validator per process. The SDK's default builds an Ajv instance (its meta-schemas
  // compiled) per Server, which was about 40 % of a call; it holds no per-connection state.
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name, version: SITEWARD_VERSION },
    { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator: validator },
  );
  configure(server, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) headers.set(key, value);
    const hasBody = request.method === 'POST';
    // The REST layer has parsed a JSON body already; anything else the SDK reads and refuses itself.
    const parsed = hasBody && request.json !== undefined;
    const webRequest = new Request(`http://siteward.invalid${request.route}`, {
      method: request.method,
      headers,
      // Speed: the SDK reads no body it is given parsed; a stream over it cost about 4 % of a call.
      body: hasBody && !parsed ? request.body : undefined,
    });
    const response = await transport.handleRequest(webRequest, parsed ? { parsedBody: request.json } : {});
    const text = await response.text();
    const out = new RestResponse(text === '' ? null : safeParse(text), response.status);
    for (const header of ['mcp-session-id', 'allow', 'www-authenticate']) {
      const value = response.headers.get(header);
      if (value !== null)
        out.header(header === 'mcp-session-id' ? 'Mcp-Session-Id' : header === 'allow' ? 'Allow' : 'WWW-Authenticate', value);
    }
    return out;
  } finally {
    await transport.close();
    await server.close();
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
