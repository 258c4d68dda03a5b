import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { TestBrowser, loginAndConsent } from '../../accounts/testing/browser.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ANN, accountServiceEnv, startProvider } from '../connection/testing/connection-kit.js';
import { link } from '../connection/testing/connection-http-kit.js';

const AGENT_REDIRECT = 'http://127.0.0.1:9/agent/callback';
const MCP = 'http://example.org/wp-json/siteward/v1/mcp';
const ADAPTER = 'http://example.org/wp-json/mcp/mcp-adapter-default-server';

let provider: AccountsService;
let site: TestApp;
let base: string;
let agent: oidc.Configuration;
let adminAuth: Record<string, string>;
const opened: Client[] = [];
const ABILITIES = 'http://example.org/wp-json/wp-abilities/v1';

/** An agent registering itself at the account service: a public client, no token (open registration). */
function registerAgent(name: string): Promise<oidc.Configuration> {
  return oidc.dynamicClientRegistration(
    new URL(provider.issuer),
    { redirect_uris: [AGENT_REDIRECT], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', client_name: name },
    oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

beforeAll(async () => {
  provider = await startProvider();
  await provider.addUser(ANN);
  site = await createTestApp({ env: accountServiceEnv(provider), startJobs: false });
  base = `http://127.0.0.1:${(site.app.http.server.address() as { port: number }).port}`;
  // The site's administrator links their account at the account service (the connection flow).
  const admin = await site.loginAs('administrator', { login: 'admin' });
  adminAuth = site.auth(admin);
  expect((await link(site, admin, ANN)).status).toBe(302);
  // An agent registers itself as a public client (PKCE, no secret): open registration, no token.
  agent = await registerAgent('Test agent');
});
afterAll(async () => {
  for (const client of opened) await client.close();
  await site?.close();
  await provider?.close();
});

/** The authorization code flow with PKCE and a resource indicator, as ANN consenting: the access token. */
async function token(scope: string, resource: string, client = agent): Promise<string> {
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: AGENT_REDIRECT,
    scope,
    resource,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'st',
  }).href;
  const callback = await loginAndConsent(new TestBrowser(), url, ANN, AGENT_REDIRECT);
  const tokens = await oidc.authorizationCodeGrant(
    client,
    new URL(callback),
    { pkceCodeVerifier: verifier, expectedState: 'st' },
    { resource },
  );
  return tokens.access_token;
}

async function connect(accessToken: string, path = '/wp-json/siteward/v1/mcp'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
    requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
  const client = new Client({ name: 'oauth-agent', version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return client;
}

describe('MCP with OAuth 2.1 bearer tokens from the connected account service', () => {
  it('publishes RFC 9728 metadata naming the account service and the agent scopes', async () => {
    const res = await site.request({ path: '/.well-known/oauth-protected-resource/wp-json/siteward/v1/mcp' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      resource: MCP,
      authorization_servers: [provider.issuer],
      scopes_supported: ['abilities:read', 'abilities:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Siteward',
    });
  });

  it('answers a client that is not signed in 401 with the Bearer challenge pointing at the metadata', async () => {
    const res = await site.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/mcp',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer resource_metadata="http://example.org/.well-known/oauth-protected-resource/wp-json/siteward/v1/mcp", scope="abilities:read"',
    );
  });

  it('lets a read-scoped token list tools and run a readonly one as the linked user, and refuses a destructive one (403 insufficient_scope)', async () => {
    const client = await connect(await token('openid abilities:read', MCP));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const modules = await client.callTool({ name: 'siteward-list-modules', arguments: {} });
    expect(modules.isError).toBeFalsy();
    await expect(client.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'stats' } })).rejects.toThrow(/403/);
    const refused = await site.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/mcp',
      headers: { Authorization: `Bearer ${await token('openid abilities:read', MCP)}`, Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'siteward-deactivate-module', arguments: { slug: 'stats' } } },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", .*scope="abilities:read abilities:write"/);
  });

  it('runs a destructive tool with the write scope', async () => {
    const client = await connect(await token('openid abilities:read abilities:write', MCP));
    const off = await client.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'protect' } });
    expect(off.isError).toBeFalsy();
    expect(off.structuredContent).toMatchObject({ code: 'success' });
    await client.callTool({ name: 'siteward-activate-module', arguments: { slug: 'protect' } });
  });

  it('refuses a token for another audience, and one that is not a token, with 401 invalid_token', async () => {
    const other = await token('openid abilities:read', ADAPTER);
    for (const bad of [other, 'not-a-jwt']) {
      const res = await site.request({
        method: 'POST',
        path: '/wp-json/siteward/v1/mcp',
        headers: { Authorization: `Bearer ${bad}`, Accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    }
    // The same token works where it belongs.
    const adapter = await connect(other, '/wp-json/mcp/mcp-adapter-default-server');
    expect((await adapter.listTools()).tools).toHaveLength(3);
  });
});

/**
 * The SDK's OAuth client side, driving a browser: `redirectToAuthorization` signs ANN in and
 * consents at the account service. Nothing is pre-registered: the SDK registers the client itself
 * (RFC 7591, open to public clients) and keeps what it got through `saveClientInformation`.
 */
class BrowserOAuth implements OAuthClientProvider {
  callback: string | null = null;
  registered: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  get redirectUrl() {
    return AGENT_REDIRECT;
  }
  get clientMetadata() {
    return {
      redirect_uris: [AGENT_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'SDK agent',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registered;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.registered = information;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.callback = await loginAndConsent(new TestBrowser(), url.href, ANN, AGENT_REDIRECT);
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  // The test's socket is not the site's home URL (http://example.org): the resource is the site's.
  async validateResourceURL(_serverUrl: string | URL, resource?: string) {
    return resource === undefined ? undefined : new URL(resource);
  }
}

describe('the SDK’s own OAuth client provider', () => {
  it('discovers the metadata from the 401, registers itself, authorizes with PKCE at the account service, lists and calls tools, and steps up to the write scope for a destructive one', async () => {
    const oauth = new BrowserOAuth();
    // "DNS" of the test: the site's home URL is served by the test's socket.
    const routed: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin === 'http://example.org') return fetch(`${base}${url.pathname}${url.search}`, init);
      return fetch(input, init);
    };
    const open = () =>
      new StreamableHTTPClientTransport(new URL(`${base}/wp-json/siteward/v1/mcp`), { authProvider: oauth, fetch: routed });
    const first = open();
    await expect(new Client({ name: 'sdk-oauth-agent', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(oauth.registered?.client_id, 'the SDK registered the client at the account service').toBeTruthy();
    const code = new URL(oauth.callback ?? 'http://none/').searchParams.get('code');
    expect(code).toBeTruthy();
    await first.finishAuth(code!);
    expect(oauth.tokens()?.scope).toContain('abilities:read');
    const client = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    await client.connect(open());
    opened.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('siteward-list-modules');
    expect((await client.callTool({ name: 'siteward-list-modules', arguments: {} })).isError).toBeFalsy();

    // A destructive tool: 403 insufficient_scope; the SDK asks for the write scope (step-up), the
    // user consents, and the call goes through with the new token.
    oauth.callback = null;
    const stepUp = open();
    const writer = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    await writer.connect(stepUp);
    opened.push(writer);
    await expect(writer.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'stats' } })).rejects.toThrow(UnauthorizedError);
    const again = new URL(oauth.callback ?? 'http://none/').searchParams.get('code');
    expect(again, 'the SDK went back to the account service for the write scope').toBeTruthy();
    await stepUp.finishAuth(again!);
    expect(oauth.tokens()?.scope).toContain('abilities:write');
    const allowed = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    await allowed.connect(open());
    opened.push(allowed);
    const done = await allowed.callTool({ name: 'siteward-deactivate-module', arguments: { slug: 'stats' } });
    expect(done.isError).toBeFalsy();
  });
});

describe('wp-abilities/v1 with bearer tokens', () => {
  const bearer = (accessToken: string) => ({ Authorization: `Bearer ${accessToken}` });

  it('publishes RFC 9728 metadata for the abilities base URL, the resource its tokens name', async () => {
    const res = await site.request({ path: '/.well-known/oauth-protected-resource/wp-json/wp-abilities/v1' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ resource: ABILITIES, authorization_servers: [provider.issuer] });
  });

  it('lists and runs readonly abilities with abilities:read, refuses a destructive one 403 insufficient_scope (a denied run), then runs it with abilities:write', async () => {
    const reader = bearer(await token('openid abilities:read', ABILITIES));
    const list = await site.request({ path: '/wp-json/wp-abilities/v1/abilities?per_page=100', headers: reader });
    expect(list.status).toBe(200);
    expect((list.json as { name: string }[]).map((a) => a.name)).toContain('siteward/list-modules');
    expect((await site.request({ path: '/wp-json/wp-abilities/v1/categories', headers: reader })).status).toBe(200);
    const modules = await site.request({ path: '/wp-json/wp-abilities/v1/abilities/siteward/list-modules/run', headers: reader });
    expect(modules.status).toBe(200);
    const refused = await site.request({
      method: 'POST',
      path: '/wp-json/wp-abilities/v1/abilities/siteward/activate-module/run',
      headers: reader,
      body: { input: { slug: 'stats' } },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(
      /^Bearer error="insufficient_scope", .*resource_metadata="http:\/\/example.org\/.well-known\/oauth-protected-resource\/wp-json\/wp-abilities\/v1", scope="abilities:read abilities:write"/,
    );
    const denied = await site.request({ path: '/wp-json/siteward/v1/audit?action=ability.run&result=denied', headers: adminAuth });
    expect(denied.json).toContainEqual(
      expect.objectContaining({
        object: expect.objectContaining({ id: 'siteward/activate-module' }),
        actor: expect.objectContaining({ login: 'admin', credential: { type: 'oauth', client_id: agent.clientMetadata().client_id } }),
        changes: expect.objectContaining({ error: { before: null, after: 'insufficient_scope' } }),
      }),
    );
    const writer = bearer(await token('openid abilities:read abilities:write', ABILITIES));
    const ok = await site.request({
      method: 'POST',
      path: '/wp-json/wp-abilities/v1/abilities/siteward/activate-module/run',
      headers: writer,
      body: { input: { slug: 'stats' } },
    });
    expect(ok.status).toBe(200);
    // The run controller's own checks still apply after the token: the method rule.
    const wrongMethod = await site.request({
      method: 'POST',
      path: '/wp-json/wp-abilities/v1/abilities/siteward/list-modules/run',
      headers: writer,
    });
    expect(wrongMethod.status).toBe(405);
  });

  it('refuses a token for the MCP endpoint (another audience) with 401 invalid_token and the challenge', async () => {
    const res = await site.request({
      path: '/wp-json/wp-abilities/v1/abilities',
      headers: bearer(await token('openid abilities:read', MCP)),
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });
});

describe('agent clients (the Connection screen)', () => {
  it('lists each client and user whose token was accepted, most recent first, for administrators only', async () => {
    await connect(await token('openid abilities:read', MCP)).then((client) => client.listTools());
    const res = await site.request({ path: '/wp-json/siteward/v1/agent-clients', headers: adminAuth });
    expect(res.status).toBe(200);
    const rows = res.json as Record<string, unknown>[];
    const row = rows.find((r) => r.client_id === agent.clientMetadata().client_id);
    expect(row).toMatchObject({ client_name: 'Test agent', user_login: 'admin', revoked: false });
    expect(typeof row?.user_id).toBe('number');
    expect(String(row?.first_used)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(String(row?.last_used))).toBeGreaterThanOrEqual(Date.parse(String(row?.first_used)));
    const author = site.auth(await site.loginAs('author', { login: 'writer' }));
    expect((await site.request({ path: '/wp-json/siteward/v1/agent-clients', headers: author })).status).toBe(403);
  });

  it('revokes a client: 200 with the row, then its tokens answer 401 invalid_token on MCP and wp-abilities; an audit event; unknown ids 404', async () => {
    const doomed = await registerAgent('Doomed agent');
    const id = doomed.clientMetadata().client_id;
    const mcpToken = await token('openid abilities:read', MCP, doomed);
    const abilitiesToken = await token('openid abilities:read', ABILITIES, doomed);
    expect(
      (await site.request({ path: '/wp-json/wp-abilities/v1/abilities', headers: { Authorization: `Bearer ${abilitiesToken}` } })).status,
    ).toBe(200);

    const revoked = await site.request({ method: 'DELETE', path: `/wp-json/siteward/v1/agent-clients/${id}`, headers: adminAuth });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({
      deleted: true,
      previous: { client_id: id, client_name: 'Doomed agent', user_login: 'admin', revoked: false },
    });

    const mcp = await site.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/mcp',
      headers: { Authorization: `Bearer ${mcpToken}`, Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="This agent client was revoked/);
    const rest = await site.request({ path: '/wp-json/wp-abilities/v1/abilities', headers: { Authorization: `Bearer ${abilitiesToken}` } });
    expect(rest.status).toBe(401);
    // A token issued after the revocation is refused too.
    const later = await token('openid abilities:read', MCP, doomed);
    await expect(connect(later)).rejects.toThrow();

    const list = (await site.request({ path: '/wp-json/siteward/v1/agent-clients', headers: adminAuth })).json as {
      client_id: string;
      revoked: boolean;
    }[];
    expect(list.find((r) => r.client_id === id)?.revoked).toBe(true);
    expect(list.find((r) => r.client_id === agent.clientMetadata().client_id)?.revoked).toBe(false);
    const events = await site.request({ path: '/wp-json/siteward/v1/audit?action=agent_client.revoked', headers: adminAuth });
    expect(events.json).toEqual([
      expect.objectContaining({
        object: { type: 'agent_client', id, name: 'Doomed agent' },
        actor: expect.objectContaining({ login: 'admin' }),
      }),
    ]);

    const unknown = await site.request({ method: 'DELETE', path: '/wp-json/siteward/v1/agent-clients/no-such-client', headers: adminAuth });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'siteward_agent_client_not_found' });
  });
});
