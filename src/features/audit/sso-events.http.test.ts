/**
 * A sign-in through the connection (the sso module) is `login.succeeded` with `via: sso`,
 * written with the session it opens: the linked user, the new session's token hash, the address
 * by the trusted-proxy rule. Driven over HTTP against the local account service. On SQLite and,
 * with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { TestBrowser, loginAndConsent } from '../../accounts/testing/browser.js';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { ANN, accountServiceEnv, startProvider } from '../connection/testing/connection-kit.js';
import { link, sitePath } from '../connection/testing/connection-http-kit.js';
import { sessionTokenHash } from './source.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const SSO_CALLBACK = 'http://example.org/login/sso/callback';

describe.each(stores)('audit events of sign-ins through the connection on %s', (backend) => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    provider = await startProvider();
    site = await createTestApp({
      startJobs: false,
      env: accountServiceEnv(provider, { SITEWARD_TRUST_PROXY: '1', ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}) }),
    });
    admin = await site.loginAs('administrator', { login: 'admin' });
    expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
    expect((await call(site, 'POST', '/settings', { as: admin, body: { sso: true } })).status).toBe(200);
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
    await schema?.drop();
  });

  it('records login.succeeded via sso with the linked user, the new session and the address', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.77', 'X-Request-Id': 'sso-1' };
    const start = await site.request({ path: '/login/sso', headers });
    expect(start.status, start.text).toBe(302);
    const cookie = (start.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    const callback = await loginAndConsent(new TestBrowser(), start.headers.location ?? '', ANN, SSO_CALLBACK);
    const done = await site.request({ path: sitePath(callback), headers: { ...headers, Cookie: cookie } });
    expect(done.status, done.text).toBe(302);
    const token = decodeURIComponent((done.headers['set-cookie'] ?? '').split(';')[0]!.split('=')[1]!).split('|')[2]!;

    const logins = (await site.store.auditLog.list({ action: 'login.succeeded' }, { limit: 100, offset: 0, order: 'asc' })).filter(
      (e) => e.actor.user_id === admin.userId && e.client_ip === '198.51.100.77',
    );
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({
      result: 'ok',
      actor: { kind: 'user', user_id: admin.userId, login: 'admin', credential: { type: 'session', token_hash: sessionTokenHash(token) } },
      client_ip: '198.51.100.77',
      request_id: 'sso-1',
      object: { type: 'user', id: String(admin.userId) },
      changes: { via: { before: null, after: 'sso' } },
    });
    expect(JSON.stringify(logins)).not.toContain(token);
  });
});
