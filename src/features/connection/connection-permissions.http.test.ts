import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { startProvider, accountServiceEnv } from './testing/connection-kit.js';
import { visit } from './testing/connection-http-kit.js';

const ROUTES = [
  { method: 'GET', path: '/connect-url', code: 'invalid_user_permission_jetpack_connect' },
  { method: 'GET', path: '/user-connection-data', code: 'invalid_user_permission_user_connection_data' },
  { method: 'POST', path: '/disconnect/site', code: 'invalid_user_permission_jetpack_disconnect' },
  { method: 'POST', path: '/unlink', code: 'invalid_user_permission_link_user' },
  { method: 'POST', path: '/recheck-ssl', code: 'invalid_user_permission_view_admin' },
] as const;

describe('who may use the connection routes', () => {
  let provider: AccountsService;
  let site: TestApp;
  let subscriber: LoggedIn;
  let admin: LoggedIn;
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider),
    });
    subscriber = await site.loginAs('subscriber');
    admin = await site.loginAs('administrator');
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
  });

  it('answers anonymous callers 401 on every route but the public connection-status, on every method', async () => {
    expect((await call(site, 'GET', '/connection-status')).status).toBe(200);
    for (const route of ROUTES) {
      for (const method of route.method === 'GET' ? ['GET'] : ['POST', 'PUT', 'PATCH']) {
        expect(await call(site, method, route.path), `${method} ${route.path}`).toMatchObject({
          status: 401,
          json: permissionBody(route.code, 401),
        });
      }
    }
  });

  it('answers a subscriber 403 where the reference needs manage_options, and serves what needs only read', async () => {
    // Connecting a site that has no master user yet is for administrators (jetpack_connect).
    expect(await call(site, 'GET', '/connect-url', { as: subscriber })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_jetpack_connect', 403),
    });
    expect(await call(site, 'POST', '/disconnect/site', { as: subscriber })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_jetpack_disconnect', 403),
    });
    expect(await call(site, 'POST', '/unlink', { as: subscriber, body: { id: admin.userId } })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_link_user', 403),
    });
    // jetpack_connect_user and jetpack_admin_page are `read` outside dev mode.
    expect(await call(site, 'GET', '/user-connection-data', { as: subscriber })).toMatchObject({
      status: 200,
      json: {
        othersLinked: false,
        currentUser: {
          isConnected: false,
          isMaster: false,
          username: subscriber.login,
          permissions: { connect: false, disconnect: false, admin_page: true },
        },
      },
    });
    expect(await call(site, 'POST', '/unlink', { as: subscriber })).toMatchObject({ status: 400, json: { code: 'unlink_user_failed' } });
    expect(await call(site, 'POST', '/recheck-ssl', { as: subscriber })).toMatchObject({
      status: 200,
      json: { enabled: false, message: expect.stringMatching(/plain http/) },
    });
    const start = await visit(site, '/connect/start?_wpnonce=whatever', subscriber);
    expect(start.status).toBe(403);
  });

  it('checks the id of /unlink before anything else is asked', async () => {
    expect(await call(site, 'POST', '/unlink?id=-3', { as: admin })).toMatchObject({
      status: 400,
      json: { code: 'rest_invalid_param', data: { status: 400, params: { id: 'id must be a positive integer.' } } },
    });
  });

  it('keeps the recheck-ssl answer in a status row, not an option', async () => {
    const before = await site.store.options.version();
    await call(site, 'POST', '/recheck-ssl', { as: admin });
    expect(await site.store.options.version()).toBe(before);
    expect((await site.store.status.get('connection:https-test'))?.value).toMatchObject({ enabled: false });
  });
});

describe('development (offline) mode', () => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider, { SITEWARD_OFFLINE: '1' }),
    });
    admin = await site.loginAs('administrator');
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
  });

  it('reports dev mode in connection-status and refuses an administrator every route that needs a connection', async () => {
    expect((await call(site, 'GET', '/connection-status')).json).toEqual({
      isActive: false,
      isStaging: false,
      devMode: { isActive: true, constant: true, url: false, filter: false },
    });
    expect(await call(site, 'GET', '/connect-url', { as: admin })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_jetpack_connect', 403),
    });
    expect(await call(site, 'GET', '/user-connection-data', { as: admin })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_user_connection_data', 403),
    });
    expect(await call(site, 'POST', '/unlink', { as: admin })).toMatchObject({
      status: 403,
      json: permissionBody('invalid_user_permission_link_user', 403),
    });
    // jetpack_disconnect is manage_options in every mode: nothing is connected, so it fails as the reference says.
    expect(await call(site, 'POST', '/disconnect/site', { as: admin })).toMatchObject({ status: 400, json: { code: 'disconnect_failed' } });
    const start = await visit(site, '/connect/start?_wpnonce=x', admin);
    expect(start.status).toBe(403);
    expect(start.text).toContain('development (offline) mode');
    expect(await site.store.options.get('connection_registration')).toBeUndefined();
  });
});

describe('a site without an account service', () => {
  let site: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    site = await createTestApp();
    admin = await site.loginAs('administrator');
  });
  afterAll(() => site?.close());

  it('says so on the connect URL and the SSL check, and has nothing to disconnect or unlink', async () => {
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: false });
    expect(await call(site, 'GET', '/connect-url', { as: admin })).toMatchObject({
      status: 503,
      json: { code: 'connection_not_configured' },
    });
    expect(await call(site, 'POST', '/recheck-ssl', { as: admin })).toMatchObject({
      status: 200,
      json: { enabled: false, message: expect.stringContaining('SITEWARD_ACCOUNTS_ISSUER') },
    });
    expect(await call(site, 'POST', '/disconnect/site', { as: admin })).toMatchObject({ status: 400, json: { code: 'disconnect_failed' } });
    expect(await call(site, 'POST', '/unlink', { as: admin })).toMatchObject({ status: 400, json: { code: 'unlink_user_failed' } });
    expect((await call(site, 'GET', '/user-connection-data', { as: admin })).json).toMatchObject({
      currentUser: { isConnected: false, isMaster: false },
    });
  });
});
