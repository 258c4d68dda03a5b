import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { ANN, closedPort, startProvider, accountServiceEnv } from './testing/connection-kit.js';
import { link, loginAtProvider, sitePath, startLogin, visit } from './testing/connection-http-kit.js';

const BOUND_MS = 400;

describe('a callback that does not belong to a login of this browser', () => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  const clock = { now: Date.now() };
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider),
      clock: () => clock.now,
    });
    admin = await site.loginAs('administrator');
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
  });

  async function expectNothingLinked(): Promise<void> {
    expect(await site.store.userMeta.get(admin.userId, 'connection_account')).toBeUndefined();
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: false });
  }

  it('answers a forged state with a 400 page saying why, and links nothing', async () => {
    const forged = await visit(site, `/connect/callback?code=abc&state=forged&iss=${encodeURIComponent(provider.issuer)}`, admin);
    expect(forged.status).toBe(400);
    expect(forged.headers['content-type']).toMatch(/^text\/html/);
    expect(forged.text).toContain('does not belong to a login started by you in this browser');
    expect(forged.text).toContain('href="/admin/?connection=state_invalid"');
    const notice = await visit(site, '/admin/?connection=state_invalid', admin);
    expect(notice.text).toMatch(/<div id="connection-notice" class="notice notice-error" role="status">Nothing was linked: the answer/);
    await expectNothingLinked();
  });

  it('refuses a callback in the session of another user, or in a browser that is not logged in', async () => {
    const callback = sitePath(await loginAtProvider(site, admin, ANN));
    const other = await site.loginAs('administrator');
    expect((await visit(site, callback, other)).status).toBe(400);
    const anonymous = await visit(site, callback);
    expect(anonymous.status).toBe(400);
    expect(anonymous.text).toContain('not logged in to this site');
    await expectNothingLinked();
  });

  it('answers a state older than 10 minutes with a 400 page', async () => {
    const callback = sitePath(await loginAtProvider(site, admin, ANN));
    clock.now += 10 * 60_000 + 1;
    const late = await visit(site, callback, admin);
    expect(late.status).toBe(400);
    expect(late.text).toContain('longer than 10 minutes');
    await expectNothingLinked();
  });

  it('answers a callback naming another issuer with a 400 page', async () => {
    const second = await startProvider();
    try {
      const callback = new URL(await loginAtProvider(site, admin, ANN));
      callback.searchParams.set('iss', second.issuer);
      const wrong = await visit(site, sitePath(callback.href), admin);
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('came from another account service');
      await expectNothingLinked();
    } finally {
      await second.close();
    }
  });

  it('refuses /connect/start without the nonce of this session', async () => {
    const url = new URL(String((await call(site, 'GET', '/connect-url', { as: admin })).json));
    const other = await site.loginAs('administrator');
    const foreign = await visit(site, sitePath(url.href), other);
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('expired');
    expect((await visit(site, '/connect/start?_wpnonce=0123456789', admin)).status).toBe(403);
    expect((await visit(site, sitePath(url.href))).headers.location).toBe('/login?redirect_to=%2Fadmin%2F');
  });

  it('brings the browser back to the admin page when the login is cancelled at the provider', async () => {
    const authorizationUrl = new URL(await startLogin(site, admin));
    const cancelled = await visit(
      site,
      `/connect/callback?error=access_denied&state=${authorizationUrl.searchParams.get('state')}&iss=${encodeURIComponent(provider.issuer)}`,
      admin,
    );
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.location).toBe('/admin/?connection=access_denied');
    await expectNothingLinked();
  });
});

describe('an account service that is down or silent', () => {
  let site: TestApp;
  let admin: LoggedIn;
  let provider: AccountsService;
  let silent: Server | undefined;
  beforeAll(async () => {
    provider = await startProvider();
    site = await createTestApp({
      env: accountServiceEnv(provider, { SITEWARD_ACCOUNTS_TIMEOUT_MS: String(BOUND_MS) }),
    });
    admin = await site.loginAs('administrator');
    expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
  });
  afterAll(async () => {
    silent?.closeAllConnections();
    silent?.close();
    await site?.close();
    await provider?.close();
  });

  async function timed(run: () => Promise<{ status: number; json: unknown }>) {
    const began = performance.now();
    const answer = await run();
    return { ...answer, ms: performance.now() - began };
  }

  it('answers 502 when nothing listens, quickly, and keeps the connection', async () => {
    await provider.close();
    const answer = await timed(() => call(site, 'POST', '/disconnect/site', { as: admin }));
    expect(answer.status).toBe(502);
    expect(answer.json).toMatchObject({
      code: 'account_service_unreachable',
      message: 'The central account service could not be reached.',
      data: { status: 502, detail: expect.stringContaining('ECONNREFUSED') },
    });
    expect(answer.ms).toBeLessThan(3500);
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: true });
  });

  it('answers 504 within the configured bound when the provider accepts but never answers, and keeps the connection', async () => {
    const port = Number(new URL(provider.issuer).port);
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent?.listen(port, '127.0.0.1', resolve));
    const answer = await timed(() => call(site, 'POST', '/disconnect/site', { as: admin }));
    expect(answer.status).toBe(504);
    expect(answer.json).toMatchObject({ code: 'account_service_timeout', data: { status: 504 } });
    expect(answer.ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
    // Below the 4 s default: the configured bound was used (the margin is for a loaded machine).
    expect(answer.ms).toBeLessThan(3500);
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: true });
    expect(await site.store.userMeta.get(admin.userId, 'connection_account')).toBeDefined();
  });

  it('answers the connect start page with a 502 page when a new site cannot reach its provider', async () => {
    const other = await createTestApp({
      env: { SITEWARD_ACCOUNTS_ISSUER: `http://127.0.0.1:${await closedPort()}`, SITEWARD_ACCOUNTS_TIMEOUT_MS: String(BOUND_MS) },
    });
    try {
      const otherAdmin = await other.loginAs('administrator');
      const url = String((await call(other, 'GET', '/connect-url', { as: otherAdmin })).json);
      const began = performance.now();
      const start = await visit(other, sitePath(url), otherAdmin);
      expect(performance.now() - began).toBeLessThan(3500);
      expect(start.status).toBe(502);
      expect(start.text).toContain('could not be reached');
      expect(await other.store.options.get('connection_registration')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
