/**
 * The connection's 4.3+ names and `connection/test` (docs/spec/current-clients.md A.1–A.3, A.7)
 * against the real local account service over HTTP, including one that is down or silent.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { ANN, startProvider, accountServiceEnv } from './testing/connection-kit.js';
import { link } from './testing/connection-http-kit.js';

// Long enough for a login on a busy machine; the silent provider's answer still comes within it.
const BOUND_MS = 2000;

/** The top error and the `additional_errors` codes of a failed test. */
function failedChecks(json: unknown): string[] {
  const body = json as { code: string; additional_errors?: { code: string }[] };
  return [body.code, ...(body.additional_errors ?? []).map((e) => e.code)];
}

describe('connection/test on a site without an account service', () => {
  let site: TestApp;
  beforeAll(async () => {
    site = await createTestApp();
  });
  afterAll(() => site?.close());

  it('fails `configured` with a resolution naming the setting, status 500 as Jetpack', async () => {
    const admin = await site.loginAs('administrator');
    const res = await call(site, 'GET', '/connection/test', { as: admin });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      code: 'failed_configured',
      message: 'No central account service is configured for this site.',
      data: { resolution: expect.stringContaining('SITEWARD_ACCOUNTS_ISSUER') },
    });
  });

  it('needs manage_modules', async () => {
    expect((await call(site, 'GET', '/connection/test')).json).toEqual(permissionBody('invalid_user_permission_manage_modules', 401));
    const editor = await site.loginAs('editor');
    expect((await call(site, 'GET', '/connection/test', { as: editor })).json).toEqual(
      permissionBody('invalid_user_permission_manage_modules', 403),
    );
  });
});

