/**
 * Off-site copies (issue 24 items 6, 7, 9): backups to a real S3-compatible server started
 * here (s3rver behind a proxy that can cut uploads), with only the S3 URL configured (staged
 * through a temporary file), encrypted, interrupted half-way, failing for good (reported, never
 * shown as success), verified on schedule, and restored on a new machine from the bucket alone
 * — the steps docs/operations.md gives.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_ENV, startTestS3, type TestS3 } from '../../../test/helpers/s3-server.js';
import { cellsUnder } from '../../../test/helpers/table-cells.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { main } from '../../cli.js';
import { parseS3Url } from './s3-url.js';
import type { Feature } from '../contract.js';
import { builtInFeatures } from '../index.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { backupsFeatureWith } from './index.js';
import { s3Client } from './s3-target.js';
import { readStoreId } from './store-id.js';

interface BlobTable {
  backup_test_blobs: { id: number; data: Buffer };
}

/** Incompressible rows, so the backup spans several multipart parts. */
const blobFeature: Feature = {
  name: 'backup-test-blobs',
  migrations: {
    '9001_backup_test_blobs': () => ({
      up: async (db: Kysely<unknown>) => {
        await db.schema
          .createTable('backup_test_blobs')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('data', 'blob', (c) => c.notNull())
          .execute();
      },
    }),
  },
  register: () => undefined,
};

const PART = 5 * 1024 * 1024;
/** Each retry wait runs this instead of sleeping (the test heals the bucket here). */
let onRetryWait: () => void = () => undefined;
const features = [
  ...builtInFeatures.map((f) =>
    f.name === 'backups'
      ? backupsFeatureWith({
          retry: { delaysMs: [1000, 1000], sleep: async () => onRetryWait() },
          s3: { sdkMaxAttempts: 1, partBytes: PART },
        })
      : f,
  ),
  blobFeature,
];

