import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** A write of 64 KB: more than a page or two, so a database that may not grow cannot take it. */
function writer(api: SitewardApi): void {
  api.registerRoute('disk-test/v1', '/write', {
    methods: 'POST',
    callback: async (req) => {
      const key = String((req.json as { key: string }).key);
      await api.options.set(`disk_test_${key}`, 'x'.repeat(65_536), false);
      return { stored: key };
    },
  });
}

/**
 * A full disk, made real inside SQLite: `PRAGMA max_page_count` on the server's own connection
 * caps the database at its current size, and SQLite then fails writes that need a new page with
 * SQLITE_FULL, exactly as it does when the file system has no room.
 */
describe('a full disk under the SQLite store', () => {
  let app: TestApp;
  const pragma = (text: string) => app.store.tables.run((db) => sql.raw(text).execute(db));
  beforeAll(async () => {
    app = await createTestApp({ plugins: [writer], startJobs: false });
  });
  afterAll(() => app.close());

  const write = (key: string) => app.request({ method: 'POST', path: '/wp-json/disk-test/v1/write', body: { key } });

  it('answers writes 503 siteward_store_unavailable with Retry-After, keeps reads working, and reports it on /healthz until a write succeeds', async () => {
    expect((await write('before')).status).toBe(200);
    const { rows } = (await pragma('PRAGMA page_count')) as { rows: { page_count: number }[] };
    await pragma(`PRAGMA max_page_count = ${rows[0]!.page_count}`);

    const full = await write('full');
    expect(full.status).toBe(503);
    expect(full.json).toMatchObject({ code: 'siteward_store_unavailable', data: { status: 503 } });
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
    // Reads keep working.
    expect((await app.request({ path: '/wp-json/' })).status).toBe(200);
    const health = await app.request({ path: '/healthz' });
    expect(health.status).toBe(503);
    expect(health.json).toEqual({ status: 'unavailable', store: 'sqlite' });
    expect((await app.request({ path: '/healthz' })).status).toBe(503);

    // Room again: the health check's own write succeeds, and so do requests.
    await pragma('PRAGMA max_page_count = 1073741823');
    expect((await app.request({ path: '/healthz' })).status).toBe(200);
    expect((await write('after')).status).toBe(200);
  });
});

/** An 8 MB tmpfs of our own, when this process may mount one (root with CAP_SYS_ADMIN); null otherwise. */
function smallDisk(): { dir: string; unmount(): void } | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const disk = smallDisk();
if (!disk) console.warn('full-tmpfs tests skipped: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)');

/**
 * A disk that is really full: the data directory on an 8 MB tmpfs filled to the last byte, so
 * that SQLite cannot grow its write-ahead log and every write fails, small ones too (unlike
 * `max_page_count`, which leaves room inside existing pages).
 */
describe.skipIf(!disk)('a full 8 MB tmpfs under the SQLite store', () => {
  let app: TestApp;
  let used: Record<string, string>;
  let fresh: Record<string, string>;
  let cookie: Record<string, string>;
  beforeAll(async () => {
    app = await createTestApp({ dataDir: path.join(disk!.dir, 'data'), plugins: [writer], startJobs: false });
    const admin = await app.loginAs('administrator', { login: 'disk-admin' });
    cookie = app.auth(admin);
    const make = async (name: string) => {
      const created = await app.app.authenticator.appPasswords.create('disk-admin', name);
      if (!created.ok) throw new Error(created.message);
      return { Authorization: `Basic ${Buffer.from(`disk-admin:${created.password}`).toString('base64')}` };
    };
    used = await make('used before');
    // Never used: its first check needs a Protect slot (a write) and records its first use (another).
    fresh = await make('first use on a full disk');
  });
  afterAll(async () => {
    await app?.close();
    disk?.unmount();
  });

  const write = (key: string) => app.request({ method: 'POST', path: '/wp-json/disk-test/v1/write', body: { key } });
  const settings = (headers: Record<string, string>) => app.request({ path: '/wp-json/jetpack/v4/settings', headers });

  it('keeps reads working for every credential kind: anonymous, login cookie and application passwords (Basic)', async () => {
    expect((await settings(used)).status).toBe(200);
    // Fill the disk, then write until the store says so.
    const filler = openSync(path.join(disk!.dir, 'filler'), 'w');
    try {
      const chunk = Buffer.alloc(64 * 1024, 1);
      for (;;) writeSync(filler, chunk);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(filler);
    }
    let refused = 0;
    for (let i = 0; i < 200 && refused === 0; i++) if ((await write(`fill-${i}`)).status === 503) refused += 1;
    expect(refused).toBe(1);

    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => settings(fresh)),
      ...Array.from({ length: 10 }, () => settings(used)),
      ...Array.from({ length: 5 }, () => settings(cookie)),
      ...Array.from({ length: 5 }, () => app.request({ path: '/wp-json/' })),
    ]);
    expect(answers.map((a) => `${a.status} ${a.status === 200 ? '' : a.text}`)).toEqual(answers.map(() => '200 '));
    // A wrong application password is still judged (401), neither waved through nor answered 503.
    const wrong = await settings({ Authorization: `Basic ${Buffer.from('disk-admin:AAAAbbbbCCCCddddEEEEffff').toString('base64')}` });
    expect(wrong.status).toBe(401);
    // Writes still answer 503 meanwhile.
    expect((await write('still-full')).status).toBe(503);
  });
});
