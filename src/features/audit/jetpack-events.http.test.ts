/**
 * The `jetpack/v4` operations record who changed what, through which credential, from where:
 * over real HTTP, with a login cookie and with an application password, each change with its
 * before → after; a request that changes nothing records nothing.
 * On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import type { AuditEvent } from '../../wire/audit.js';

const basic = (login: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('audit events of jetpack/v4 operations on %s', (backend) => {
  let schema: PgSchema | null = null;
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, ...(schema ? { env: { SITEWARD_DATABASE_URL: schema.url } } : {}) });
    admin = await t.loginAs('administrator', { login: 'boss' });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
  });

  async function events(action: string): Promise<AuditEvent[]> {
    return t.store.auditLog.list({ action }, { limit: 100, offset: 0, order: 'asc' });
  }

  it('records a module switched off and on with the cookie session, address, agent and request id', async () => {
    const off = await call(t, 'POST', '/module/protect/active', {
      as: admin,
      body: { active: false },
      headers: { 'User-Agent': 'audit-test/1.0', 'X-Request-Id': 'req-off-1' },
    });
    expect(off.status).toBe(200);
    const [event] = await events('module.deactivated');
    const sessionToken = decodeURIComponent(admin.cookie.split('=')[1]!).split('|')[2];
    expect(event).toMatchObject({
      result: 'ok',
      actor: { kind: 'user', user_id: admin.userId, login: 'boss', credential: { type: 'session' } },
      client_ip: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      request_id: 'req-off-1',
      object: { type: 'module', id: 'protect', name: 'Protect' },
    });
    const credential = event!.actor.credential as { token_hash: string };
    expect(credential.token_hash).toMatch(/^[0-9a-f]{64}$/);
    if (sessionToken) expect(credential.token_hash).toBe(createHash('sha256').update(sessionToken).digest('hex'));
    expect(JSON.stringify(event)).not.toContain(admin.cookie.split('=')[1]!);
    // The active list had its default (no stored option) before, and lost Protect after.
    const change = event!.changes.active_modules as { before: string[] | null; after: string[] };
    expect(change.before).toBeNull();
    expect(change.after).not.toContain('protect');
    expect(change.after.length).toBeGreaterThan(0);

    // Deactivating it again changes nothing (409) and records nothing.
    expect((await call(t, 'POST', '/module/protect/active', { as: admin, body: { active: false } })).status).toBe(409);
    expect(await events('module.deactivated')).toHaveLength(1);

    // Switched back on with an application password: its uuid and name.
    const created = await t.request({
      method: 'POST',
      path: '/wp-json/wp/v2/users/me/application-passwords',
      headers: t.auth(admin),
      body: { name: 'deploy bot' },
    });
    const { uuid, password } = created.json as { uuid: string; password: string };
    const on = await t.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/protect/active',
      headers: basic('boss', password),
      body: { active: true },
    });
    expect(on.status).toBe(200);
    const [activated] = await events('module.activated');
    expect((activated!.changes.active_modules as { after: string[] }).after).toContain('protect');
    expect(activated).toMatchObject({
      actor: { kind: 'user', login: 'boss', credential: { type: 'application_password', uuid, name: 'deploy bot' } },
      object: { type: 'module', id: 'protect' },
    });
    expect(activated!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records settings with before → after, notices, Jump Start and resets', async () => {
    const snow = await call(t, 'POST', '/settings', { as: admin, body: { jetpack_holiday_snow_enabled: true } });
    expect(snow.status).toBe(200);
    const [settings] = await events('settings.updated');
    expect(Object.values(settings!.changes)).toContainEqual({ before: null, after: 'letitsnow' });

    expect((await call(t, 'POST', '/notice/welcome', { as: admin, body: { dismissed: true } })).status).toBe(200);
    expect((await events('notice.dismissed'))[0]).toMatchObject({ object: { type: 'notice', id: 'welcome' } });

    expect((await call(t, 'POST', '/jumpstart', { as: admin, body: { active: true } })).status).toBe(200);
    expect(await events('jumpstart.activated')).toHaveLength(1);

    expect((await call(t, 'POST', '/reset/options', { as: admin, body: { reset: true } })).status).toBe(200);
    const [reset] = await events('options.reset');
    expect(reset).toMatchObject({ object: { type: 'site' }, actor: { login: 'boss' } });
    expect(Object.keys(reset!.changes).length).toBeGreaterThan(1);
  });

  it('keeps the chain whole across all of them', async () => {
    const rows = await t.store.auditLog.rows(0, 1000);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
  });
});
