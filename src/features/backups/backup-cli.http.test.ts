/**
 * The whole path an operator takes: a running Siteward serving writes, `siteward backup now`
 * while they run, more writes, `backup restore` (refused while the server runs, done once it
 * stopped), and the store is exactly the snapshot — every feature's tables included.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellsUnder } from '../../../test/helpers/table-cells.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { main } from '../../cli.js';
import type { Feature } from '../contract.js';
import { builtInFeatures } from '../index.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { readStoreId } from './store-id.js';
import type { StoreLocation } from './store-location.js';
import { storeDumper, type StoreDumper } from './testing/store-dump.js';

interface NotesTable {
  backup_test_notes: { id: number; body: string };
}

/** A feature with a table of its own: backups must carry it (and a PostgreSQL restore rebuild it). */
const notesFeature: Feature = {
  name: 'backup-test-notes',
  migrations: {
    '9000_backup_test_notes': () => ({
      up: async (db: Kysely<unknown>) => {
        await db.schema
          .createTable('backup_test_notes')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('body', 'text', (c) => c.notNull())
          .execute();
      },
    }),
  },
  register: () => undefined,
};
const features = [...builtInFeatures, notesFeature];

const PG = process.env.SITEWARD_TEST_PG;
const backends = [{ name: 'sqlite' as const }, ...(PG ? [{ name: 'postgres' as const }] : [])];