describe('off-site backups to an S3-compatible server', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'siteward-offsite-'));
  const staging = mkdtempSync(path.join(tmpdir(), 'siteward-offsite-tmp-'));
  let s3: TestS3;
  let s3Url: string;
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['loginAs']>>;
  const dataDir = path.join(root, 'data');
  const KEY = 'correct horse battery staple, but longer and random: 7f3a9c';
  const savedEnv = { ...process.env };
  const config = (file: string, settings: Record<string, unknown>) => {
    writeFileSync(file, JSON.stringify({ homeUrl: 'http://example.org', backupSchedule: 'off', ...settings }));
    return file;
  };

  async function cli(configFile: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) }, { features });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function objects(): Promise<{ key: string; size: number }[]> {
    const parsed = parseS3Url(s3Url);
    if (!parsed.ok) throw new Error(parsed.message);
    const listed = await (await s3Client(parsed.location)).send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (listed.Contents ?? []).map((o) => ({ key: o.Key ?? '', size: o.Size ?? 0 }));
  }

  beforeAll(async () => {
    s3 = await startTestS3();
    Object.assign(process.env, S3_TEST_ENV, { TMPDIR: staging });
    s3Url = `s3://${s3.bucket}/site-a?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`;
    t = await createTestApp({
      dataDir,
      env: { SITEWARD_BACKUP_S3_URL: s3Url, SITEWARD_BACKUP_ENCRYPTION_KEY: KEY, SITEWARD_BACKUP_SCHEDULE: 'off' },
      features,
      startJobs: false,
    });
    admin = await t.loginAs('administrator', { login: 'admin' });
    for (let i = 0; i < 12; i++) {
      await t.store.tables.run<BlobTable, unknown>((db) =>
        db
          .insertInto('backup_test_blobs')
          .values({ id: i, data: randomBytes(1024 * 1024) })
          .execute(),
      );
    }
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
    // Put the variables back in place (replacing the object would leave TMPDIR set underneath, for the next file of this worker).
    for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
    Object.assign(process.env, savedEnv);
    rmSync(root, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  });

  const cfg = () => config(path.join(root, 'site.json'), { dataDir, backupS3Url: s3Url, backupEncryptionKey: KEY });

  it('backs up with only the S3 URL set, encrypted, staging through a temporary file it removes', async () => {
    const made = await cli(cfg(), 'backup', 'now');
    expect(made.code, made.err).toBe(0);
    const id = made.out.trim();
    const storeId = await readStoreId(t.store);
    const stored = await objects();
    expect(stored).toEqual([{ key: `site-a/${storeId}/${id}.swbak`, size: expect.any(Number) }]);
    expect(stored[0].size).toBeGreaterThan(2 * PART); // a multipart upload
    expect(readdirSync(staging)).toEqual([]);
    // Encrypted before it left: the payload is an age file.
    const parsed = parseS3Url(s3Url);
    if (!parsed.ok) throw new Error(parsed.message);
    const head = await (
      await s3Client(parsed.location)
    ).send(new GetObjectCommand({ Bucket: s3.bucket, Key: stored[0].key, Range: 'bytes=0-38' }));
    expect(Buffer.from((await head.Body?.transformToByteArray()) ?? []).toString('latin1')).toBe(
      'SWBAK1\nage-encryption.org/v1\n-> scrypt ',
    );

    const listed = JSON.parse((await cli(cfg(), 'backup', 'list', '--format', 'json')).out) as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({ target: 's3', id, status: 'ok', backend: 'sqlite', store: storeId, encrypted: true }),
    ]);
    expect((await cli(cfg(), 'backup', 'verify', id)).out).toBe(`Backup ${id} is good: checksum and trial restore passed.`);
  });

  it('refuses to verify or restore an encrypted backup without the key, or with another, saying why', async () => {
    const id = (JSON.parse((await cli(cfg(), 'backup', 'list', '--format', 'json')).out) as { id: string }[])[0].id;
    const noKey = config(path.join(root, 'no-key.json'), { dataDir, backupS3Url: s3Url });
    expect(await cli(noKey, 'backup', 'verify', id)).toMatchObject({
      code: 1,
      err: `error: backup ${id} is encrypted: set SITEWARD_BACKUP_ENCRYPTION_KEY (or SITEWARD_BACKUP_ENCRYPTION_KEY_FILE) to the key it was made with`,
    });
    const wrong = config(path.join(root, 'wrong-key.json'), { dataDir, backupS3Url: s3Url, backupEncryptionKey: 'not the key' });
    expect(await cli(wrong, 'backup', 'verify', id)).toMatchObject({
      code: 1,
      err: `error: backup ${id} is encrypted with another key: the configured SITEWARD_BACKUP_ENCRYPTION_KEY does not open it`,
    });
    expect((await cli(wrong, 'backup', 'restore', id)).err).toContain('is encrypted with another key');
    // A key from a file: the message names that setting and the file.
    const keyFile = path.join(root, 'wrong.key');
    writeFileSync(keyFile, 'not the key either\n', { mode: 0o600 });
    const wrongFile = config(path.join(root, 'wrong-key-file.json'), { dataDir, backupS3Url: s3Url, backupEncryptionKeyFile: keyFile });
    expect(await cli(wrongFile, 'backup', 'verify', id)).toMatchObject({
      code: 1,
      err: `error: backup ${id} is encrypted with another key: the configured SITEWARD_BACKUP_ENCRYPTION_KEY_FILE (${keyFile}) does not open it`,
    });
  });

  it('retries an upload interrupted half-way and ends with one complete object', async () => {
    const before = (await objects()).length;
    s3.breakAfter(8 * 1024 * 1024);
    onRetryWait = () => s3.heal();
    // "Back up now" from the admin page answers at once; the page polls the list until it is done.
    const started = await t.request({ method: 'POST', path: '/wp-json/siteward/v1/backups', headers: t.auth(admin) });
    expect([started.status, started.json]).toEqual([200, { started: true }]);
    const again = await t.request({ method: 'POST', path: '/wp-json/siteward/v1/backups', headers: t.auth(admin) });
    expect([again.status, (again.json as { code: string }).code]).toEqual([409, 'backup_running']);
    for (let i = 0; i < 1200; i++) {
      const listed = await t.request({ method: 'GET', path: '/wp-json/siteward/v1/backups', headers: t.auth(admin) });
      if ((listed.json as { running: boolean }).running === false) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const run = (await t.store.status.get('backups.last-scheduled-run'))?.value as {
      ok: boolean;
      id: string;
      copies: { attempts: number }[];
    };
    expect(run).toMatchObject({ ok: true, copies: [{ kind: 's3', ok: true, attempts: 2 }] });
    expect((await objects()).length).toBe(before + 1);
    expect((await cli(cfg(), 'backup', 'verify', run.id)).code).toBe(0);
  });

  it('reports an upload that keeps failing as a failure everywhere, never as success, and leaves no half object', async () => {
    const before = await objects();
    s3.breakAfter(2 * 1024 * 1024);
    onRetryWait = () => undefined;
    const made = await cli(cfg(), 'backup', 'now');
    s3.heal();
    expect(made.code).toBe(1);
    expect(made.err).toMatch(
      /^backup \S+ was made but is kept nowhere: copying it off-site failed \(s3:\/\/siteward-backups\/site-a: .* \(3 attempts\)\)$/,
    );
    expect(await objects()).toEqual(before);
    const vp = (await call(t, 'GET', '/module/vaultpress/data', { as: admin })).json as {
      message: string;
      data: { backups: { status: string; targets: { kind: string; status: string; last_failure: unknown }[] } };
    };
    expect(vp.message).toMatch(/^The last backup failed .* ago: backup \S+ was made but is kept nowhere/);
    expect(vp.data.backups.status).toBe('failed');
    expect(vp.data.backups.targets).toEqual([
      expect.objectContaining({
        kind: 's3',
        status: 'failed',
        last_failure: expect.objectContaining({ message: expect.stringContaining('(3 attempts)') }),
      }),
    ]);
  });

  it('restores on a new machine from the off-site copy alone (docs/operations.md, "Restore on a new machine")', async () => {
    const oldStore = await readStoreId(t.store);
    const id = (JSON.parse((await cli(cfg(), 'backup', 'list', '--format', 'json')).out) as { id: string }[]).at(-1)?.id ?? '';
    await t.close();
    // Step 1: a new data directory and the same S3 URL and key (the old machine is gone).
    const newData = path.join(root, 'new-machine');
    const fresh = config(path.join(root, 'new.json'), { dataDir: newData, backupS3Url: s3Url, backupEncryptionKey: KEY });
    // Step 2: find the old store's backups.
    const all = (await cli(fresh, 'backup', 'list', '--all-stores')).out;
    const header = all.split('\n').find((l) => l.trim().startsWith('ID '))!;
    expect(
      cellsUnder(
        header,
        all.split('\n').find((l) => l.includes(id))!,
        ['ID', 'STORE', 'ENCRYPTED'],
      ),
    ).toEqual([id, oldStore, 'yes']);
    // Step 3: restore naming the old store.
    expect((await cli(fresh, 'backup', 'restore', id)).err).toContain(`add --from-store ${oldStore}`);
    const restored = await cli(fresh, 'backup', 'restore', id, '--from-store', oldStore);
    expect(restored.code, restored.err).toBe(0);
    // Step 4: start the server: the old site's administrator logs in with the old password, and it is the old store again.
    t = await createTestApp({
      dataDir: newData,
      env: { SITEWARD_BACKUP_S3_URL: s3Url, SITEWARD_BACKUP_ENCRYPTION_KEY: KEY },
      features,
      startJobs: false,
    });
    expect((await t.request({ method: 'POST', path: '/login', body: { username: 'admin', password: admin.password } })).status).toBe(200);
    expect(await readStoreId(t.store)).toBe(oldStore);
  });
});
