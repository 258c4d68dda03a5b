import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let app: TestApp;
let base: string;
let admin: string;
let author: string;
const opened: Client[] = [];

beforeAll(async () => {
  app = await createTestApp({ startJobs: false });
  base = `http://127.0.0.1:${(app.app.http.server.address() as { port: number }).port}`;
  await app.app.users.create({ login: 'boss', email: 'boss@example.org', role: 'administrator', password: 'boss-password-1' });
  await app.app.users.create({ login: 'writer', email: 'writer@example.org', role: 'author', password: 'writer-password-1' });
  const basic = async (login: string) => {
    const created = await app.app.authenticator.appPasswords.create(login, 'agent');
    if (!created.ok) throw new Error(created.message);
    return `Basic ${Buffer.from(`${login}:${created.password}`).toString('base64')}`;
  };
  admin = await basic('boss');
  author = await basic('writer');
});
afterAll(async () => {
  for (const client of opened) await client.close();
  await app.close();
});

/** The SDK's own client over Streamable HTTP, signed in with an application password (HTTP Basic). */
async function connect(path: string, authorization?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
    requestInit: authorization ? { headers: { Authorization: authorization } } : {},
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return client;
}

const parsed = (result: unknown) => JSON.parse(((result as CallToolResult).content[0] as { text: string }).text) as unknown;

