/**
 * A write refused by its endpoint's permission check, from a logged-in user, is a `rest.denied`
 * event with result `denied` (single requests and each `batch/v1` item); reads and anonymous
 * refusals are not recorded.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEvent } from '../../wire/audit.js';

describe('denied events', () => {
  let t: TestApp;
  let editor: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({ startJobs: false });
    await t.loginAs('administrator', { login: 'boss' }); // user 1, whom the editor may not change
    editor = await t.loginAs('editor', { login: 'ed' });
  });
  afterAll(() => t.close());

  const denied = (): Promise<AuditEvent[]> => t.store.auditLog.list({ result: 'denied' }, { limit: 100, offset: 0, order: 'asc' });
  const until = (n: number) => vi.waitUntil(async () => (await denied()).length >= n, { timeout: 10_000, interval: 10 });

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
    expect((await denied()).slice(before).map((e) => e.object?.id)).toEqual(['POST /wp/v2/users/1', 'DELETE /wp/v2/users/1']);

    // A refused read and an anonymous write, then one more recorded write: only that one follows.
    expect((await t.request({ path: '/wp-json/siteward/v1/audit', headers: t.auth(editor) })).status).toBe(403);
    expect((await t.request({ method: 'POST', path: '/wp-json/jetpack/v4/settings', body: { carousel: true } })).status).toBe(401);
    await t.request({ method: 'POST', path: '/wp-json/jetpack/v4/module/stats/active', headers: t.auth(editor), body: { active: false } });
    await until(before + 3);
    const last = (await denied()).slice(before + 2);
    expect(last.map((e) => e.object?.id)).toEqual(['POST /jetpack/v4/module/stats/active']);
  });
});
