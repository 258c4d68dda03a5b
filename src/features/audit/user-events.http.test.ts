/**
 * wp/v2 user writes record who created, changed and deleted whom, in the write's transaction:
 * role changes before → after, a password change only as "changed" (never the password or
 * its hash), a refused deletion (the last administrator) records nothing.
 * On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent } from '../../wire/audit.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('audit events of user writes on %s', (backend) => {
  let schema: PgSchema | null = null;
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, ...(schema ? { env: { SITEWARD_DATABASE_URL: schema.url } } : {}) });
    admin = await t.loginAs('administrator', { login: 'chief' });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
  });

  const events = (action: string): Promise<AuditEvent[]> => t.store.auditLog.list({ action }, { limit: 100, offset: 0, order: 'asc' });
  const users = (path: string, method: string, body?: object) =>
    t.request({ method, path: `/wp-json/wp/v2/users${path}`, headers: t.auth(admin), ...(body && { body }) });

  it('records creation, role and password changes and deletion with reassignment', async () => {
    const password = 'correct horse battery staple 42!';
    const created = await users('', 'POST', { username: 'writer1', email: 'w1@example.org', password, roles: ['author'] });
    expect(created.status).toBe(201);
    const id = (created.json as { id: number }).id;
    const [made] = await events('user.created');
    expect(made).toMatchObject({
      actor: { kind: 'user', login: 'chief', credential: { type: 'session' } },
      object: { type: 'user', id: String(id), name: 'writer1' },
      changes: { roles: { before: null, after: ['author'] }, password: { secret: true } },
    });

    const newPassword = 'another long passphrase 77?';
    expect((await users(`/${id}`, 'POST', { roles: ['editor'], password: newPassword })).status).toBe(200);
    const [role] = await events('user.role_changed');
    expect(role).toMatchObject({ object: { id: String(id) }, changes: { roles: { before: ['author'], after: ['editor'] } } });
    expect(await events('user.password_changed')).toHaveLength(1);

    const deleted = await users(`/${id}?force=true&reassign=${admin.userId}`, 'DELETE');
    expect(deleted.status).toBe(200);
    const [gone] = await events('user.deleted');
    expect(gone).toMatchObject({
      object: { id: String(id) },
      changes: { reassign: { before: null, after: admin.userId }, roles: { before: ['editor'], after: null } },
    });

    // Neither password nor any hash of it is in the log.
    const all = JSON.stringify(await t.store.auditLog.list({}, { limit: 1000, offset: 0 }));
    expect(all).not.toContain(password);
    expect(all).not.toContain(newPassword);
    expect(all).not.toContain('$argon2');

    // The last administrator cannot delete themself: refused, nothing recorded.
    expect((await users(`/${admin.userId}?force=true&reassign=false`, 'DELETE')).status).toBeGreaterThanOrEqual(400);
    expect(await events('user.deleted')).toHaveLength(1);
  });
});
