import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsService, type AccountsService } from './accounts-service.js';
import { formOf, loginAndConsent, TestBrowser } from './testing/browser.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(service: AccountsService): Promise<oidc.Configuration> {
  return oidc.dynamicClientRegistration(
    new URL(service.issuer),
    { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'client_secret_basic' },
    oidc.ClientSecretBasic(),
    { execute: [oidc.allowInsecureRequests], initialAccessToken: service.initialAccessToken },
  );
}

async function authorizationUrl(client: oidc.Configuration, verifier: string): Promise<string> {
  return oidc.buildAuthorizationUrl(client, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email offline_access',
    prompt: 'consent',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'st',
    nonce: 'nc',
  }).href;
}

describe('the account service', () => {
  let dir: string;
  let service: AccountsService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'siteward-accounts-'));
    service = await createAccountsService({ dataFile: join(dir, 'accounts.sqlite') });
    const added = await service.addUser({ login: 'ann', email: 'ann@example.com', name: 'Ann <A>', password: 'correct horse' });
    expect(added.ok).toBe(true);
  });
  afterAll(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and keeps its data file private (0600)', async () => {
    expect(service.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await stat(join(dir, 'accounts.sqlite'))).mode & 0o777).toBe(0o600);
    const discovery = (await (await fetch(`${service.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(service.issuer);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.revocation_endpoint).toBeTypeOf('string');
    expect(discovery.introspection_endpoint).toBeTypeOf('string');
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'offline_access', 'profile', 'email']));
  });

  it('registers a public PKCE client without the initial access token (open to agents), with https or loopback http redirect URIs', async () => {
    const res = await fetch(`${service.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['http://127.0.0.1:33418/callback', 'http://localhost/cb', 'https://agent.example/oauth/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        client_name: 'An agent',
      }),
    });
    expect(res.status).toBe(201);
    const client = (await res.json()) as Record<string, unknown>;
    expect(client).toMatchObject({ token_endpoint_auth_method: 'none', client_name: 'An agent' });
    expect(client.client_secret).toBeUndefined();
  });

  it('refuses an open registration of a confidential client, a non-loopback http or custom-scheme redirect, or a URL to fetch (400); a wrong token is 401', async () => {
    const attempt = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fetch(`${service.issuer}/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...body }),
      });
    const confidential = await attempt({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.status).toBe(400);
    expect(await confidential.json()).toMatchObject({ error: 'invalid_client_metadata' });
    for (const uri of ['http://agent.example/cb', 'cursor://callback', 'https://agent.example/cb#frag']) {
      const refused = await attempt({ redirect_uris: [uri] });
      expect(refused.status, uri).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
    expect((await attempt({ jwks_uri: 'http://10.0.0.1/keys' })).status).toBe(400);
    expect((await attempt({ grant_types: ['client_credentials'] })).status).toBe(400);
    expect((await attempt({}, { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('refuses an authorization request without PKCE', async () => {
    const client = await register(service);
    const url = new URL(await authorizationUrl(client, oidc.randomPKCECodeVerifier()));
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const response = await fetch(url, { redirect: 'manual' });
    expect(new URL(response.headers.get('location') ?? '', url).searchParams.get('error')).toBe('invalid_request');
  });

  it('answers a wrong password with 401 and an escaped page, then logs in, consents and issues a refresh token', async () => {
    const client = await register(service);
    const verifier = oidc.randomPKCECodeVerifier();
    const start = await authorizationUrl(client, verifier);
    const browser = new TestBrowser();
    const page = await browser.follow(await browser.get(start), start, REDIRECT);
    const html = await page.response.text();
    expect(page.response.status).toBe(200);
    const form = formOf(html, '/login');
    const target = new URL(form.action, page.url).href;

    const wrong = await browser.post(target, { csrf: form.csrf, login: 'ann', password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Unknown login or incorrect password');
    const forged = await browser.post(target, { csrf: 'forged', login: 'ann', password: 'correct horse' });
    expect(forged.status).toBe(403);
    const crossSite = await browser.post(
      target,
      { csrf: form.csrf, login: 'ann', password: 'correct horse' },
      { origin: 'http://evil.example' },
    );
    expect(crossSite.status).toBe(403);

    const callback = await loginAndConsent(browser, start, { login: 'ann', password: 'correct horse' }, REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(client, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: 'st',
      expectedNonce: 'nc',
      idTokenExpected: true,
    });
    expect(tokens.refresh_token).toBeTypeOf('string');
    const sub = tokens.claims()?.sub ?? '';
    const info = await oidc.fetchUserInfo(client, tokens.access_token, sub);
    expect(info).toMatchObject({ preferred_username: 'ann', name: 'Ann <A>', email: 'ann@example.com', email_verified: false });
    expect(info.picture).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}$/);
  });

  it('answers the abort route with access_denied', async () => {
    const client = await register(service);
    const start = await authorizationUrl(client, oidc.randomPKCECodeVerifier());
    const browser = new TestBrowser();
    const page = await browser.follow(await browser.get(start), start, REDIRECT);
    const form = formOf(await page.response.text(), '/abort');
    const target = new URL(form.action, page.url).href;
    const done = await browser.follow(await browser.post(target, { csrf: form.csrf }), target, REDIRECT);
    expect(new URL(done.url).searchParams.get('error')).toBe('access_denied');
  });

  it('imports users from a JSON file and skips existing logins', async () => {
    const file = join(dir, 'users.json');
    await writeFile(
      file,
      JSON.stringify([
        { login: 'ann', email: 'ann@example.com', name: 'Ann', password: 'correct horse' },
        { login: 'bob', email: 'bob@example.com', name: 'Bob', password: 'battery staple' },
      ]),
    );
    expect(await service.importUsers(file)).toEqual({ added: 1, skipped: 1 });
    expect(service.listUsers().map((u) => u.login)).toEqual(['ann', 'bob']);
  });

  it('checks no more than five of twenty simultaneous wrong passwords for one login', async () => {
    expect((await service.addUser({ login: 'bea', email: 'bea@example.com', name: 'Bea', password: 'correct horse' })).ok).toBe(true);
    const client = await register(service);
    const start = await authorizationUrl(client, oidc.randomPKCECodeVerifier());
    const browser = new TestBrowser();
    const page = await browser.follow(await browser.get(start), start, REDIRECT);
    const form = formOf(await page.response.text(), '/login');
    const target = new URL(form.action, page.url).href;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => browser.post(target, { csrf: form.csrf, login: 'bea', password: 'wrong password' })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('refuses a non-loopback address to listen on', async () => {
    await expect(createAccountsService({ dataFile: join(dir, 'x.sqlite'), host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });
});

describe('open registration limits', () => {
  it('answers 429 with Retry-After after 20 registrations from one address in ten minutes, while the initial access token still registers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'siteward-accounts-'));
    const service = await createAccountsService({ dataFile: join(dir, 'accounts.sqlite') });
    try {
      const attempt = (headers: Record<string, string> = {}) =>
        fetch(`${service.issuer}/reg`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
        });
      for (let i = 0; i < 20; i += 1) expect((await attempt()).status).toBe(201);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: 'invalid_request' });
      expect((await attempt({ authorization: `Bearer ${service.initialAccessToken}` })).status).toBe(201);
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