describe.each(backends)('siteward backup on $name', ({ name }) => {
  const root = mkdtempSync(path.join(tmpdir(), `siteward-backup-cli-${name}-`));
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backups');
  const configFile = path.join(root, 'siteward.config.json');
  const schema = `sw_e2e_${randomBytes(5).toString('hex')}`;
  const databaseUrl = PG && name === 'postgres' ? `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : undefined;
  const location: StoreLocation = databaseUrl ? { backend: 'postgres', url: databaseUrl, schema, dataDir } : { backend: 'sqlite', dataDir };
  const env = {
    SITEWARD_BACKUP_DIR: backupDir,
    SITEWARD_BACKUP_SCHEDULE: 'off',
    ...(databaseUrl && { SITEWARD_DATABASE_URL: databaseUrl }),
  };
  let t: TestApp;
  let admin: LoggedIn;

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) }, { features });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function dumpNow(): Promise<string> {
    const dumper: StoreDumper = await storeDumper(location);
    try {
      // The backup itself signs an audit checkpoint just before its snapshot (so the snapshot holds a
      // row none of the writer's states had): the states are compared without that table.
      const { audit_checkpoints: _signedByTheBackup, ...tables } = await dumper.dump();
      return JSON.stringify(tables);
    } finally {
      await dumper.close();
    }
  }

  beforeAll(async () => {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    }
    writeFileSync(configFile, JSON.stringify({ dataDir, backupDir, homeUrl: 'http://example.org', ...(databaseUrl && { databaseUrl }) }));
    t = await createTestApp({ dataDir, env, features, startJobs: false });
    admin = await t.loginAs('administrator', { login: 'admin' });
  });

  afterAll(async () => {
    await t.close().catch(() => undefined);
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    rmSync(root, { recursive: true, force: true });
  });

  /** One atomic write of each kind in turn: users, sessions (logins), options, module state, a feature's table. */
  async function write(i: number, app: TestApp): Promise<void> {
    switch (i % 5) {
      case 0: {
        const created = await app.app.users.create({
          login: `user${i}`,
          email: `user${i}@example.org`,
          role: 'author',
          password: `password-${i}-long`,
        });
        if (!created.ok) throw new Error(created.error.message);
        return;
      }
      case 1:
        expect((await app.request({ method: 'POST', path: '/login', body: { username: 'admin', password: admin.password } })).status).toBe(
          200,
        );
        return;
      case 2:
        return app.store.options.set('counter', i);
      case 3:
        expect((await call(app, 'POST', '/module/carousel/active', { as: admin, body: { active: ((i - 3) / 5) % 2 === 0 } })).status).toBe(
          200,
        );
        return;
      default:
        await app.store.tables.run<NotesTable, unknown>((db) =>
          db
            .insertInto('backup_test_notes')
            .values({ id: i, body: `note ${i}` })
            .execute(),
        );
    }
  }

  it('restores exactly the snapshot taken while writes ran, and only once the server stopped', async () => {
    // With Protect active a login is three writes (reserve a check slot, the session, release
    // the slot): a snapshot between them is consistent, but not one of the states recorded
    // after each `write`. Off, a login is the session alone, so each `write` is atomic.
    expect((await call(t, 'POST', '/module/protect/active', { as: admin, body: { active: false } })).status).toBe(200);
    // Every state the store passes through, in order: the snapshot must be one of them.
    const states: string[] = [await dumpNow()];
    let stop = false;
    let failure: unknown = null;
    const writer = (async () => {
      for (let i = 1; !stop; i++) {
        await write(i, t);
        states.push(await dumpNow());
      }
    })().catch((error: unknown) => void (failure = error));
    const until = async (count: number) => {
      while (states.length < count && failure === null) await new Promise((resolve) => setImmediate(resolve));
      if (failure !== null) throw failure;
    };
    await until(6);
    const startedAt = states.length - 1;
    const backup = await cli('backup', 'now');
    const finishedAt = states.length - 1;
    await until(finishedAt + 6);
    stop = true;
    await writer;
    if (failure !== null) throw failure;
    expect(backup.code, backup.err).toBe(0);
    const id = backup.out.trim();
    expect(id).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}$/);

    const listed = await cli('backup', 'list', '--format', 'json');
    const storeId = (await readStoreId(t.store)) as string;
    expect(JSON.parse(listed.out)).toEqual([
      {
        target: 'local',
        where: backupDir,
        id,
        time: expect.any(String),
        size: expect.any(Number),
        status: 'ok',
        backend: name,
        store: storeId,
        own: true,
        encrypted: false,
        verification: null,
      },
    ]);
    // A heading per target, then a header row and each cell under its title.
    const [heading, header, row, ...rest] = (await cli('backup', 'list')).out.split('\n');
    expect(heading).toBe(`Local: ${backupDir}  (this store: ${storeId}, ${name})`);
    expect(header).toMatch(/^ {2}ID {2,}TIME {2,}SIZE {2}STATUS {2,}BACKEND {2,}STORE {2,}ENCRYPTED {2}VERIFIED$/);
    expect(cellsUnder(header!, row!, ['ID', 'TIME', 'STATUS', 'BACKEND', 'STORE', 'ENCRYPTED', 'VERIFIED'])).toEqual([
      id,
      // SIZE is right-aligned: a size wider than its title (10,000 bytes and more) starts under TIME.
      expect.stringMatching(/Z( +\d+)?$/),
      'ok',
      name,
      storeId,
      'no',
      '-',
    ]);
    // SIZE is right-aligned: the bytes end where its title does.
    expect(row!.slice(0, header!.indexOf('SIZE') + 4)).toMatch(/ \d+$/);
    expect(rest).toEqual([]);
    const verified = await cli('backup', 'verify', id);
    expect([verified.code, verified.out], verified.err).toEqual([0, `Backup ${id} is good: checksum and trial restore passed.`]);
    // The manual verification is recorded: the list shows the backup as verified.
    const [, listHeader, listRow] = (await cli('backup', 'list')).out.split('\n');
    expect(cellsUnder(listHeader!, listRow!, ['VERIFIED'])).toEqual([expect.stringMatching(/^verified \d{4}-\d\d-\d\dT.*Z$/)]);
    expect(JSON.parse((await cli('backup', 'list', '--format', 'json')).out)).toEqual([
      expect.objectContaining({
        id,
        verification: { time: expect.any(String), ok: true, message: 'checksum and trial restore passed', by: 'cli' },
      }),
    ]);
    const screen = (await t.request({ path: '/wp-json/siteward/v1/backups', headers: t.auth(admin) })).json as {
      targets: { backups: { id: string; encrypted: boolean | null; verification: { ok: boolean } | null }[] }[];
    };
    expect(screen.targets[0]!.backups[0]).toMatchObject({ id, encrypted: false, verification: { ok: true } });

    // The running server holds the job lease: the restore refuses and changes nothing.
    expect(await t.app.jobs.acquire()).toBe(true);
    const beforeRefusal = await dumpNow();
    const refused = await cli('backup', 'restore', id);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^error: a Siteward server is running on this store \(background-jobs lease held by .* until .*\); stop it before restoring$/,
    );
    expect(await dumpNow()).toBe(beforeRefusal);

    await t.close();
    const restored = await cli('backup', 'restore', id);
    expect(restored.code, restored.err).toBe(0);
    const after = await dumpNow();
    const k = states.indexOf(after);
    expect(k, 'the restored store equals one state the writes went through').toBeGreaterThanOrEqual(0);
    expect(k).toBeGreaterThanOrEqual(startedAt);
    expect(k).toBeLessThanOrEqual(finishedAt);
    expect(JSON.parse(after)).toHaveProperty('backup_test_notes');

    // A server started on the restored store serves it.
    t = await createTestApp({ dataDir, env, features, startJobs: false });
    expect((await t.request({ method: 'POST', path: '/login', body: { username: 'admin', password: admin.password } })).status).toBe(200);
  });

  it('finds a corrupted backup with verify and refuses to restore it, leaving the store as it was', async () => {
    const { out: id, code } = await cli('backup', 'now');
    expect(code).toBe(0);
    const file = path.join(backupDir, await readStoreId(t.store), `${id}.swbak`);
    const handle = await open(file, 'r+');
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, 200);
    await handle.write(Buffer.from([byte[0]! ^ 0xff]), 0, 1, 200);
    await handle.close();

    const verified = await cli('backup', 'verify', id);
    expect([verified.code, verified.err]).toEqual([1, `error: backup ${id} is corrupted (payload checksum mismatch); refusing to use it`]);
    expect((await cli('backup', 'verify', 'nonexistent')).err).toBe(`error: no backup nonexistent in ${backupDir}`);
    await t.close();
    const before = await dumpNow();
    const restored = await cli('backup', 'restore', id);
    expect([restored.code, restored.err]).toEqual([1, `error: backup ${id} is corrupted (payload checksum mismatch); refusing to use it`]);
    expect(await dumpNow()).toBe(before);
    expect(JSON.parse((await cli('backup', 'list', '--format', 'json')).out)).toContainEqual(
      expect.objectContaining({ id, status: 'corrupt', problem: 'payload checksum mismatch' }),
    );
  });

  it('shows the result and time of the scheduled verification in backup list and module/vaultpress/data', async () => {
    t = await createTestApp({ dataDir, env, features, startJobs: false });
    const { out: id, code } = await cli('backup', 'now');
    expect(code).toBe(0);
    const before = Date.now();
    // The verification job is due at once (no verification yet): one round runs it.
    await t.app.jobs.tick();
    const after = Date.now();

    const rows = JSON.parse((await cli('backup', 'list', '--format', 'json')).out) as {
      id: string;
      verification: { time: string; ok: boolean; message: string } | null;
    }[];
    const verified = rows.find((r) => r.id === id)?.verification;
    expect(verified).toEqual({
      time: expect.any(String),
      ok: true,
      message: 'restored into a temporary store: integrity, row counts and an administrator login checked',
      by: 'schedule',
    });
    const time = Date.parse(verified?.time ?? '');
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
    expect(rows.filter((r) => r.verification?.ok === true).map((r) => r.id)).toEqual([id]);
    const [, header, ...lines] = (await cli('backup', 'list')).out.split('\n');
    expect(
      cellsUnder(
        header!,
        lines.find((l) => l.includes(id))!,
        ['ID', 'VERIFIED'],
      ),
    ).toEqual([id, `verified ${verified?.time ?? ''}`]);

    const viewer = await t.loginAs('administrator', { login: 'verification-viewer' });
    const data = (await call(t, 'GET', '/module/vaultpress/data', { as: viewer })).json as {
      data: { backups: { verification: unknown; targets: unknown[] } };
    };
    expect(data.data.backups.verification).toEqual({ time: Math.floor(time / 1000), ok: true });
    expect(data.data.backups.targets).toEqual([
      expect.objectContaining({
        kind: 'local',
        where: backupDir,
        verification: { time: Math.floor(time / 1000), ok: true, id, message: verified?.message },
      }),
    ]);
  });

  it('says how to turn backups on when no directory is configured, and how to call it', async () => {
    const bare = path.join(root, 'bare.json');
    writeFileSync(bare, JSON.stringify({ dataDir, homeUrl: 'http://example.org', ...(databaseUrl && { databaseUrl }) }));
    const out: string[] = [];
    expect(await main(['backup', 'now', '--config', bare], { out: (l) => out.push(l), err: (l) => out.push(l) }, { features })).toBe(1);
    expect(out).toEqual([
      'Backups are not configured: set SITEWARD_BACKUP_DIR (config "backupDir") and/or SITEWARD_BACKUP_S3_URL (config "backupS3Url").',
    ]);
    expect((await cli('backup', 'restore')).code).toBe(2);
    expect((await cli('backup')).err).toContain('siteward backup list [--format json]');
  });
});
