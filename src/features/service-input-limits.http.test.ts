/**
 * What administrators store for the services Siteward runs is bounded (issue 38): the monitor's
 * checks, maintenance windows and notification settings, and Protect's allow list. Each limit is
 * a clear 400 (409 for a count, as for checks) that names it, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../test/helpers/test-app.js';

let app: TestApp;
let admin: LoggedIn;

beforeAll(async () => {
  app = await createTestApp({ startJobs: false, env: { SITEWARD_MONITOR_URL: 'http://127.0.0.1:9/' } });
  admin = await app.loginAs('administrator', { login: 'boss' });
});
afterAll(() => app.close());

const monitor = (method: string, route: string, body?: object): Promise<TestResponse> =>
  app.request({ method, path: `/wp-json/siteward/v1/monitor${route}`, headers: app.auth(admin), ...(body ? { body } : {}) });
const detail = (res: TestResponse) => (res.json as { data?: { detail?: string } }).data?.detail;

describe('the monitor', () => {
  it('refuses a check whose URL, keyword or expected status is too long', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: `https://example.org/${'u'.repeat(2048)}` }, 'url must be at most 2048 characters long'],
      [{ url: 'https://example.org/', keyword: 'k'.repeat(1001) }, 'keyword must be at most 1000 characters long'],
      [{ url: 'https://example.org/', expectedStatus: '200,'.repeat(60) }, 'expectedStatus must be at most 200 characters long'],
    ];
    for (const [body, message] of cases) {
      const res = await monitor('POST', '/checks', body);
      expect(res.status, message).toBe(400);
      expect(detail(res), message).toBe(message);
    }
    const updated = await monitor('PATCH', '/checks/1', { keyword: 'k'.repeat(32 * 1024) });
    expect([updated.status, detail(updated)]).toEqual([400, 'keyword must be at most 1000 characters long']);
    // 5 MB: over what the route takes (64 KiB), refused by its size.
    const huge = await monitor('PATCH', '/checks/1', { keyword: 'k'.repeat(5 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const checks = (await monitor('GET', '/checks')).json as { checks: { id: number; keyword: string | null }[] };
    expect(checks.checks.map((c) => c.id)).toEqual([1]);
    expect(checks.checks[0]!.keyword).toBeNull();
    expect((await monitor('POST', '/checks', { url: `https://example.org/${'u'.repeat(2000)}`, keyword: 'k'.repeat(1000) })).status).toBe(
      200,
    );
  });

  it('keeps at most 50 maintenance windows, with a cron expression of at most 200 characters', async () => {
    const long = await monitor('POST', '/maintenance', { kind: 'cron', cron: `0 3 * * 0${' '.repeat(200)}`, durationMinutes: 30 });
    expect([long.status, detail(long)]).toEqual([400, 'cron must be at most 200 characters long']);
    for (let i = 0; i < 50; i += 1) {
      const res = await monitor('POST', '/maintenance', { kind: 'cron', cron: `${i} 3 * * 0`, durationMinutes: 30, note: `window ${i}` });
      expect(res.status).toBe(200);
    }
    const extra = await monitor('POST', '/maintenance', { kind: 'cron', cron: '0 4 * * 0', durationMinutes: 30 });
    expect(extra.status).toBe(409);
    expect(extra.json).toMatchObject({
      code: 'monitor_too_many_windows',
      message: 'A site has at most 50 maintenance windows: remove one first.',
    });
    expect(((await monitor('GET', '/maintenance')).json as { windows: unknown[] }).windows).toHaveLength(50);
  });

  it('refuses notification addresses over 100 characters and more than 100 administrators', async () => {
    const email = await monitor('POST', '/notifications', { emails: [`${'e'.repeat(32 * 1024)}@example.org`] });
    expect(email.status).toBe(400);
    expect(detail(email)).toBe('emails must be a list of at most 20 e-mail addresses of at most 100 characters each');
    const admins = await monitor('POST', '/notifications', { administrators: Array.from({ length: 101 }, (_, i) => i + 1) });
    expect([admins.status, detail(admins)]).toEqual([400, 'administrators must list at most 100 user ids']);
    const stored = (await monitor('GET', '/notifications')).json as { emails: string[] };
    expect(stored.emails).toEqual([]);
  });
});

describe("Protect's allow list", () => {
  const save = (list: string) =>
    app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/protect',
      headers: app.auth(admin),
      body: { jetpack_protect_global_whitelist: list },
    });
  const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

  it('holds at most 1000 entries, and a longer list saves nothing', async () => {
    expect((await save('192.0.2.1')).status).toBe(200);
    const tooMany = await save(Array.from({ length: 1001 }, (_, i) => address(i)).join(','));
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.json)).toContain('may hold at most 1000 entries');
    const many = await save(Array.from({ length: 50_000 }, (_, i) => address(i)).join('\n'));
    expect(many.status).toBe(400);
    const shown = (await app.request({ path: '/wp-json/jetpack/v4/module/protect', headers: app.auth(admin) })).json;
    expect(JSON.stringify(shown)).toContain('"local":["192.0.2.1"]');
    expect((await save(Array.from({ length: 1000 }, (_, i) => address(i)).join(','))).status).toBe(200);
  });
});