describe('the 4.3+ connection routes with the real account service', () => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  let silent: Server | undefined;
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider, { SITEWARD_ACCOUNTS_TIMEOUT_MS: String(BOUND_MS) }),
    });
    admin = await site.loginAs('administrator');
  });
  afterAll(async () => {
    silent?.closeAllConnections();
    silent?.close();
    await site?.close();
    await provider?.close();
  });

  it('fails `master_user` before anyone linked; connection/url is the connect-url', async () => {
    const res = await call(site, 'GET', '/connection/test', { as: admin });
    expect([res.status, failedChecks(res.json)]).toEqual([500, ['failed_master_user']]);
    expect(res.json).toMatchObject({ data: { resolution: expect.stringContaining('/admin/') } });
    const url = await call(site, 'GET', '/connection/url?from=landing-page&redirect=x', { as: admin });
    expect(url.json).toMatch(/^http:\/\/example\.org\/connect\/start\?_wpnonce=[0-9a-f]{10}$/);
    expect((await call(site, 'GET', '/connection')).json).toEqual({
      isActive: false,
      isStaging: false,
      devMode: { isActive: false, constant: false, url: false, filter: false },
      isRegistered: false,
      isUserConnected: false,
      hasConnectedOwner: false,
      offlineMode: { isActive: false, constant: false, url: false, filter: false, wpLocalConstant: false },
      isPublic: true,
    });
  });

  it("passes every check once an administrator linked, renewing the owner's tokens at the provider", async () => {
    expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
    const res = await call(site, 'GET', '/connection/test', { as: admin });
    expect([res.status, res.json]).toEqual([200, { code: 'success', message: 'All connection tests passed.' }]);
    expect((await call(site, 'GET', '/connection', { as: admin })).json).toMatchObject({
      isActive: true,
      isRegistered: true,
      isUserConnected: true,
      hasConnectedOwner: true,
    });
    const data = (await call(site, 'GET', '/connection/data', { as: admin })).json as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['currentUser', 'connectionOwner']);
    expect(data.currentUser).toMatchObject({ isConnected: true, isMaster: true, wpcomUser: { login: 'ann' } });
    // Today's key: the owner's display name (docs/spec/current-clients.md A.3).
    expect(data.connectionOwner).toBe(admin.login);
  });

  it('fails `master_user_administrator` when the owner is no longer an administrator', async () => {
    await site.store.users.setRoles(admin.userId, ['editor']);
    try {
      const other = await site.loginAs('administrator');
      const res = await call(site, 'GET', '/connection/test', { as: other });
      expect(failedChecks(res.json)).toEqual(['failed_master_user_administrator']);
      expect((res.json as { message: string }).message).toContain(`(${admin.login})`);
    } finally {
      await site.store.users.setRoles(admin.userId, ['administrator']);
    }
  });

  it('fails `tokens_decryptable` when the stored tokens were altered, and does not try to renew them', async () => {
    const key = 'connection_account';
    const stored = await site.store.userMeta.get(admin.userId, key);
    const altered = JSON.parse(
      JSON.stringify(stored).replace(/"accessToken":"(.)/, (_m, c: string) => `"accessToken":"${c === 'A' ? 'B' : 'A'}`),
    );
    await site.store.userMeta.set(admin.userId, key, altered);
    try {
      const res = await call(site, 'GET', '/connection/test', { as: admin });
      expect([res.status, failedChecks(res.json)]).toEqual([500, ['failed_tokens_decryptable']]);
      expect(res.json).toMatchObject({ data: { resolution: expect.stringContaining('secrets') } });
    } finally {
      await site.store.userMeta.set(admin.userId, key, stored!);
    }
  });

  it('fails `provider_reachable` when the provider is down, then when it is silent (within the bound)', async () => {
    const port = Number(new URL(provider.issuer).port);
    await provider.close();
    let res = await call(site, 'GET', '/connection/test', { as: admin });
    expect([res.status, failedChecks(res.json)]).toEqual([500, ['failed_provider_reachable']]);
    expect((res.json as { message: string }).message).toContain('ECONNREFUSED');
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent?.listen(port, '127.0.0.1', resolve));
    res = await call(site, 'GET', '/connection/test', { as: admin });
    expect([res.status, failedChecks(res.json)]).toEqual([500, ['failed_provider_reachable']]);
    expect((res.json as { message: string }).message).toContain('did not answer in time');
    // The connection is kept: a test changes nothing.
    expect((await call(site, 'GET', '/connection')).json).toMatchObject({ isActive: true });
  });

  it('fails `refresh_possible` when the provider at that address no longer knows the site', async () => {
    const port = Number(new URL(provider.issuer).port);
    silent?.closeAllConnections();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
    silent = undefined;
    // Another provider on the same address: discovery is valid, but the site's client and tokens are unknown there.
    provider = await startProvider(undefined, port);
    const res = await call(site, 'GET', '/connection/test', { as: admin });
    expect([res.status, failedChecks(res.json)]).toEqual([500, ['failed_refresh_possible']]);
    expect(res.json).toMatchObject({ data: { resolution: expect.stringContaining('connect again') } });
  });
});

describe('unlinking and disconnecting through the 4.3+ names', () => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider),
    });
    admin = await site.loginAs('administrator');
    expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
  });

  it('connection/user needs linked exactly false, and refuses the owner as /unlink does', async () => {
    const invalid = { code: 'invalid_param', message: 'Invalid Parameter', data: { status: 404 } };
    expect((await call(site, 'POST', '/connection/user', { as: admin, body: { linked: 'false' } })).json).toEqual(invalid);
    const owner = await call(site, 'POST', '/connection/user', { as: admin, body: { linked: false } });
    expect([owner.status, owner.json]).toEqual([400, (await call(site, 'POST', '/unlink', { as: admin })).json]);
    expect(owner.json).toMatchObject({ code: 'unlink_user_failed' });
    expect((await call(site, 'DELETE', '/connection/user', { as: admin })).json).toMatchObject({ code: 'unlink_user_failed' });
  });

  it('connection/user refuses a caller who is not linked, and nobody, with invalid_user_permission_unlink_user (Jetpack)', async () => {
    const stranger = await site.loginAs('editor');
    expect(await call(site, 'POST', '/connection/user', { as: stranger, body: { linked: false } })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_unlink_user', 403),
    });
    expect(await call(site, 'POST', '/connection/user', { body: { linked: false } })).toMatchObject({
      status: 401,
      json: permissionBody('invalid_user_permission_unlink_user', 401),
    });
  });

  it('connection {isActive:false} disconnects; anything else is rest_invalid_param; again is disconnect_failed', async () => {
    let res = await call(site, 'POST', '/connection', { as: admin, body: { isActive: true } });
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { isActive: 'The isActive argument should be set to false.' } },
    });
    expect((await call(site, 'POST', '/connection', { as: admin, body: {} })).json).toMatchObject({ code: 'rest_missing_callback_param' });
    const editor = await site.loginAs('editor');
    expect((await call(site, 'POST', '/connection', { as: editor, body: { isActive: false } })).json).toEqual(
      permissionBody('invalid_user_permission_jetpack_disconnect', 403),
    );
    res = await call(site, 'POST', '/connection', { as: admin, body: { isActive: false } });
    expect([res.status, res.json]).toEqual([200, { code: 'success' }]);
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: false });
    res = await call(site, 'DELETE', '/connection', { as: admin });
    expect([res.status, res.json]).toMatchObject([400, { code: 'disconnect_failed' }]);
  });
});
