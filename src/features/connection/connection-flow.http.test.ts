import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as oidc from 'openid-client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser, loginAndConsent } from '../../accounts/testing/browser.js';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { ANN, startProvider, accountServiceEnv } from './testing/connection-kit.js';
import { SITE_CALLBACK, link, sitePath, startLogin, visit, wrongPassword } from './testing/connection-http-kit.js';
import { TokenSealer } from '../../auth/token-sealer.js';

const BOB = { login: 'bob', email: 'bob@example.com', name: 'Bob Example', password: 'battery staple' };

describe('connecting the site to the central account service, end to end over HTTP', () => {
  let provider: AccountsService;
  let site: TestApp;
  let worker2: TestApp;
  let admin: LoggedIn;
  let second: LoggedIn;
  const logLines: string[] = [];
  /** Secrets seen on the way, to look for in the logs and the store afterwards. */
  const secrets: string[] = [];

  beforeAll(async () => {
    provider = await startProvider();
    await provider.addUser(BOB);
    const env = accountServiceEnv(provider);
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void logLines.push(chunk.toString('utf8'))) });
    site = await createTestApp({ env, logger: pino({ level: 'debug' }, sink) });
    // A second process on the same data: another worker of the same site.
    worker2 = await createTestApp({ env, dataDir: site.app.config.dataDir });
    admin = await site.loginAs('administrator', { login: 'admin' });
    second = await site.loginAs('administrator', { login: 'admin2' });
  });
  afterAll(async () => {
    await worker2?.close();
    await site?.close();
    await provider?.close();
  });

  const sealer = () => new TokenSealer(site.app.secrets.encryptionKey);
  async function storedSecret(userId: number, field: string): Promise<string> {
    const record = (await site.store.userMeta.get(userId, 'connection_account')) as Record<string, unknown>;
    return sealer().open(record[field], `connection:user:${userId}#${field}`);
  }
  async function registration(): Promise<{ clientId: string; clientSecret: string }> {
    const record = (await site.store.options.get('connection_registration')) as Record<string, unknown>;
    return { clientId: String(record.clientId), clientSecret: sealer().open(record.clientSecret, 'connection:registration#clientSecret') };
  }

  it('starts disconnected, with connection-requiring modules unavailable in every worker', async () => {
    expect((await call(site, 'GET', '/connection-status')).json).toEqual({
      isActive: false,
      isStaging: false,
      devMode: { isActive: false, constant: false, url: false, filter: false },
    });
    const modules = (await call(worker2, 'GET', '/module/all', { as: admin })).json as Record<string, { available: boolean }>;
    expect(modules.stats?.available).toBe(false);
  });

  it('connects: connect URL, start, wrong password then the right one, consent, callback, master user', async () => {
    const authorizationUrl = await startLogin(site, admin);
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.has('resource')).toBe(false);
    secrets.push(url.searchParams.get('state') ?? 'no state');
    const [pendingKey] = await site.store.status.keys('connection:pending:');
    const pending = (await site.store.status.get(pendingKey ?? ''))?.value as Record<string, unknown>;
    secrets.push(sealer().open(pending.verifier, `${pendingKey}#verifier`), sealer().open(pending.nonce, `${pendingKey}#nonce`));

    const browser = new TestBrowser();
    await wrongPassword(browser, authorizationUrl, ANN.login);
    const callback = await loginAndConsent(browser, authorizationUrl, ANN, SITE_CALLBACK);
    secrets.push(new URL(callback).searchParams.get('code') ?? 'no code');
    const answer = await visit(site, sitePath(callback), admin);
    expect(answer.status, answer.text).toBe(302);
    expect(answer.headers.location).toBe('/admin/?connection=connected');

    const notice = await visit(site, '/admin/?connection=connected', admin);
    expect(notice.text).toContain('you are its master user');
    // The same callback again: the state is single-use.
    const replay = await visit(site, sitePath(callback), admin);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('replayed state');
  });

  it('is active at once in both workers, and modules and Initial_State follow', async () => {
    for (const worker of [site, worker2]) {
      expect((await call(worker, 'GET', '/connection-status')).json).toMatchObject({ isActive: true });
      const modules = (await call(worker, 'GET', '/module/all', { as: admin })).json as Record<string, { available: boolean }>;
      expect(modules.stats?.available).toBe(true);
      const page = await visit(worker, '/admin/', admin);
      expect(page.text).toContain('"connectionStatus":{"isActive":true');
      expect(page.text).toContain('"login":"ann"');
    }
  });

  it("shows the provider's account in user-connection-data", async () => {
    const data = await call(site, 'GET', '/user-connection-data', { as: admin });
    expect(data.status).toBe(200);
    expect(data.json).toMatchObject({
      othersLinked: false,
      currentUser: {
        isConnected: true,
        isMaster: true,
        username: 'admin',
        wpcomUser: {
          login: 'ann',
          email: 'ann@example.com',
          display_name: 'Ann Example',
          avatar: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
        },
        permissions: { connect: true, disconnect: true, manage_options: true },
      },
    });
    expect((data.json as { currentUser: { wpcomUser: { ID: string } } }).currentUser.wpcomUser.ID).toMatch(/^\d+$/);
    secrets.push(
      await storedSecret(admin.userId, 'accessToken'),
      await storedSecret(admin.userId, 'refreshToken'),
      (await registration()).clientSecret,
    );
  });

  it('lets a second administrator link and unlink, but never unlinks the master user', async () => {
    const linked = await link(site, second, BOB);
    expect(linked.headers.location).toBe('/admin/?connection=linked');
    const data = await call(site, 'GET', '/user-connection-data', { as: second });
    expect(data.json).toMatchObject({ othersLinked: 2, currentUser: { isConnected: true, isMaster: false, wpcomUser: { login: 'bob' } } });

    const failed = { code: 'unlink_user_failed', message: 'Was not able to unlink the user.  Please try again.', data: { status: 400 } };
    expect(await call(site, 'POST', '/unlink', { as: admin })).toMatchObject({ status: 400, json: failed });
    expect(await call(site, 'POST', '/unlink', { as: second, body: { id: admin.userId } })).toMatchObject({ status: 400, json: failed });
    expect(await call(site, 'PUT', '/unlink', { as: second })).toMatchObject({ status: 200, json: { code: 'success' } });
    expect(await call(site, 'POST', '/unlink', { as: second })).toMatchObject({ status: 400, json: failed });
    expect((await call(worker2, 'GET', '/user-connection-data', { as: second })).json).toMatchObject({
      othersLinked: false,
      currentUser: { isConnected: false },
    });
    expect((await call(site, 'GET', '/connection-status')).json).toMatchObject({ isActive: true });
  });

  it('keeps tokens, client secret, code, state and verifier out of the logs and out of the store in clear', async () => {
    expect(secrets.length).toBe(7);
    const logs = logLines.join('');
    expect(logs).toContain('/connect/callback?');
    const dir = site.app.config.dataDir;
    const files = ['siteward.db', 'siteward.db-wal'].map((f) => join(dir, f)).filter((f) => existsSync(f));
    const stored = files.map((f) => readFileSync(f).toString('latin1')).join('');
    expect(stored).toContain('connection_account');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(logs).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it('disconnects: the provider reports the tokens revoked, and every worker sees the site disconnected', async () => {
    const refreshToken = await storedSecret(admin.userId, 'refreshToken');
    const { clientId, clientSecret } = await registration();
    const client = await oidc.discovery(new URL(provider.issuer), clientId, clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    expect((await oidc.tokenIntrospection(client, refreshToken)).active).toBe(true);

    expect(await call(site, 'POST', '/disconnect/site', { as: admin })).toMatchObject({ status: 200, json: { code: 'success' } });
    expect((await oidc.tokenIntrospection(client, refreshToken)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(client, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });

    for (const worker of [site, worker2]) {
      expect((await call(worker, 'GET', '/connection-status')).json).toMatchObject({ isActive: false });
      const modules = (await call(worker, 'GET', '/module/all', { as: admin })).json as Record<string, { available: boolean }>;
      expect(modules.stats?.available).toBe(false);
    }
    expect(await site.store.userMeta.get(admin.userId, 'connection_account')).toBeUndefined();
    expect(await call(site, 'PATCH', '/disconnect/site', { as: admin })).toMatchObject({
      status: 400,
      json: { code: 'disconnect_failed', message: 'Was not able to disconnect the site.  Please try again.', data: { status: 400 } },
    });
  });
});
