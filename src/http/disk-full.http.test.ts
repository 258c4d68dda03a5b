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
