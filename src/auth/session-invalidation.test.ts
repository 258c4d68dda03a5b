import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { freshPgSchema, type PgSchema } from '../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

function whoami(api: SitewardApi): void {
  api.registerRoute('auth-test/v1', '/whoami', {
    methods: ['GET', 'POST'],
    callback: (req) => ({ id: req.user.id, admin: req.user.can('manage_options') }),
  });
}

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

// Two instances on one store behave as two workers of `siteward start`: each has its own caches.
// On SQLite every request reads the credentials version; on PostgreSQL it is pushed by
// LISTEN/NOTIFY, so "at once" there means from the moment the notification has arrived.
describe.each(stores)('a credentials change made by one worker, on %s', (backend) => {
  let dir: string;
  let schema: PgSchema | null = null;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-two-workers-'));
    if (backend === 'postgres') schema = await freshPgSchema();
    const env: Record<string, string> = schema ? { SITEWARD_DATABASE_URL: schema.url } : {};
    first = await createTestApp({ dataDir: dir, env, plugins: [whoami] });
    second = await createTestApp({ dataDir: dir, env, plugins: [whoami] });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** PostgreSQL: until the second worker has heard of the first one's change (bounded). */
  const notified = async () => {
    if (backend !== 'postgres') return;
    const target = await first.store.sessions.credentialsVersion();
    const deadline = Date.now() + 5000;
    while ((await second.store.sessions.credentialsVersion()) < target) {
      if (Date.now() > deadline) throw new Error('the credentials version never reached the other worker');
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const me = async (app: TestApp, user: LoggedIn) => (await app.request({ path: '/wp-json/auth-test/v1/whoami', headers: app.auth(user) })).json;
  const writeAs = async (app: TestApp, user: LoggedIn) => (await app.request({ method: 'POST', path: '/wp-json/auth-test/v1/whoami', headers: app.auth(user) })).status;

  it('logs the cookie out on the other worker at once', async () => {
    const user = await first.loginAs('editor');
    // The other worker has verified (and cached) the cookie.
    expect(await me(second, user)).toMatchObject({ id: user.userId });
    const out = await first.request({ method: 'POST', path: '/logout', headers: { ...first.auth(user), 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBe(200);
    await notified();
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await writeAs(second, user));
    expect(statuses.filter((s) => s === 200)).toEqual([]);
  });

  it('ends the sessions of a changed password on the other worker at once', async () => {
    const user = await first.loginAs('editor');
    expect(await me(second, user)).toMatchObject({ id: user.userId });
    expect((await first.app.users.setPassword(user.login, 'a-brand-new-password')).ok).toBe(true);
    await notified();
    expect(await writeAs(second, user)).not.toBe(200);
  });

  it('applies a role change on the other worker at once', async () => {
    const user = await first.loginAs('administrator');
    expect(await me(second, user)).toMatchObject({ id: user.userId, admin: true });
    await first.store.users.setRoles(user.userId, ['subscriber']);
    await notified();
    expect(await me(second, user)).toMatchObject({ id: user.userId, admin: false });
  });
});
