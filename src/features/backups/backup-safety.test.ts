import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores, type TestBackend } from '../../store/testing/test-stores.js';
import { backupFile, readBackupHeader } from './backup-file.js';
import { newBackupId, type BackupManifest } from './backup-manifest.js';
import { localTarget } from './backup-target.js';
import { createBackup, listBackups, restoreBackup, verifyBackup } from './backups.js';
import { removeServerPidFile, writeServerPidFile } from '../../core/server-pid-file.js';
import { checkServerRunning } from './server-guard.js';
import type { StoreLocation } from './store-location.js';
import { storeDumper, type StoreDump } from './testing/store-dump.js';

const STORE = '00000000-0000-4000-8000-000000000002';

function locationOf(backend: TestBackend): StoreLocation {
  const options = backend.storeOptions();
  return backend.name === 'sqlite'
    ? { backend: 'sqlite', dataDir: options.dataDir }
    : { backend: 'postgres', url: options.databaseUrl ?? '', schema: options.schema, dataDir: options.dataDir };
}

/** A copy of a backup under a new id whose manifest was edited (the payload and its checksum stay valid). */
async function withEditedManifest(dir: string, id: string, edit: (m: BackupManifest) => BackupManifest): Promise<string> {
  const header = await readBackupHeader(backupFile(dir, id));
  if (!header.ok) throw new Error(header.reason);
  const bytes = await readFile(backupFile(dir, id));
  const payloadEnd = 7 + header.manifest.payloadBytes;
  const newId = newBackupId(new Date(Date.parse(header.manifest.time) + 1));
  const json = Buffer.from(JSON.stringify(edit({ ...header.manifest, id: newId })));
  const footer = Buffer.alloc(16);
  footer.write('SWMANIF1', 0, 'latin1');
  footer.writeBigUInt64BE(BigInt(json.length), 8);
  await writeFile(backupFile(dir, newId), Buffer.concat([bytes.subarray(0, payloadEnd), json, footer]), { mode: 0o600 });
  return newId;
}

