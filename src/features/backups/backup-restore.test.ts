import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores, type TestBackend } from '../../store/testing/test-stores.js';
import type { Store } from '../../store/index.js';
import { localTarget } from './backup-target.js';
import { createBackup, listBackups, restoreBackup, verifyBackup } from './backups.js';
import type { StoreLocation } from './store-location.js';
import { storeDumper, type StoreDump, type StoreDumper } from './testing/store-dump.js';

const STORE = '00000000-0000-4000-8000-000000000001';

function locationOf(backend: TestBackend): StoreLocation {
  const options = backend.storeOptions();
  return backend.name === 'sqlite'
    ? { backend: 'sqlite', dataDir: options.dataDir }
    : { backend: 'postgres', url: options.databaseUrl ?? '', schema: options.schema, dataDir: options.dataDir };
}

/** Waits for a condition, at most `ms`. */
async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(testStores())('backup and restore on $name', (backend) => {
  let store: Store;
  let dumper: StoreDumper;
  let backupDir: string;
  let location: StoreLocation;
  /** The whole store after each committed write, by the `counter` option that write set. */
  const states = new Map<number, StoreDump>();

  beforeAll(async () => {
    backupDir = mkdtempSync(join(tmpdir(), 'siteward-backups-'));
    location = locationOf(backend);
    store = await backend.open();
    for (const login of ['admin', 'editor', 'author']) {
      const user = await store.users.create({
        login,
        email: `${login}@example.com`,
        displayName: login,
        passHash: `hash-${login}`,
        registered: 1_700_000_000_000,
      });
      await store.users.setRoles(user.id, [login === 'admin' ? 'administrator' : login]);
      await store.sessions.create({
        tokenHash: `t-${login}`,
        userId: user.id,
        expiresAt: 1_800_000_000_000,
        userAgent: 'ua',
        ip: '127.0.0.1',
        created: 1_700_000_000_000,
      });
    }
    await store.options.set('blogname', 'Round trip');
    await store.options.set('counter', 0);
    dumper = await storeDumper(location);
    states.set(0, await dumper.dump());
  });

  afterAll(async () => {
    await dumper?.close();
    await backend.cleanup();
    rmSync(backupDir, { recursive: true, force: true });
  });

  /** One atomic write: a user (every third one deleted again), a session and the counter. */
  async function write(i: number): Promise<void> {
    await store.transaction(async (tx) => {
      const user = await tx.users.create({
        login: `u${i}`,
        email: `u${i}@example.com`,
        displayName: `User ${i}`,
        passHash: 'h',
        registered: 1_700_000_000_000 + i,
      });
      await tx.sessions.create({
        tokenHash: `s${i}`,
        userId: user.id,
        expiresAt: 1_800_000_000_000 + i,
        userAgent: 'ua',
        ip: '::1',
        created: 1_700_000_000_000 + i,
      });
      if (i % 3 === 0) await tx.users.delete(user.id);
      await tx.options.set('counter', i);
    });
    states.set(i, await dumper.dump());
  }

  it('restores exactly the snapshot a backup took while writes were running', async () => {
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        await write(++written);
        // SQLite calls are synchronous: without a turn of the event loop between writes, the
        // backup's own steps (and every timer) would never get to run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await until(() => written >= 5, 25_000);
    const startedAt = written;
    const created = await createBackup(location, new Date(), { targets: [localTarget(backupDir)], storeId: STORE });
    const finishedAt = written;
    await until(() => written >= finishedAt + 5, 25_000);
    stop = true;
    await writer;
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.manifest.schemaVersion).toEqual(['0001_initial', '0002_runtime_state', '0130_app_password_details', '0190_audit_log']);
    expect(created.manifest.tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users', 'options', 'sessions']),
    );
    const info = await stat(join(backupDir, STORE, `${created.id}.swbak`));
    expect(info.mode & 0o777).toBe(0o600);
    expect((await stat(backupDir)).mode & 0o777).toBe(0o700);

    await store.options.set('blogname', 'Changed after the backup');
    await store.close();

    const restored = await restoreBackup({ target: localTarget(backupDir), storeId: STORE, id: created.id }, location, { now: Date.now() });
    expect(restored).toMatchObject({ ok: true, id: created.id });
    const after = await storeDumper(location);
    const dump = await after.dump();
    await after.close();
    const counterRow = dump.options.find((row) => row[0] === 'counter');
    const k = Number(JSON.parse(String(counterRow?.[1])));
    // The snapshot is one of the states the writer went through, from while the backup ran.
    expect(k).toBeGreaterThanOrEqual(startedAt - 1);
    expect(k).toBeLessThanOrEqual(finishedAt);
    expect(dump).toEqual(states.get(k));
    for (const table of created.manifest.tables) expect(dump[table.name]).toHaveLength(table.rows);

    // Ids used before the snapshot are never handed out again (sequences came back too).
    store = await backend.open();
    const maxId = Math.max(...(states.get(k)?.users ?? []).map((row) => Number(row[0])));
    const next = await store.users.create({ login: 'after', email: 'after@example.com', displayName: 'After', passHash: 'h' });
    expect(next.id).toBeGreaterThan(maxId);
    await store.close();
  });

  it('lists the backup as ok and passes a trial restore', async () => {
    const list = await listBackups(localTarget(backupDir), STORE);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'ok', backend: backend.name });
    const verified = await verifyBackup(
      { target: localTarget(backupDir), storeId: STORE, id: list[0].id },
      { postgresUrl: process.env.SITEWARD_TEST_PG },
    );
    expect(verified).toMatchObject({ ok: true, trialRestore: 'passed' });
  });
});
