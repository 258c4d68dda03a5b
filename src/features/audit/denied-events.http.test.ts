/**
 * A write refused by its endpoint's permission check, from a logged-in user, is a `rest.denied`
 * event with result `denied` (single requests and each `batch/v1` item); reads and anonymous
 * refusals are not recorded. Refusals of one client, route, credential and code collapse per
 * 10-minute window: the first is written at once, the rest become one event with their count
 * once the window ended (the app's clock is injected; its job runs by `app.jobs.tick()`). On
 * SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent } from '../../wire/audit.js';

const WINDOW = 10 * 60_000;

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('denied events on %s', (backend) => {
  let t: TestApp;
  let editor: LoggedIn;
  let now = Date.now();
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, clock: () => now, ...(schema ? { env: { SITEWARD_DATABASE_URL: schema.url } } : {}) });
    await t.loginAs('administrator', { login: 'boss' }); // user 1, whom the editor may not change
    editor = await t.loginAs('editor', { login: 'ed' });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
  });

  const denied = (): Promise<AuditEvent[]> => t.store.auditLog.list({ result: 'denied' }, { limit: 100, offset: 0, order: 'asc' });
  const until = (n: number) => vi.waitUntil(async () => (await denied()).length >= n, { timeout: 10_000, interval: 10 });
  /** The refusals of `route` counted so far in windows not yet flushed. */
  const counted = async (route: string): Promise<number> => {
    const result = await t.store.tables.run((db) =>
      sql<{ n: number | string }>`SELECT coalesce(sum(count), 0) AS n FROM audit_denied_counts WHERE route = ${route}`.execute(db),
    );
    return Number(result.rows[0]?.n ?? 0);
  };

  const cases: { name: string; method: string; path: string; body?: object; route: string; status: number }[] = [
    {
      name: 'a module toggle',
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/protect/active',
      body: { active: false },
      route: '/jetpack/v4/module/(?P<slug>[a-z\\-]+)/active',
      status: 403,
    },
    {
      name: 'a settings write',
      method: 'POST',
      path: '/wp-json/jetpack/v4/settings',
      body: { carousel: true },
      route: '/jetpack/v4/settings',
      status: 403,
    },
    {
      name: 'a user deletion',
      method: 'DELETE',
      path: '/wp-json/wp/v2/users/1?force=true&reassign=false',
      route: '/wp/v2/users/(?P<id>[\\d]+)',
      status: 403,
    },
  ];

  it.each(cases)('records $name refused to an editor', async ({ method, path, body, status }) => {
    const before = (await denied()).length;
    const res = await t.request({ method, path, headers: t.auth(editor), ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(status);
    await until(before + 1);
    const event = (await denied())[before]!;
    expect(event).toMatchObject({
      action: 'rest.denied',
      result: 'denied',
      actor: { kind: 'user', login: 'ed', credential: { type: 'session' } },
      object: { type: 'route', id: `${method} ${path.replace('/wp-json', '').split('?')[0]}` },
      changes: { status: { after: status }, code: { after: (res.json as { code: string }).code } },
    });
    expect(event.request_id).not.toBe('');
  });

  it('records each refused batch item, and no read or anonymous refusal', async () => {
    now += WINDOW; // the user deletion above refused the same route: a new window records it again
    const before = (await denied()).length;
    const batch = await t.request({
      method: 'POST',
      path: '/wp-json/batch/v1',
      headers: t.auth(editor),
      body: {
        requests: [
          { method: 'POST', path: '/wp/v2/users/1', body: { email: 'taken@example.org' } },
          { method: 'DELETE', path: '/wp/v2/users/1?force=true&reassign=false' },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(207);
    await until(before + 2);
    // Each item's refusal is recorded on its own, so on PostgreSQL two may commit in either order.
    expect(
      (await denied())
        .slice(before)
        .map((e) => e.object?.id)
        .sort(),
    ).toEqual(['DELETE /wp/v2/users/1', 'POST /wp/v2/users/1']);

    // A refused read and an anonymous write, then one more recorded write: only that one follows.
    expect((await t.request({ path: '/wp-json/siteward/v1/audit', headers: t.auth(editor) })).status).toBe(403);
    expect((await t.request({ method: 'POST', path: '/wp-json/jetpack/v4/settings', body: { carousel: true } })).status).toBe(401);
    await t.request({ method: 'POST', path: '/wp-json/jetpack/v4/module/stats/active', headers: t.auth(editor), body: { active: false } });
    await until(before + 3);
    const last = (await denied()).slice(before + 2);
    expect(last.map((e) => e.object?.id)).toEqual(['POST /jetpack/v4/module/stats/active']);
  });

  it('collapses a client hammering a refused route into one event with the count once the window ended', async () => {
    now = now - (now % WINDOW) + WINDOW; // a fresh window: its 59 seconds of refusals stay in it
    await t.app.jobs.tick(); // what earlier windows left
    const before = (await denied()).length;
    const hammer = () =>
      t.request({ method: 'POST', path: '/wp-json/jetpack/v4/module/protect/active', headers: t.auth(editor), body: { active: false } });
    const first = now;
    expect((await hammer()).status).toBe(403);
    await until(before + 1);
    for (let i = 1; i < 60; i++) {
      now += 1000;
      expect((await hammer()).status).toBe(403);
    }
    // Another route of the same client is counted apart, and recorded at once.
    await t.request({ method: 'POST', path: '/wp-json/jetpack/v4/settings', headers: t.auth(editor), body: { carousel: true } });
    await until(before + 2);
    // Each refusal is counted after its answer went out: the last ones may still be on their way.
    await vi.waitUntil(async () => (await counted('POST /jetpack/v4/module/protect/active')) === 60, { timeout: 10_000, interval: 10 });
    const last = now;

    // The window is not over: the counters wait; then one event carries the 59 others' count.
    await t.app.jobs.tick();
    expect((await denied()).length).toBe(before + 2);
    now = first - (first % WINDOW) + WINDOW + 1;
    await t.app.jobs.tick();
    const events = (await denied()).slice(before);
    expect(events.map((e) => [e.object?.id, e.count ?? 1])).toEqual([
      ['POST /jetpack/v4/module/protect/active', 1],
      ['POST /jetpack/v4/settings', 1],
      ['POST /jetpack/v4/module/protect/active', 60],
    ]);
    expect(events[2]).toMatchObject({
      action: 'rest.denied',
      result: 'denied',
      actor: { login: 'ed', credential: { type: 'session' } },
      changes: { status: { after: 403 } },
      first_time: first,
      last_time: last,
      request_id: '',
    });
    // The settings write was refused once: nothing more for it. A refusal in the new window is recorded at once.
    expect((await hammer()).status).toBe(403);
    await until(before + 4);
  });
});
