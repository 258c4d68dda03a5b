/**
 * Protect's changes are audit events written with them: a block Protect starts after too many
 * failures (actor: the `protect` job, from the failing address), lifting one block or all
 * (REST, by the administrator's credential), who is told of new blocks, and allow-list edits
 * (the module's option, before → after). On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent } from '../../wire/audit.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };

describe.each(stores)('audit events of Protect on %s', (backend) => {
  let t: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({
      startJobs: false,
      env: {
        SITEWARD_TRUST_PROXY: '1',
        SITEWARD_PROTECT_CHALLENGE_AFTER: '0',
        ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
      },
    });
    admin = await t.loginAs('administrator', { login: 'boss' });
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  const events = (action: string): Promise<AuditEvent[]> => t.store.auditLog.list({ action }, { limit: 100, offset: 0, order: 'asc' });

  async function block(address: string): Promise<void> {
    for (let i = 0; i < 5; i += 1) {
      const res = await t.request({
        method: 'POST',
        path: '/login',
        headers: { ...FORM, 'X-Forwarded-For': address },
        body: 'log=victim&pwd=wrong',
      });
      expect(res.status).toBe(401);
    }
  }

  it('records a block Protect starts and the lifting of one block and of all', async () => {
    await block('203.0.113.9');
    const blocked = await events('protect.blocked');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatchObject({
      result: 'ok',
      actor: { kind: 'job', job: 'protect', user_id: 0 },
      client_ip: '203.0.113.9',
      object: { type: 'address', id: '203.0.113.9' },
      changes: { blocked: { before: false, after: true }, failures: { after: 5 }, login: { after: 'victim' }, level: { after: 1 } },
    });

    const one = await t.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks/203.0.113.9', headers: t.auth(admin) });
    expect(one.status).toBe(200);
    await block('203.0.113.10');
    await block('203.0.113.11');
    const all = await t.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks', headers: t.auth(admin) });
    expect(all.status).toBe(200);

    const lifted = await events('protect.unblocked');
    expect(lifted.map((e) => e.object?.id).sort()).toEqual(['203.0.113.10', '203.0.113.11', '203.0.113.9']);
    for (const e of lifted) {
      expect(e.actor).toMatchObject({ kind: 'user', login: 'boss', credential: { type: 'session' } });
      expect(e.changes).toEqual({ blocked: { before: true, after: false } });
      expect(e.request_id).not.toBe('');
    }
    // Lifting nothing changes nothing: no event.
    expect((await t.request({ method: 'DELETE', path: '/wp-json/siteward/v1/protect/blocks', headers: t.auth(admin) })).status).toBe(200);
    expect(await events('protect.unblocked')).toHaveLength(3);
  });

  it('records allow-list edits before → after and who is told of blocks', async () => {
    const put = (value: string) =>
      t.request({
        method: 'POST',
        path: '/wp-json/jetpack/v4/module/protect',
        headers: t.auth(admin),
        body: { jetpack_protect_global_whitelist: value },
      });
    expect((await put('198.51.100.1')).status).toBe(200);
    expect((await put('198.51.100.1, 2001:db8::1')).status).toBe(200);
    const edits = (await events('module.options_updated')).filter((e) => e.object?.id === 'protect');
    expect(edits).toHaveLength(2);
    const list = (e: AuditEvent) => e.changes.jetpack_protect_whitelist as { before: unknown; after: unknown };
    expect(JSON.stringify(list(edits[1]!).before)).toContain('198.51.100.1');
    expect(JSON.stringify(list(edits[1]!).before)).not.toContain('2001:db8::1');
    expect(JSON.stringify(list(edits[1]!).after)).toContain('2001:db8::1');

    const told = await t.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/protect/notifications',
      headers: t.auth(admin),
      body: { administrators: [admin.userId] },
    });
    expect(told.status).toBe(200);
    const [notifications] = await events('protect.notifications_updated');
    expect(notifications?.changes.siteward_protect_notifications).toEqual({
      before: null,
      after: { administrators: [admin.userId], webhook: false },
    });
  });
});
