import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

function counter(api: SitewardApi): void {
  api.registerRoute('busy-test/v1', '/count', {
    methods: 'POST',
    callback: async () => ({ count: await api.options.update('busy_test_count', (n) => (typeof n === 'number' ? n : 0) + 1) }),
  });
  api.registerRoute('busy-test/v1', '/count', {
    methods: 'GET',
    callback: async () => ({ count: (await api.options.get('busy_test_count')) ?? 0 }),
  });
}

describe('a SQLite write lock held by another process past the statement timeout', () => {
  let dir: string;
  let app: TestApp;
  let other: BetterSqlite3.Database;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-busy-'));
    app = await createTestApp({ dataDir: dir, plugins: [counter], startJobs: false, env: { SITEWARD_DB_STATEMENT_TIMEOUT_MS: '150' } });
    // Another process's connection (an operator's sqlite3 shell, a backup tool): SQLite's own
    // locks apply between it and the server, not the server's in-process gate.
    other = new BetterSqlite3(path.join(dir, 'siteward.db'));
  });
  afterAll(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const increment = () => app.request({ method: 'POST', path: '/wp-json/busy-test/v1/count' });

  it('answers a write with 503 siteward_store_unavailable and Retry-After, not 500', async () => {
    expect((await increment()).json).toEqual({ count: 1 });
    other.exec('BEGIN IMMEDIATE');
    try {
      const res = await increment();
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: 'siteward_store_unavailable', data: { status: 503 } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Reads do not wait for a writer in WAL mode.
      expect((await app.request({ path: '/wp-json/busy-test/v1/count' })).json).toEqual({ count: 1 });
    } finally {
      other.exec('ROLLBACK');
    }
  });

  it('writes again once the lock is released, with nothing lost or applied twice', async () => {
    expect((await increment()).json).toEqual({ count: 2 });
    expect((await app.request({ path: '/wp-json/busy-test/v1/count' })).json).toEqual({ count: 2 });
  });
});
