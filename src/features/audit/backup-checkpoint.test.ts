/**
 * Every backup's manifest carries the audit log's head signed just before its snapshot, and
 * `siteward audit verify --checkpoint <backup file>` checks a store against it: the live store
 * after more events, a row rewritten since (refused), and the store restored from the backup.
 * Through the real CLI, on SQLite and (with SITEWARD_TEST_PG) PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecrets } from '../../auth/secrets.js';
import { main } from '../../cli.js';
import { featureMigrations } from '../../compose.js';
import { builtInFeatures } from '../index.js';
import { openStore, SQLITE_FILE, type Store } from '../../store/index.js';
import type { AuditEventInput } from '../../wire/audit.js';
import { readBackupHeader } from '../backups/index.js';
import { auditKeys, checkpointSignatureHolds } from './signing.js';

const PG = process.env.SITEWARD_TEST_PG;
const backends = [{ name: 'sqlite' as const }, ...(PG ? [{ name: 'postgres' as const }] : [])];

function event(i: number): AuditEventInput {
  return {
    action: 'option.updated',
    result: 'ok',
    actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name: 'tester' } },
    client_ip: '',
    user_agent: '',
    request_id: '',
    object: { type: 'option', id: `o${i}`, name: `o${i}` },
    changes: { [`o${i}`]: { before: null, after: i } },
  };
}

describe.each(backends)('backup checkpoints on $name', ({ name }) => {
  const root = mkdtempSync(path.join(tmpdir(), `siteward-audit-backup-${name}-`));
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backups');
  const configFile = path.join(root, 'siteward.config.json');
  const schema = `sw_auditbk_${randomBytes(5).toString('hex')}`;
  const databaseUrl = PG && name === 'postgres' ? `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : undefined;
  let store: Store | null = null;

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function raw(statements: string): Promise<void> {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(statements);
      } finally {
        await client.end();
      }
      return;
    }
    const db = new BetterSqlite3(path.join(dataDir, SQLITE_FILE));
    try {
      db.exec(statements);
    } finally {
      db.close();
    }
  }

  async function write(from: number, to: number): Promise<void> {
    for (let i = from; i <= to; i++)
      await store!.transaction(async (tx) => {
        await tx.options.set(`o${i}`, i);
        tx.audit(event(i));
      });
  }

  beforeAll(async () => {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    }
    writeFileSync(
      configFile,
      JSON.stringify({ dataDir, backupDir, homeUrl: 'http://example.org', backupSchedule: 'off', ...(databaseUrl && { databaseUrl }) }),
    );
    store = await openStore({ dataDir, ...(databaseUrl && { databaseUrl }), migrations: featureMigrations(builtInFeatures) });
    await write(1, 5);
  });

  afterAll(async () => {
    await store?.close();
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("signs the log's head into the manifest and checks the live, a rewritten and a restored store against it", async () => {
    const made = await cli('backup', 'now');
    expect(made.code, made.err).toBe(0);
    const id = made.out.trim();
    const folder = readdirSync(backupDir).map((d) => path.join(backupDir, d))[0]!;
    const file = path.join(folder, `${id}.swbak`);
    const header = await readBackupHeader(file);
    if (!header.ok) throw new Error(header.reason);
    const checkpoint = header.manifest.auditCheckpoint!;
    // The head when the backup was taken: the row before its own `backup.created`.
    const head = await store!.auditLog.head();
    expect((await store!.auditLog.get(head.lastId))?.action).toBe('backup.created');
    const [signedRow] = await store!.auditLog.rows(head.lastId - 2, 1);
    expect(checkpoint).toMatchObject({ last_id: head.lastId - 1, head_hash: signedRow!.hash, count: head.count - 1 });
    const keys = auditKeys((await loadSecrets({ dataDir, env: {} })).auditSigningSeed);
    expect(checkpointSignatureHolds(keys.publicKey, checkpoint)).toBe(true);

    // The live store went on: it still holds the backup's head.
    await write(6, 8);
    const live = await cli('audit', 'verify', '--checkpoint', file);
    expect([live.code, live.out], live.err).toEqual([
      0,
      `Audit log matches the backup's checkpoint: row ${checkpoint.last_id} (${checkpoint.count} events, signed ${new Date(checkpoint.time).toISOString()}) is unchanged.`,
    ]);

    // A row up to the checkpoint edited in the database: refused, naming the row.
    await raw(`UPDATE audit_log SET data = replace(data, '"after":3', '"after":33') WHERE object_id = 'o3'`);
    const edited = await cli('audit', 'verify', '--checkpoint', file);
    expect(edited.code).toBe(1);
    expect(edited.err).toMatch(/^Audit log BROKEN at row \d+: /);
    // …and recorded, for alerts and forwarding, naming the file and the row.
    const [failed] = await store!.auditLog.list({ action: 'audit.verify_failed' }, { limit: 1, offset: 0 });
    const brokenRow = Number(/row (\d+)/.exec(edited.err)![1]);
    expect(failed).toMatchObject({ result: 'failed', actor: { kind: 'cli' }, object: { type: 'audit_log', id: String(brokenRow) } });
    expect(failed!.changes.reason).toEqual({ before: null, after: `checked against ${file}: ${edited.err}` });

    // The store restored from the backup matches it.
    await store!.close();
    store = null;
    const restored = await cli('backup', 'restore', id);
    expect(restored.code, restored.err).toBe(0);
    const after = await cli('audit', 'verify', '--checkpoint', file);
    expect(after.code, after.err).toBe(0);

    // A file without a checkpoint says so.
    const bare = path.join(root, 'bare.json');
    writeFileSync(bare, JSON.stringify({ format: 'siteward-backup' }));
    const none = await cli('audit', 'verify', '--checkpoint', bare);
    expect(none).toMatchObject({ code: 1, err: `${bare} holds no audit checkpoint (backups made before checkpoints have none)` });
  });
});
