import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { formOf, loginAndConsent, TestBrowser } from '../../accounts/testing/browser.js';
import { ANN, browserLogin, makeSite, REDIRECT, startProvider, type Site } from './testing/connection-kit.js';
import { TokenSealer } from '../../auth/token-sealer.js';

describe('connecting a site to the account service', () => {
  let provider: AccountsService;
  let site: Site;
  beforeAll(async () => {
    provider = await startProvider();
    site = makeSite({ issuer: provider.issuer, registrationToken: provider.initialAccessToken });
  });
  afterAll(() => provider.close());

  /** The stored secret of a record field, opened the way the connection does. */
  function opened(key: string, field: string): string {
    const raw = site.vault.entries.get(key);
    if (raw === undefined) throw new Error(`no ${key}`);
    const value = (JSON.parse(raw) as Record<string, unknown>)[field];
    return new TokenSealer(site.master).open(value, `${key}#${field}`);
  }

  it('registers once with the initial access token and keeps the client secret encrypted', async () => {
    const first = await site.connection.ensureRegistered();
    expect(first).toMatchObject({ ok: true, registered: true });
    const again = await site.connection.ensureRegistered();
    expect(again).toMatchObject({ ok: true, registered: false });
    const secret = opened('connection:registration', 'clientSecret');
    expect(secret.length).toBeGreaterThan(20);
    const raw = site.vault.entries.get('connection:registration') ?? '';
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(opened('connection:registration', 'registrationAccessToken'));
  });

  it('builds an authorization URL with PKCE S256, state, nonce, prompt=consent and no resource', async () => {
    const start = await site.connection.startAuthorization({ sessionKey: 'session-1', userId: 7 });
    if (!start.ok) throw new Error(start.error.message);
    const url = new URL(start.url);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile email offline_access');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.has('resource')).toBe(false);
    // The state is stored only as a hash.
    expect([...site.vault.entries.values()].join()).not.toContain(url.searchParams.get('state'));
  });

  it('links a user: wrong password first (401), then login, consent, callback, tokens stored encrypted, userinfo, refresh, revoke', async () => {
    const browser = new TestBrowser();
    const start = await site.connection.startAuthorization({ sessionKey: 'session-2', userId: 1 });
    if (!start.ok) throw new Error(start.error.message);
    const page = await browser.follow(await browser.get(start.url), start.url, REDIRECT);
    const form = formOf(await page.response.text(), '/login');
    const wrong = await browser.post(new URL(form.action, page.url).href, { csrf: form.csrf, login: 'ann', password: 'nope nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Unknown login or incorrect password');

    const callbackUrl = await loginAndConsent(browser, start.url, ANN, REDIRECT);
    const done = await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'session-2', userId: 1 });
    if (!done.ok) throw new Error(done.error.message);
    expect(done.user).toMatchObject({ login: 'ann', email: 'ann@example.com', display_name: 'Ann Example' });
    expect(done.user.ID).toMatch(/^\d+$/);
    expect(done.user.avatar).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);

    const key = 'connection:user:1';
    const raw = site.vault.entries.get(key) ?? '';
    const accessToken = opened(key, 'accessToken');
    const refreshToken = opened(key, 'refreshToken');
    const idToken = opened(key, 'idToken');
    for (const secret of [accessToken, refreshToken, idToken, idToken.split('.')[1] ?? 'x']) expect(raw).not.toContain(secret);
    expect(await site.connection.linkedUsers()).toEqual(['1']);

    // Fresh cache: no network call. A day later: refresh grant, then userinfo.
    expect(await site.connection.getUser(1)).toMatchObject({ ok: true, refreshed: false, user: { login: 'ann' } });
    site.clock.advance(25 * 60 * 60_000);
    expect(await site.connection.getUser(1)).toMatchObject({ ok: true, refreshed: true, user: { login: 'ann' } });
    expect(opened(key, 'accessToken')).not.toBe(accessToken);

    // Introspection (as the site's client) before and after disconnecting.
    const clientId = (JSON.parse(site.vault.entries.get('connection:registration') ?? '{}') as { clientId: string }).clientId;
    const client = await oidc.discovery(new URL(provider.issuer), clientId, opened('connection:registration', 'clientSecret'), undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const liveRefresh = opened(key, 'refreshToken');
    expect((await oidc.tokenIntrospection(client, liveRefresh)).active).toBe(true);
    expect(await site.connection.revokeAll()).toEqual({ ok: true, revoked: 1, notRevoked: 0 });
    expect((await oidc.tokenIntrospection(client, liveRefresh)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(client, liveRefresh)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(site.vault.entries.size).toBe(0);
  });

  it('reads a tampered token as a storage error, never as a token', async () => {
    const other = makeSite({ issuer: provider.issuer, registrationToken: provider.initialAccessToken });
    expect((await other.connection.ensureRegistered()).ok).toBe(true);
    const callbackUrl = await browserLogin(other, 's', 3);
    expect((await other.connection.completeAuthorization({ callbackUrl, sessionKey: 's', userId: 3 })).ok).toBe(true);
    const key = 'connection:user:3';
    const record = JSON.parse(other.vault.entries.get(key) ?? '{}') as Record<string, string>;
    const sealed = record.refreshToken ?? '';
    record.refreshToken = `${sealed.slice(0, -6)}${sealed.slice(-6, -5) === 'A' ? 'B' : 'A'}${sealed.slice(-5)}`;
    other.vault.entries.set(key, JSON.stringify(record));
    const result = await other.connection.getUser(3, { maxAgeMs: 0 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'storage_invalid' } });
    if (!result.ok) expect(result.error.message).not.toContain(sealed);
    // A value moved to another user's record does not open either.
    other.vault.entries.set('connection:user:4', other.vault.entries.get(key) ?? '');
    expect(await other.connection.getUser(4, { maxAgeMs: 0 })).toMatchObject({ ok: false, error: { kind: 'storage_invalid' } });
  });
});
