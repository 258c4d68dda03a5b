/**
 * Monitor's changes are audit events written with them: checks added, changed and removed,
 * maintenance windows added and removed, who is told (REST, by the administrator), and the
 * site going down and coming back up (the checker's repository, actor the job
 * `monitor.checker`). On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { featureDb } from '../db/feature-db.js';
import { KyselyMonitorRepo } from './monitor-repo.js';
import type { MonitorTables } from './monitor-tables.js';
import type { AuditEvent } from '../../wire/audit.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('audit events of Monitor on %s', (backend) => {
  let t: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, env: schema ? { SITEWARD_DATABASE_URL: schema.url } : {} });
    admin = await t.loginAs('administrator', { login: 'watcher' });
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  const events = async (prefix: string): Promise<AuditEvent[]> =>
    (await t.store.auditLog.list({ action: 'monitor.' }, { limit: 100, offset: 0, order: 'asc' })).filter((e) =>
      e.action.startsWith(prefix),
    );
  const call = (method: string, route: string, body?: object) =>
    t.request({ method, path: `/wp-json/siteward/v1/monitor${route}`, headers: t.auth(admin), ...(body ? { body } : {}) });

  it('records checks, maintenance windows and notification choices with before → after', async () => {
    const added = await call('POST', '/checks', { url: 'https://api.example.org/health' });
    expect(added.status).toBe(200);
    const id = (added.json as { id: number }).id;
    expect((await call('POST', `/checks/${id}`, { url: 'https://api.example.org/ready' })).status).toBe(200);
    expect((await call('DELETE', `/checks/${id}`)).status).toBe(200);
    const starts = new Date(Date.now() + 60_000).toISOString();
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const window = await call('POST', '/maintenance', { kind: 'once', starts, ends, note: 'deploy' });
    expect(window.status).toBe(200);
    const windowId = (window.json as { id: number }).id;
    expect((await call('DELETE', `/maintenance/${windowId}`)).status).toBe(200);
    expect((await call('POST', '/notifications', { emails: ['ops@example.org'] })).status).toBe(200);

    const checks = await events('monitor.check_');
    expect(checks.map((e) => [e.action, e.object?.id, e.changes.url])).toEqual([
      ['monitor.check_added', String(id), { before: null, after: 'https://api.example.org/health' }],
      ['monitor.check_updated', String(id), { before: 'https://api.example.org/health', after: 'https://api.example.org/ready' }],
      ['monitor.check_removed', String(id), { before: 'https://api.example.org/ready', after: null }],
    ]);
    const windows = await events('monitor.maintenance_');
    expect(windows.map((e) => [e.action, e.object?.name, e.changes.note])).toEqual([
      ['monitor.maintenance_added', 'deploy', { before: null, after: 'deploy' }],
      ['monitor.maintenance_removed', 'deploy', { before: 'deploy', after: null }],
    ]);
    const [told] = await events('monitor.notifications_updated');
    expect(JSON.stringify(told?.changes)).toContain('ops@example.org');
    for (const e of [...checks, ...windows, told!])
      expect(e.actor).toMatchObject({ kind: 'user', login: 'watcher', credential: { type: 'session' } });
  });

  it('records the site going down and up once, as the checker', async () => {
    const repo = new KyselyMonitorRepo(featureDb<MonitorTables>(t.store));
    const started = Date.now();
    const interval = await repo.startInterval(started, 'HTTP 503');
    await repo.closeInterval(interval, started + 60_000);
    await repo.closeInterval(interval, started + 90_000); // another host closing it too: nothing more
    const [down, up, ...more] = (await events('monitor.')).filter((e) => e.action === 'monitor.up' || e.action === 'monitor.down');
    expect(more).toEqual([]);
    expect(down).toMatchObject({
      action: 'monitor.down',
      actor: { kind: 'job', job: 'monitor.checker' },
      object: { type: 'monitor_check', id: '1' },
      changes: { reason: { after: 'HTTP 503' }, since: { after: started } },
    });
    expect(up).toMatchObject({ action: 'monitor.up', changes: { until: { after: started + 60_000 } } });
  });
});
