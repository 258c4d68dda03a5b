/**
 * Connection events: registering the site, linking (and the first administrator's link that
 * connects the site), unlinking and disconnecting, each written in the transaction of its change
 * with the request's actor, session, address and request id. Driven over HTTP against the local
 * account service. On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent } from '../../wire/audit.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { ANN, accountServiceEnv, startProvider } from '../connection/testing/connection-kit.js';
import { loginAtProvider, sitePath } from '../connection/testing/connection-http-kit.js';
import { sessionTokenHash } from './source.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const BOB = { login: 'bob', email: 'bob@example.com', name: 'Bob Example', password: 'battery staple' };

function tokenHashOf(as: LoggedIn): string {
  return sessionTokenHash(decodeURIComponent(as.cookie.split('=')[1] ?? '').split('|')[2] ?? '');
}

describe.each(stores)('audit events of the connection on %s', (backend) => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  let editor: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    provider = await startProvider();
    await provider.addUser(BOB);
    site = await createTestApp({
      startJobs: false,
      env: accountServiceEnv(provider, { SITEWARD_TRUST_PROXY: '1', ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}) }),
    });
    admin = await site.loginAs('administrator', { login: 'admin' });
    editor = await site.loginAs('editor', { login: 'ed' });
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
    await schema?.drop();
  });

  async function events(prefix = 'connection.'): Promise<AuditEvent[]> {
    return site.store.auditLog.list({ action: prefix }, { limit: 100, offset: 0, order: 'asc' });
  }
  /** The whole link, the callback visited with an address and a request id. */
  async function linkFrom(as: LoggedIn, account: { login: string; password: string }, requestId: string): Promise<string | undefined> {
    const callback = await loginAtProvider(site, as, account);
    const done = await site.request({
      path: sitePath(callback),
      headers: { Cookie: as.cookie, 'X-Forwarded-For': '203.0.113.9', 'X-Request-Id': requestId },
    });
    expect(done.status, done.text).toBe(302);
    return done.headers.location;
  }
  const by = (as: LoggedIn) => ({
    kind: 'user',
    user_id: as.userId,
    login: as.login,
    credential: { type: 'session', token_hash: tokenHashOf(as) },
  });

  it('records the registration, the first link and the connection it makes, from the requests that made them', async () => {
    expect(await linkFrom(admin, ANN, 'link-admin')).toBe('/admin/?connection=connected');
    const [registered, connected, linked, ...more] = await events();
    expect(more).toEqual([]);
    // Registered at /connect/start, in the transaction that stored the client.
    expect(registered).toMatchObject({
      action: 'connection.registered',
      result: 'ok',
      actor: by(admin),
      object: { type: 'connection', id: 'site', name: provider.issuer },
      changes: { client_id: { before: null, after: expect.any(String) } },
    });
    expect(registered?.changes.client_id).toEqual({
      before: null,
      after: ((await site.store.options.get('connection_registration')) as { clientId: string }).clientId,
    });
    expect(connected).toMatchObject({
      action: 'connection.connected',
      actor: by(admin),
      client_ip: '203.0.113.9',
      request_id: 'link-admin',
      changes: { master_user: { before: null, after: admin.userId } },
    });
    expect(linked).toMatchObject({
      action: 'connection.linked',
      actor: by(admin),
      client_ip: '203.0.113.9',
      request_id: 'link-admin',
      object: { type: 'user', id: String(admin.userId), name: 'admin' },
      changes: { linked: { before: false, after: true }, master: { before: false, after: true }, account: { before: null } },
    });
    expect(JSON.stringify(await events())).not.toMatch(/accessToken|refreshToken|clientSecret|sealed/i);
  });

  it('records a later link without a connection; reading the connection data records nothing', async () => {
    expect(await linkFrom(editor, BOB, 'link-ed')).toBe('/admin/?connection=linked');
    const added = (await events()).slice(3);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      action: 'connection.linked',
      actor: by(editor),
      request_id: 'link-ed',
      object: { type: 'user', id: String(editor.userId), name: 'ed' },
      changes: { linked: { before: false, after: true } },
    });
    expect(added[0]?.changes.master).toBeUndefined();
    const refreshed = await call(site, 'GET', '/user-connection-data', { as: editor });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(await events()).toHaveLength(4);
  });

  it('records an unlink by /unlink and by DELETE connection/user, each with who asked', async () => {
    const byAdmin = await call(site, 'POST', '/unlink', {
      as: admin,
      body: { id: editor.userId },
      headers: { 'X-Forwarded-For': '198.51.100.4', 'X-Request-Id': 'unlink-1' },
    });
    expect([byAdmin.status, byAdmin.json]).toEqual([200, { code: 'success' }]);
    expect((await events()).at(-1)).toMatchObject({
      action: 'connection.unlinked',
      actor: by(admin),
      client_ip: '198.51.100.4',
      request_id: 'unlink-1',
      object: { type: 'user', id: String(editor.userId), name: 'ed' },
      changes: { linked: { before: true, after: false }, account: { after: null } },
    });
    // Refused (not linked any more): nothing changed, nothing recorded.
    expect((await call(site, 'POST', '/unlink', { as: admin, body: { id: editor.userId } })).status).toBe(400);
    expect(await events()).toHaveLength(5);

    expect(await linkFrom(editor, BOB, 'link-ed-2')).toBe('/admin/?connection=linked');
    // Linked again, to another account: a change of account, recorded; the same account again is a refresh.
    const bob = (await events()).at(-1)?.changes.account as { after: string };
    expect(await linkFrom(editor, ANN, 'relink-ed')).toBe('/admin/?connection=linked');
    expect((await events()).at(-1)).toMatchObject({
      action: 'connection.linked',
      request_id: 'relink-ed',
      changes: { linked: { before: true, after: true }, account: { before: bob.after, after: expect.any(String) } },
    });
    const count = (await events()).length;
    expect(await linkFrom(editor, ANN, 'relink-same')).toBe('/admin/?connection=linked');
    expect(await events()).toHaveLength(count);
    const self = await call(site, 'DELETE', '/connection/user', { as: editor, headers: { 'X-Request-Id': 'unlink-2' } });
    expect([self.status, self.json]).toEqual([200, { code: 'success' }]);
    const last = (await events()).slice(-2);
    expect(last.map((e) => [e.action, e.request_id])).toEqual([
      ['connection.linked', 'relink-ed'],
      ['connection.unlinked', 'unlink-2'],
    ]);
    expect(last[1]).toMatchObject({ actor: by(editor), object: { id: String(editor.userId) } });
  });

  it('records a disconnect: each link, then the registration, master user and links in one event', async () => {
    expect(await linkFrom(editor, BOB, 'link-ed-3')).toBe('/admin/?connection=linked');
    const before = (await events()).length;
    const res = await call(site, 'POST', '/disconnect/site', {
      as: admin,
      headers: { 'X-Forwarded-For': '198.51.100.5', 'X-Request-Id': 'disconnect-1' },
    });
    expect([res.status, res.json]).toEqual([200, { code: 'success' }]);
    const added = (await events()).slice(before);
    expect(added.map((e) => [e.action, e.object?.id])).toEqual([
      ['connection.unlinked', String(admin.userId)],
      ['connection.unlinked', String(editor.userId)],
      ['connection.disconnected', 'site'],
    ]);
    for (const event of added) expect(event).toMatchObject({ actor: by(admin), client_ip: '198.51.100.5', request_id: 'disconnect-1' });
    expect(added[2]?.changes).toEqual({
      registered: { before: true, after: false },
      master_user: { before: admin.userId, after: null },
      linked_users: { before: [], after: [] },
    });
    expect(await site.store.options.get('connection_registration')).toBeUndefined();
    expect(await site.store.options.get('connection_master_user')).toBeUndefined();
    // Nothing left to disconnect: refused, nothing recorded.
    expect((await call(site, 'POST', '/connection', { as: admin, body: { isActive: false } })).status).toBe(400);
    expect(await events()).toHaveLength(before + 3);
  });
});
