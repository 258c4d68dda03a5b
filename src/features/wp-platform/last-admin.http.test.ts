import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('the last administrator on %s', (backend) => {
  let t: TestApp;
  let schema: PgSchema | null = null;
  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ env: schema ? { SITEWARD_DATABASE_URL: schema.url } : {} });
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  const as = (user: LoggedIn, method: string, path: string, body?: object) =>
    t.request({ method, path: `/wp-json/wp/v2${path}`, headers: t.auth(user), body });
  const admins = () => t.store.users.countByRole('administrator');

  it('survives two administrators deleting each other at the same moment, round after round', async () => {
    let survivor = await t.loginAs('administrator');
    for (let round = 0; round < 6; round++) {
      const other = await t.loginAs('administrator');
      expect(await admins()).toBe(2);
      const answers = await Promise.all([
        as(survivor, 'DELETE', `/users/${other.userId}?force=true&reassign=false`),
        as(other, 'DELETE', `/users/${survivor.userId}?force=true&reassign=false`),
      ]);
      expect(await admins()).toBe(1);
      // Exactly one delete went through; the other was refused (409, or its caller was already gone).
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      survivor = answers[0]!.status === 200 ? survivor : other;
      expect((await as(survivor, 'GET', '/users/me')).status).toBe(200);
    }
  });

  it('survives two administrators demoting each other at the same moment, round after round', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await t.loginAs('administrator');
      const b = await t.loginAs('administrator');
      for (const user of await t.store.users.list())
        if (user.id !== a.userId && user.id !== b.userId) await t.store.users.setRoles(user.id, ['editor']);
      expect(await admins()).toBe(2);
      const answers = await Promise.all([
        as(a, 'PUT', `/users/${b.userId}`, { roles: ['editor'] }),
        as(b, 'PUT', `/users/${a.userId}`, { roles: ['editor'] }),
      ]);
      expect(await admins()).toBe(1);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    }
  });
});