describe.each(testStores())('backup safety on $name', (backend) => {
  let root: string;
  /** The store's folder in the backup directory. */
  let dir: string;
  const target = () => localTarget(root);
  const ref = (backupId: string) => ({ target: target(), storeId: STORE, id: backupId });
  let location: StoreLocation;
  let id: string;

  async function liveDump(): Promise<StoreDump> {
    const dumper = await storeDumper(location);
    try {
      return await dumper.dump();
    } finally {
      await dumper.close();
    }
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'siteward-backup-safety-'));
    dir = join(root, STORE);
    location = locationOf(backend);
    const store = await backend.open();
    const user = await store.users.create({ login: 'admin', email: 'admin@example.com', displayName: 'Admin', passHash: 'h' });
    await store.sessions.create({ tokenHash: 't', userId: user.id, expiresAt: 2e12, userAgent: '', ip: '', created: 1e12 });
    await store.options.set('blogname', 'Safety');
    const created = await createBackup(location, new Date(), { targets: [target()], storeId: STORE });
    if (!created.ok) throw new Error(created.error.message);
    id = created.id;
    await store.options.set('blogname', 'Live value after the backup');
    await store.close();
  });

  afterAll(async () => {
    await backend.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a corrupted backup everywhere and leaves the live store as it was', async () => {
    const broken = await withEditedManifest(dir, id, (m) => m);
    const file = backupFile(dir, broken);
    const bytes = await readFile(file);
    bytes[7 + 20] ^= 0xff;
    await writeFile(file, bytes);
    const before = await liveDump();

    const listed = (await listBackups(target(), STORE)).find((b) => b.id === broken);
    expect(listed).toMatchObject({ status: 'corrupt', problem: 'payload checksum mismatch' });
    expect(await verifyBackup(ref(broken))).toMatchObject({ ok: false, error: { code: 'corrupt' } });
    const restored = await restoreBackup(ref(broken), location, { now: Date.now() });
    expect(restored).toMatchObject({
      ok: false,
      error: { code: 'corrupt', message: `backup ${broken} is corrupted (payload checksum mismatch); refusing to use it` },
    });
    expect(await liveDump()).toEqual(before);
  });

  it('lists a truncated backup as corrupt', async () => {
    const cut = await withEditedManifest(dir, id, (m) => m);
    await truncate(backupFile(dir, cut), 100);
    expect((await listBackups(target(), STORE, { checksums: false })).find((b) => b.id === cut)).toMatchObject({
      status: 'corrupt',
      problem: 'truncated or damaged (bad footer)',
    });
  });

  it('leaves the live store untouched when a restore fails half-way', async () => {
    const lying = await withEditedManifest(
      dir,
      id,
      (m) => ({ ...m, tables: m.tables.map((t) => (t.name === 'users' ? { ...t, rows: t.rows + 1 } : t)) }) as BackupManifest,
    );
    const before = await liveDump();
    const restored = await restoreBackup(ref(lying), location, { now: Date.now() });
    expect(restored).toMatchObject({ ok: false, error: { message: expect.stringContaining('the live store is unchanged') } });
    expect(await liveDump()).toEqual(before);
    if (location.backend === 'sqlite') {
      expect((await readdir(location.dataDir)).filter((n) => n.includes('restore'))).toEqual([]);
    } else {
      const client = new pg.Client({ connectionString: location.url });
      await client.connect();
      const { rows } = await client.query('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`${location.schema}_%`]);
      await client.end();
      expect(rows).toEqual([]);
    }
  });

  it('refuses to restore while a server holds the background-jobs lease', async () => {
    const store = await backend.open();
    const now = Date.now();
    expect(await store.leases.acquire('background-jobs', 'other-process', 30_000, now)).toBe(true);
    await store.close();
    const restored = await restoreBackup(ref(id), location, { now });
    expect(restored).toMatchObject({
      ok: false,
      error: { code: 'server_running' },
      server: { evidence: 'job-lease', holder: 'other-process' },
    });
    expect(await checkServerRunning(location, now + 30_000)).toEqual({ running: false });
  });

  it('does not call a dead lease holder running: SQLite restores and says so, PostgreSQL waits for the lease to lapse', async () => {
    // A process of this host that has exited: what a server killed with -9 leaves in the lease.
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const store = await backend.open();
    // After the lease of the test before has lapsed.
    const now = Date.now() + 60_000;
    expect(await store.leases.acquire('background-jobs', `${hostname()}:${dead}:0123abcd`, 30_000, now)).toBe(true);
    await store.close();
    const deadHolder = { pid: dead, host: hostname(), until: now + 30_000 };
    expect(await checkServerRunning(location, now)).toEqual({ running: false, deadHolder });
    const restored = await restoreBackup(ref(id), location, { now });
    if (location.backend === 'sqlite') {
      expect(restored).toMatchObject({ ok: true, deadHolder });
      return;
    }
    expect(restored).toMatchObject({ ok: false, error: { code: 'lease_held' } });
    expect(!restored.ok && restored.error.message).toBe(
      `no Siteward server is running on this host, but the background-jobs lease is still held until ${new Date(now + 30_000).toISOString()} by process ${dead} on ${hostname()}, which is gone (killed or crashed, so it could not give the lease up); a server on another host sharing this database could take it only then. Run the restore again after ${new Date(now + 30_000).toISOString()}.`,
    );
    expect(await restoreBackup(ref(id), location, { now: now + 30_000 })).toMatchObject({ ok: true });
  });

  it('sees a running server through its pid file', async () => {
    const dataDir = backend.dataDir;
    await writeServerPidFile(dataDir, Date.now());
    expect(await checkServerRunning(location, 0)).toMatchObject({ running: true, evidence: 'pid-file', pid: process.pid });
    await removeServerPidFile(dataDir);
    expect(await checkServerRunning(location, Date.now() + 60_000)).toEqual({ running: false });
  });

  it('refuses to restore a backup into the other backend', async () => {
    const other: StoreLocation =
      location.backend === 'sqlite' ? { backend: 'postgres', url: 'postgres://127.0.0.1:1/none' } : { backend: 'sqlite', dataDir: dir };
    expect(await restoreBackup(ref(id), other, { now: Date.now() })).toMatchObject({ ok: false, error: { code: 'backend_mismatch' } });
  });
});
