import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

/**
 * Read-only files are made with `chattr +i` (immutable), which holds even for root, where
 * file modes do not; without it (another file system, no privilege) the test is skipped.
 */
function chattrWorks(): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-chattr-'));
  const file = path.join(dir, 'probe');
  try {
    execFileSync('touch', [file]);
    execFileSync('chattr', ['+i', file], { stdio: 'pipe' });
    execFileSync('chattr', ['-i', file], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const immutable = chattrWorks();
if (!immutable) console.warn('read-only recovery test skipped: chattr +i is not available here');

function writer(api: SitewardApi): void {
  api.registerRoute('ro-test/v1', '/write', {
    methods: 'POST',
    callback: async () => {
      await api.options.set('ro_test', Date.now(), false);
      return { ok: true };
    },
  });
}

describe.skipIf(!immutable)('a worker started while the database file was read-only', () => {
  let dir: string;
  let db: string;
  let app: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-ro-'));
    db = path.join(dir, 'siteward.db');
    // A first start creates the database; the second starts with the file read-only.
    await (await createTestApp({ dataDir: dir, plugins: [writer] })).close();
    execFileSync('chattr', ['+i', db]);
    app = await createTestApp({ dataDir: dir, plugins: [writer], startJobs: false });
  });
  afterAll(async () => {
    execFileSync('chattr', ['-i', db], { stdio: 'pipe' });
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const write = () => app.request({ method: 'POST', path: '/wp-json/ro-test/v1/write' });

  it('answers writes with a clear 503 while the file is read-only', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await write();
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: 'siteward_store_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
    }
  });

  it('writes again, without a restart, once the file is writable', async () => {
    execFileSync('chattr', ['-i', db]);
    const res = await write();
    expect(res.status).toBe(200);
    expect((await write()).status).toBe(200);
  });
});
