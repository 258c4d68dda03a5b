/**
 * Application passwords created, renamed and revoked (one, then all) are recorded with the
 * request's actor, by uuid and name, never with the password or its hash.
 * On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('audit events of application passwords on %s', (backend) => {
  let schema: PgSchema | null = null;
  let t: TestApp;
  let admin: LoggedIn;
  const base = '/wp-json/wp/v2/users/me/application-passwords';

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, ...(schema ? { env: { SITEWARD_DATABASE_URL: schema.url } } : {}) });
    admin = await t.loginAs('administrator', { login: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
  });

  it('records created, renamed and revoked', async () => {
    const make = async (name: string) =>
      (await t.request({ method: 'POST', path: base, headers: t.auth(admin), body: { name } })).json as { uuid: string; password: string };
    const first = await make('ci');
    const second = await make('phone');
    expect(
      (await t.request({ method: 'POST', path: `${base}/${first.uuid}`, headers: t.auth(admin), body: { name: 'ci runner' } })).status,
    ).toBe(200);
    expect((await t.request({ method: 'DELETE', path: `${base}/${first.uuid}`, headers: t.auth(admin) })).status).toBe(200);
    expect((await t.request({ method: 'DELETE', path: base, headers: t.auth(admin) })).status).toBe(200);

    const events = await t.store.auditLog.list({ action: 'app_password.' }, { limit: 100, offset: 0, order: 'asc' });
    expect(events.map((e) => [e.action, e.object?.id, e.changes.name])).toEqual([
      ['app_password.created', first.uuid, { before: null, after: 'ci' }],
      ['app_password.created', second.uuid, { before: null, after: 'phone' }],
      ['app_password.renamed', first.uuid, { before: 'ci', after: 'ci runner' }],
      ['app_password.revoked', first.uuid, { before: 'ci runner', after: null }],
      ['app_password.revoked', second.uuid, { before: 'phone', after: null }],
    ]);
    for (const e of events) expect(e.actor).toMatchObject({ kind: 'user', login: 'owner', credential: { type: 'session' } });
    const all = JSON.stringify(events);
    for (const secret of [first.password, second.password]) {
      expect(all).not.toContain(secret);
      expect(all).not.toContain(createHash('sha256').update(secret.replace(/ /g, '')).digest('hex'));
    }
  });
});
