import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../plugins/api.js';
import { testStores, type TestBackend } from '../../store/testing/test-stores.js';
import type { Store } from '../../store/types.js';
import type { BackupSetup } from './backup-setup.js';
import { localTarget } from './backup-target.js';
import { readLastRun, scheduledBackupJob } from './scheduled-backup.js';

describe('the scheduled backup job', () => {
  let backend: TestBackend;
  let store: Store;
  let root: string;
  beforeAll(async () => {
    backend = testStores()[0]!;
    store = await backend.open();
    root = mkdtempSync(path.join(tmpdir(), 'siteward-sched-'));
  });
  afterAll(async () => {
    await backend.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('logs a failed backup as an error and stores it, instead of failing silently', async () => {
    const dir = path.join(root, 'not-a-dir');
    writeFileSync(dir, '');
    const errors: unknown[] = [];
    const log: Logger = {
      info: () => undefined,
      warn: () => undefined,
      debug: () => undefined,
      error: (obj, msg) => void errors.push([obj, msg]),
    };
    const setup: BackupSetup = {
      targets: [localTarget(dir)],
      key: null,
      location: { backend: 'sqlite', dataDir: backend.dataDir },
      retention: { keepCount: 14, maxAgeDays: 14 },
      migrations: {},
      storeId: async () => '00000000-0000-4000-8000-000000000004',
    };
    const job = scheduledBackupJob({
      setup,
      schedule: { kind: 'interval', everyMs: 86_400_000 },
      status: store.status,
      log,
      clock: () => 1_700_000_000_000,
    });
    await job.run();
    expect(errors).toEqual([[{ targets: [dir], problem: expect.stringMatching(/^backup failed: /) }, 'backup failed']]);
    expect(await readLastRun(store.status)).toMatchObject({ ok: false, time: 1_700_000_000_000 });
    // Not due again within the hour: one failure is one error line, not one a minute.
    await job.run();
    expect(errors).toHaveLength(1);
  });
});