describe('Siteward’s MCP server (POST /wp-json/siteward/v1/mcp)', () => {
  it('lists each public ability as a tool, `/` as `-`, with its annotations as hints', async () => {
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    expect(client.getServerVersion()?.name).toBe('siteward');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('siteward-list-modules')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('siteward-deactivate-module')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('siteward-deactivate-module')?.description).toContain('confirm with the administrator first');
    expect(byName.get('siteward-activate-module')?.inputSchema).toMatchObject({ type: 'object', required: ['slug'] });
    // Not public for MCP (WordPress's default for core abilities).
    expect(byName.has('core-get-site-info')).toBe(false);
  });

  it('runs a readonly tool and a destructive one through the same operations as the REST routes', async () => {
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    const modules = parsed(await client.callTool({ name: 'siteward-list-modules', arguments: {} })) as {
      module: string;
      activated: boolean;
    }[];
    expect(modules.find((m) => m.module === 'protect')?.activated).toBe(true);
    const off = await client.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'protect' } });
    expect(off.isError).toBeFalsy();
    expect(off.structuredContent).toMatchObject({ code: 'success' });
    const list = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: { Authorization: admin } });
    expect((list.json as Record<string, { activated: boolean }>).protect!.activated).toBe(false);
    await client.callTool({ name: 'siteward-activate-module', arguments: { slug: 'protect' } });
  });

  it('answers a refused or invalid call as a tool error, not a protocol error', async () => {
    const writer = await connect('/wp-json/siteward/v1/mcp', author);
    const refused = await writer.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'protect' } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toBe(
      'ability_invalid_permissions: Ability "siteward/deactivate-module" does not have necessary permission.',
    );
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    const invalid = await client.callTool({ name: 'siteward-activate-module', arguments: {} });
    expect((invalid.content as { text: string }[])[0]!.text).toBe(
      'ability_invalid_input: Ability "siteward/activate-module" has invalid input. Reason: slug is a required property of input.',
    );
  });

  it('serves the site summary as a resource', async () => {
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['siteward://site/summary', 'siteward://audit/recent']);
    const read = await client.readResource({ uri: 'siteward://site/summary' });
    const summary = JSON.parse((read.contents[0] as { text: string }).text) as { site: { name: string }; active_modules: string[] };
    expect(summary.site.name).toBe('My Site');
    expect(summary.active_modules).toContain('protect');
  });

  it('serves the recent audit events as a resource to administrators, and the refusal to others', async () => {
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    await client.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'stats' } });
    const read = await client.readResource({ uri: 'siteward://audit/recent' });
    const recent = JSON.parse((read.contents[0] as { text: string }).text) as {
      events: { action: string; object: { id: string } | null }[];
      total: number;
    };
    expect(recent.total).toBeGreaterThan(0);
    expect(recent.events[0]).toMatchObject({ action: 'ability.run', object: { id: 'siteward/deactivate-module' } });
    const other = await connect('/wp-json/siteward/v1/mcp', author);
    const refused = await other.readResource({ uri: 'siteward://audit/recent' });
    expect(JSON.parse((refused.contents[0] as { text: string }).text)).toEqual({ error: 'ability_invalid_permissions' });
  });

  it('refuses a request from another site’s origin (DNS rebinding) with 403, and accepts the site’s own and loopback origins', async () => {
    const initialize = (origin: string) =>
      app.request({
        method: 'POST',
        path: '/wp-json/siteward/v1/mcp',
        headers: { Authorization: admin, Origin: origin, Accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
    const evil = await initialize('http://evil.example.com');
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({ error: { message: 'Invalid Origin header: http://evil.example.com' } });
    expect((await initialize('http://example.org')).status).toBe(200);
    expect((await initialize('http://localhost:6274')).status).toBe(200);
  });

  it('keeps no session: a client that initialized elsewhere goes on, and GET has no stream (405)', async () => {
    const client = await connect('/wp-json/siteward/v1/mcp', admin);
    // Every request stands alone (several workers and hosts): no Mcp-Session-Id was issued.
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    const get = await app.request({ path: '/wp-json/siteward/v1/mcp', headers: { Authorization: admin, Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    // Ending a session that was never kept: nothing to end, answered at once.
    const end = await app.request({ method: 'DELETE', path: '/wp-json/siteward/v1/mcp', headers: { Authorization: admin } });
    expect(end.status).toBe(200);
  });

  it('speaks protocol versions 2025-06-18 and 2025-11-25 (what the SDK supports)', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await app.request({
        method: 'POST',
        path: '/wp-json/siteward/v1/mcp',
        headers: { Authorization: admin, Accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: version, serverInfo: { name: 'siteward' } } });
    }
  });

  it('refuses a client that is not signed in (401), before MCP is spoken', async () => {
    await expect(connect('/wp-json/siteward/v1/mcp')).rejects.toThrow(/401/);
  });
});

describe('the WordPress adapter’s default server (POST /wp-json/mcp/mcp-adapter-default-server)', () => {
  it('has its three tools, and discovers, describes and executes abilities with {ability_name, parameters}', async () => {
    const client = await connect('/wp-json/mcp/mcp-adapter-default-server', admin);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'mcp-adapter-discover-abilities',
      'mcp-adapter-get-ability-info',
      'mcp-adapter-execute-ability',
    ]);
    expect((await client.listResources()).resources).toEqual([]);
    const discovered = parsed(await client.callTool({ name: 'mcp-adapter-discover-abilities', arguments: {} })) as {
      abilities: { name: string }[];
    };
    expect(discovered.abilities.map((a) => a.name)).toContain('siteward/list-blocks');
    const info = parsed(await client.callTool({ name: 'mcp-adapter-get-ability-info', arguments: { ability_name: 'siteward/get-user' } }));
    expect(info).toMatchObject({ name: 'siteward/get-user', input_schema: { required: ['id'] } });
    const run = await client.callTool({
      name: 'mcp-adapter-execute-ability',
      arguments: { ability_name: 'siteward/get-user', parameters: { id: 1 } },
    });
    expect(parsed(run)).toMatchObject({ success: true, data: { id: 1, username: 'boss' } });
    const missing = await client.callTool({
      name: 'mcp-adapter-execute-ability',
      arguments: { ability_name: 'nope/nope', parameters: {} },
    });
    expect(missing.isError).toBe(true);
    expect(parsed(missing)).toEqual({ success: false, error: "Ability 'nope/nope' not found" });
  });
});
