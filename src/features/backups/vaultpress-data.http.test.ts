import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';
import { LAST_RUN_KEY } from './scheduled-backup.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);

let apps: TestApp[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-vp-'));
  dirs.push(dir);
  return dir;
}

/** An app whose clock the test moves and whose jobs run only when the test ticks them. */
async function appWithClock(env: Record<string, string>): Promise<{ t: TestApp; at(ms: number): void }> {
  let now = T0;
  const t = await createTestApp({ env, clock: () => now, startJobs: false });
  apps.push(t);
  return { t, at: (ms) => void (now = ms) };
}

/** Backup files anywhere under `dir` (each store keeps its own folder). */
const ids = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.swbak'))
    .map((n) => path.basename(n))
    .sort();

describe('GET module/vaultpress/data', () => {
  it('is 401 for anonymous callers and, in dev mode, 403 for subscribers (jetpack_admin_page)', async () => {
    const { t } = await appWithClock({ SITEWARD_BACKUP_DIR: tempDir() });
    expect((await call(t, 'GET', '/module/vaultpress/data')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
    const offline = await createTestApp({ env: { SITEWARD_OFFLINE: '1' } });
    apps.push(offline);
    const subscriber = await offline.loginAs('subscriber');
    expect((await call(offline, 'GET', '/module/vaultpress/data', { as: subscriber })).json).toEqual(
      permissionBody('invalid_user_permission_view_admin', 403),
    );
  });

  it('answers not_registered while no backup directory is configured', async () => {
    const { t } = await appWithClock({});
    const admin = await t.loginAs('administrator');
    const res = await call(t, 'GET', '/module/vaultpress/data', { as: admin });
    expect([res.status, res.json]).toEqual([
      200,
      {
        code: 'not_registered',
        message: 'Backups are not set up on this site: set SITEWARD_BACKUP_DIR or SITEWARD_BACKUP_S3_URL to turn them on.',
      },
    ]);
  });

  it('shows Data Backups unavailable, not on, with what to set, and refuses to turn it on while no target is configured', async () => {
    const { t } = await appWithClock({});
    const admin = await t.loginAs('administrator');
    const reason = {
      code: 'not_configured',
      message:
        'It needs a place to keep backups, and none is set: set SITEWARD_BACKUP_DIR (a directory) or SITEWARD_BACKUP_S3_URL (a bucket), then restart Siteward.',
      settings: ['SITEWARD_BACKUP_DIR', 'SITEWARD_BACKUP_S3_URL'],
    };
    const all = (await call(t, 'GET', '/module/all', { as: admin })).json as Record<string, Record<string, unknown>>;
    expect(all.vaultpress).toMatchObject({ available: false, activated: false, unavailable_reason: reason });
    expect((await call(t, 'GET', '/module/vaultpress', { as: admin })).json).toMatchObject({
      activated: false,
      unavailable_reason: reason,
    });
    const refused = await call(t, 'POST', '/module/vaultpress/active', { as: admin, body: { active: true } });
    expect([refused.status, refused.json]).toEqual([
      424,
      {
        code: 'activation_failed',
        message: `The requested Jetpack module could not be activated. ${reason.message}`,
        data: { status: 424 },
      },
    ]);

    const { t: configured } = await appWithClock({ SITEWARD_BACKUP_DIR: tempDir() });
    const boss = await configured.loginAs('administrator');
    const ready = (await call(configured, 'GET', '/module/all', { as: boss })).json as Record<string, Record<string, unknown>>;
    expect(ready.vaultpress).toMatchObject({ available: true, activated: true, unavailable_reason: null });
  });

  it('answers 404 not_active once the module is deactivated', async () => {
    const { t } = await appWithClock({ SITEWARD_BACKUP_DIR: tempDir() });
    const admin = await t.loginAs('administrator');
    expect((await call(t, 'POST', '/module/vaultpress/active', { as: admin, body: { active: false } })).status).toBe(200);
    const res = await call(t, 'GET', '/module/vaultpress/data', { as: admin });
    expect([res.status, res.json]).toEqual([
      404,
      { code: 'not_active', message: 'The requested Jetpack module is not active.', data: { status: 404 } },
    ]);
  });

  it('says it will back up soon, then reports the scheduled backup the job took, to any logged-in user outside dev mode', async () => {
    const dir = tempDir();
    const { t, at } = await appWithClock({ SITEWARD_BACKUP_DIR: dir });
    const subscriber = await t.loginAs('subscriber');
    const before = await call(t, 'GET', '/module/vaultpress/data', { as: subscriber });
    expect(before.json).toEqual({
      code: 'success',
      message: 'VaultPress is active and will back up your site soon.',
      data: {
        backups: {
          last_backup: null,
          status: 'none',
          size: null,
          id: null,
          count: 0,
          next_backup: T0 / 1000,
          last_failure: null,
          store_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          backend: 'sqlite',
          encrypted: false,
          targets: [
            {
              kind: 'local',
              where: dir,
              status: 'none',
              count: 0,
              last_backup: null,
              id: null,
              size: null,
              last_failure: null,
              verification: null,
            },
          ],
          verification: null,
          next_verification: T0 / 1000,
        },
        security: { notice_count: 0 },
      },
    });

    await t.app.jobs.tick();
    expect(ids(dir)).toHaveLength(1);
    at(T0 + 2 * 3_600_000);
    const after = (await call(t, 'GET', '/module/vaultpress/data', { as: subscriber })).json as {
      message: string;
      data: { backups: Record<string, unknown> };
    };
    expect(after.message).toBe('Your site was successfully backed-up 2 hours ago.');
    expect(after.data.backups).toMatchObject({
      last_backup: T0 / 1000,
      status: 'ok',
      count: 1,
      next_backup: (T0 - (T0 % DAY) + DAY) / 1000,
      last_failure: null,
    }); // `1d` runs at 00:00 UTC
    expect(after.data.backups.size).toBeGreaterThan(1000);
    expect(`${String(after.data.backups.id)}.swbak`).toBe(ids(dir)[0]);
  });

  it('does not promise a backup soon while the schedule is off, and says how to take one', async () => {
    const { t } = await appWithClock({ SITEWARD_BACKUP_DIR: tempDir(), SITEWARD_BACKUP_SCHEDULE: 'off' });
    const admin = await t.loginAs('administrator');
    const res = (await call(t, 'GET', '/module/vaultpress/data', { as: admin })).json as {
      code: string;
      message: string;
      data: { backups: Record<string, unknown> };
    };
    expect(res.code).toBe('success');
    expect(res.message).toBe(
      'No backup yet, and automatic backups are off (SITEWARD_BACKUP_SCHEDULE=off): run `siteward backup now` to take one.',
    );
    expect(res.data.backups).toMatchObject({ status: 'none', next_backup: null, count: 0 });
  });

  it('reports a failed scheduled backup, keeps it in the status table, and tries again within the hour', async () => {
    const notADir = path.join(tempDir(), 'backups');
    writeFileSync(notADir, 'a file where the backup directory should be');
    const { t, at } = await appWithClock({ SITEWARD_BACKUP_DIR: notADir });
    const admin = await t.loginAs('administrator');
    await t.app.jobs.tick();
    const stored = await t.store.status.get(LAST_RUN_KEY);
    expect(stored?.value).toMatchObject({ ok: false, time: T0, message: expect.stringMatching(/^backup failed: /) });
    at(T0 + 10 * 60_000);
    const res = (await call(t, 'GET', '/module/vaultpress/data', { as: admin })).json as {
      code: string;
      message: string;
      data: { backups: Record<string, unknown> };
    };
    expect(res.code).toBe('success');
    expect(res.message).toMatch(/^The last backup failed 10 mins ago: backup failed: /);
    expect(res.data.backups).toMatchObject({
      status: 'failed',
      last_backup: null,
      next_backup: (T0 + 3_600_000) / 1000,
      last_failure: { time: T0 / 1000 },
    });
  });

  it('keeps exactly the backups retention allows as the daily job runs', async () => {
    const dir = tempDir();
    const { t, at } = await appWithClock({
      SITEWARD_BACKUP_DIR: dir,
      SITEWARD_BACKUP_SCHEDULE: '1d',
      SITEWARD_BACKUP_KEEP: '3',
      SITEWARD_BACKUP_MAX_AGE_DAYS: '14',
    });
    const taken: string[] = [];
    for (let day = 0; day < 6; day++) {
      // Each day: one tick at the slot takes a backup, a second tick the same day takes none.
      at(Math.ceil((T0 + day * DAY) / DAY) * DAY + 60_000);
      await t.app.jobs.tick();
      const run = (await t.store.status.get(LAST_RUN_KEY))?.value as { id: string; deleted: string[] };
      taken.push(run.id);
      at(Math.ceil((T0 + day * DAY) / DAY) * DAY + 2 * 60_000 + 1);
      await t.app.jobs.tick();
      expect(ids(dir)).toEqual(taken.slice(-3).map((id) => `${id}.swbak`));
      expect(run.deleted).toEqual(day >= 3 ? [taken[day - 3]] : []);
    }
  });
});
