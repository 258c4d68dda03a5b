/**
 * A backup asked for on the Backups screen is recorded as `backup.created` by the administrator
 * who asked, with its id and size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

describe('audit events of backups', () => {
  const backupDir = mkdtempSync(path.join(tmpdir(), 'siteward-audit-backups-'));
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({ startJobs: false, env: { SITEWARD_BACKUP_DIR: backupDir, SITEWARD_BACKUP_SCHEDULE: 'off' } });
    admin = await t.loginAs('administrator', { login: 'keeper' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(backupDir, { recursive: true, force: true });
  });

  it('records the backup with the administrator who asked for it', async () => {
    const started = await t.request({ method: 'POST', path: '/wp-json/siteward/v1/backups', headers: t.auth(admin) });
    expect(started.json).toEqual({ started: true });
    const deadline = Date.now() + 30_000;
    let events = await t.store.auditLog.list({ action: 'backup.' }, { limit: 10, offset: 0 });
    while (events.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      events = await t.store.auditLog.list({ action: 'backup.' }, { limit: 10, offset: 0 });
    }
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'backup.created',
      result: 'ok',
      actor: { kind: 'user', login: 'keeper', credential: { type: 'session' } },
      object: { type: 'backup' },
    });
    const size = (events[0]!.changes.size as { after: number }).after;
    expect(size).toBeGreaterThan(0);
  });
});
