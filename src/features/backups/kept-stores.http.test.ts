/**
 * What a restore keeps, said as what it is, and `siteward backup clean-kept` removing it: the
 * replaced SQLite file (with any -wal/-shm left beside it) and, on PostgreSQL, the replaced
 * `public` schema (a database of its own here, so the test's `public` is never touched).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli.js';
import { builtInFeatures } from '../index.js';

const PG = process.env.SITEWARD_TEST_PG;
const backends = [{ name: 'sqlite' as const }, ...(PG ? [{ name: 'postgres' as const }] : [])];

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.each(backends)('a restore on $name', ({ name }) => {
  const root = mkdtempSync(path.join(tmpdir(), `siteward-kept-${name}-`));
  const dataDir = path.join(root, 'data');
  const configFile = path.join(root, 'siteward.config.json');
  const database = `sw_kept_${randomBytes(4).toString('hex')}`;
  const databaseUrl = PG && name === 'postgres' ? new URL(database, PG.endsWith('/') ? PG : PG.replace(/[^/]*$/, '')).href : undefined;

  afterAll(async () => {
    if (databaseUrl) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(root, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      [...args, '--config', configFile],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {
        features: builtInFeatures,
      },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('says what it kept and how to remove it, and clean-kept removes it', async () => {
    if (databaseUrl) await admin(`CREATE DATABASE ${database}`);
    writeFileSync(
      configFile,
      JSON.stringify({
        dataDir,
        backupDir: path.join(root, 'backups'),
        homeUrl: 'http://example.org',
        ...(databaseUrl && { databaseUrl }),
      }),
    );
    expect(await cli('backup', 'clean-kept')).toMatchObject({ code: 0, out: 'No kept stores.' });
    const made = await cli('backup', 'now');
    expect(made.code, made.err).toBe(0);
    const restored = await cli('backup', 'restore', made.out.trim());
    expect(restored.code, restored.err).toBe(0);
    const [first, note] = restored.out.split('\n');
    expect(first).toMatch(/^Restored backup /);
    let kept: string;
    if (name === 'postgres') {
      kept = /schema (public_before_[0-9a-f]{8}),/.exec(note ?? '')?.[1] ?? '';
      expect(note).toBe(
        `The replaced store was kept as the PostgreSQL schema ${kept}, in the same database; nothing reads it. Once the restored site works (start the server and log in), it is safe to remove: siteward backup clean-kept (or DROP SCHEMA "${kept}" CASCADE). Until then it is the way back.`,
      );
    } else {
      kept = path.join(dataDir, `siteward.db.before-restore-${made.out.trim()}`);
      expect(note).toBe(
        `The replaced store was kept as the file ${kept} (with its -wal and -shm, if any); nothing reads it. Once the restored site works (start the server and log in), it is safe to remove: siteward backup clean-kept. Until then it is the way back.`,
      );
      // A -shm left behind by a reader of the kept file counts with it.
      writeFileSync(`${kept}-shm`, Buffer.alloc(32));
    }
    const dry = await cli('backup', 'clean-kept', '--dry-run');
    expect(dry.out).toMatch(
      name === 'postgres' ? `would remove schema ${kept}` : new RegExp(`^would remove ${kept} \\(\\d+ bytes with -wal/-shm\\)$`),
    );
    const cleaned = await cli('backup', 'clean-kept');
    expect(cleaned.code, cleaned.err).toBe(0);
    expect(cleaned.out).toMatch(/^removed /);
    expect(await cli('backup', 'clean-kept')).toMatchObject({ code: 0, out: 'No kept stores.' });
    if (name === 'sqlite') expect(readdirSync(dataDir).filter((f) => f.includes('before-restore'))).toEqual([]);
    // The restored store still opens and lists its backup.
    expect((await cli('backup', 'list')).code).toBe(0);
  });
});
