/**
 * `siteward audit verify` through the CLI on a real store: it holds on an untouched log, and names
 * the row when one is edited, deleted or reordered directly in the database (SQLite and
 * PostgreSQL), or when the chain is rewritten with fresh hashes after a signed checkpoint.
 * The retention cuts at a signed checkpoint and verification still holds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecrets } from '../../auth/secrets.js';
import { main } from '../../cli.js';
import { featureMigrations } from '../../compose.js';
import { builtInFeatures } from '../index.js';
import { chainHash } from '../../store/audit-chain.js';
import { openStore, SQLITE_FILE, type Store } from '../../store/index.js';
import type { AuditEventInput } from '../../wire/audit.js';
import { purgeOld, writeCheckpoint } from './checkpoints.js';
import { auditKeys, type AuditKeys } from './signing.js';

const PG = process.env.SITEWARD_TEST_PG;
const backends = [{ name: 'sqlite' as const }, ...(PG ? [{ name: 'postgres' as const }] : [])];
const DAY = 86_400_000;

function event(i: number): AuditEventInput {
  return {
    action: 'option.updated',
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: 'admin', credential: { type: 'session', token_hash: 'ab'.repeat(32) } },
    client_ip: '203.0.113.7',
    user_agent: 'test',
    request_id: `r${i}`,
    object: { type: 'option', id: `o${i}`, name: `o${i}` },
    changes: { [`o${i}`]: { before: i - 1, after: i } },
  };
}

/** A SQL string literal's body (the events recorded by verify quote its reasons, apostrophes too). */
const quoted = (text: string) => text.replaceAll("'", "''");

describe.each(backends)('siteward audit on $name', ({ name }) => {
  const root = mkdtempSync(path.join(tmpdir(), `siteward-audit-${name}-`));
  const dataDir = path.join(root, 'data');
  const configFile = path.join(root, 'siteward.config.json');
  const schema = `sw_audit_${randomBytes(5).toString('hex')}`;
  const databaseUrl = PG && name === 'postgres' ? `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : undefined;
  let store: Store;
  let keys: AuditKeys;
  let offset = 0;

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--config', configFile], { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** SQL straight at the database, as an intruder with write access would. */
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

  /**
   * Verify fails naming `row`, records `audit.verify_failed` (for alerts and forwarding) after
   * the break, and a second verify still names the same row.
   */
  async function expectBroken(row: number): Promise<void> {
    const before = await store.auditLog.count({ action: 'audit.verify_failed' });
    const verify = await cli('audit', 'verify');
    expect(verify.code).toBe(1);
    expect(verify.err).toContain(`BROKEN at row ${row}:`);
    const [recorded] = await store.auditLog.list({ action: 'audit.verify_failed' }, { limit: 1, offset: 0 });
    expect(await store.auditLog.count({ action: 'audit.verify_failed' })).toBe(before + 1);
    expect(recorded).toMatchObject({
      result: 'failed',
      actor: { kind: 'cli', credential: { type: 'os_user' } },
      object: { type: 'audit_log', id: String(row) },
      changes: { broken_row: { before: null, after: row } },
    });
    expect(verify.err).toContain((recorded!.changes.reason as { after: string }).after);
    const again = await cli('audit', 'verify');
    expect(again.code).toBe(1);
    expect(again.err).toContain(`BROKEN at row ${row}:`);
  }

  beforeAll(async () => {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    }
    writeFileSync(configFile, JSON.stringify({ dataDir, homeUrl: 'http://example.org', ...(databaseUrl && { databaseUrl }) }));
    store = await openStore({
      dataDir,
      ...(databaseUrl && { databaseUrl }),
      migrations: featureMigrations(builtInFeatures),
      clock: () => Date.now() + offset,
    });
    keys = auditKeys((await loadSecrets({ dataDir, env: {} })).auditSigningSeed);
    // Ten events written 400 days ago, then ten today, each with its change.
    offset = -400 * DAY;
    for (let i = 1; i <= 20; i++) {
      if (i === 11) offset = 0;
      await store.transaction(async (tx) => {
        await tx.options.set(`o${i}`, i);
        tx.audit(event(i));
      });
    }
    await writeCheckpoint(store.auditLog, keys, Date.now());
  });

  afterAll(async () => {
    await store.close();
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: PG });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('verifies an untouched log, lists, shows and exports it', async () => {
    const verify = await cli('audit', 'verify');
    expect(verify).toMatchObject({ code: 0, err: '' });
    expect(verify.out).toContain('rows 1–21 (21 events), 1 signed checkpoint(s)');
    const list = await cli('audit', 'list', '--limit', '3', '--format', 'json');
    expect((JSON.parse(list.out) as { id: number }[]).map((e) => e.id)).toEqual([21, 20, 19]);
    const show = await cli('audit', 'show', '8');
    expect(JSON.parse(show.out)).toMatchObject({
      id: 8,
      action: 'option.updated',
      object: { id: 'o7' },
      changes: { o7: { before: 6, after: 7 } },
    });
    const ndjson = await cli('audit', 'export', '--format', 'ndjson', '--object', 'option:o3');
    expect(ndjson.out.split('\n').map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([4]);
    const csv = await cli(
      'audit',
      'export',
      '--format',
      'csv',
      '--action',
      'option.*',
      '--after',
      new Date(Date.now() - DAY).toISOString(),
    );
    const lines = csv.out.split('\n');
    expect(lines[0]).toMatch(/^id,time,action,result,actor_kind/);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect((await cli('audit', 'export', '--format', 'xml')).code).toBe(2);
  });

  it('names the row edited, deleted or reordered in the database', async () => {
    // Edited: one changed value in the hashed JSON.
    await raw(`UPDATE audit_log SET data = replace(data, '"after":3', '"after":30') WHERE id = 4`);
    await expectBroken(4);
    await raw(`UPDATE audit_log SET data = replace(data, '"after":30', '"after":3') WHERE id = 4`);
    expect((await cli('audit', 'verify')).code).toBe(0);
    // Edited: a filter column only (what a list shows), not the hashed JSON.
    await raw(`UPDATE audit_log SET action = 'option.read' WHERE id = 5`);
    await expectBroken(5);
    await raw(`UPDATE audit_log SET action = 'option.updated' WHERE id = 5`);

    // Deleted.
    const [five] = await store.auditLog.rows(5, 1);
    await raw(`DELETE FROM audit_log WHERE id = 6`);
    await expectBroken(6);
    await raw(
      `INSERT INTO audit_log (id, time, action, result, actor_user_id, object_type, object_id, data, hash) VALUES (6, ${five!.time}, 'option.updated', 'ok', 1, 'option', 'o5', '${five!.data}', '${five!.hash}')`,
    );
    expect((await cli('audit', 'verify')).code).toBe(0);

    // Reordered: rows 7 and 8 swap places (their contents and hashes trade ids).
    const swap = `UPDATE audit_log SET id = -1 WHERE id = 7; UPDATE audit_log SET id = 7 WHERE id = 8; UPDATE audit_log SET id = 8 WHERE id = -1;`;
    await raw(swap);
    await expectBroken(7);
    await raw(swap);
    expect((await cli('audit', 'verify')).code).toBe(0);

    // Deleted at the end, head moved back too: the signed checkpoint still names the row. The
    // events verify recorded go after it, never into the missing row.
    await writeCheckpoint(store.auditLog, keys, Date.now());
    const head = await store.auditLog.head();
    const [last] = await store.auditLog.rows(head.lastId - 1, 1);
    const [previous] = await store.auditLog.rows(head.lastId - 2, 1);
    await raw(
      `DELETE FROM audit_log WHERE id = ${head.lastId}; UPDATE audit_head SET last_id = ${previous!.id}, count = ${previous!.id}, hash = '${previous!.hash}' WHERE id = 1`,
    );
    await expectBroken(head.lastId);
    expect((await store.auditLog.rows(head.lastId - 1, 1))[0]!.id).toBe(head.lastId + 1);
    await raw(
      `DELETE FROM audit_log WHERE id > ${head.lastId}; INSERT INTO audit_log (id, time, action, result, actor_user_id, object_type, object_id, data, hash) VALUES (${last!.id}, ${last!.time}, '${last!.action}', '${last!.result}', ${last!.actorUserId}, '${last!.objectType}', '${last!.objectId}', '${quoted(last!.data)}', '${last!.hash}'); UPDATE audit_head SET last_id = ${last!.id}, count = ${last!.id}, hash = '${last!.hash}' WHERE id = 1`,
    );
    expect((await cli('audit', 'verify')).code).toBe(0);
  });

  it('catches a chain rewritten with fresh hashes by the signed checkpoint', async () => {
    const rows = await store.auditLog.rows(0, 100);
    let previous = rows[8]!.hash;
    const statements: string[] = [];
    for (const row of rows.slice(9)) {
      const data = row.id === 10 ? row.data.replace('"after":9', '"after":90') : row.data;
      previous = chainHash(previous, row.id, data);
      statements.push(`UPDATE audit_log SET data = '${quoted(data)}', hash = '${previous}' WHERE id = ${row.id};`);
    }
    statements.push(`UPDATE audit_head SET hash = '${previous}' WHERE id = 1;`);
    await raw(statements.join('\n'));
    await expectBroken(21);
    const restore = rows
      .slice(9)
      .map((row) => `UPDATE audit_log SET data = '${quoted(row.data)}', hash = '${row.hash}' WHERE id = ${row.id};`);
    // The verify_failed events recorded since chained on the rewritten head: they go too.
    const end = rows.at(-1)!;
    await raw(
      `${restore.join('\n')} DELETE FROM audit_log WHERE id > ${end.id}; UPDATE audit_head SET last_id = ${end.id}, count = ${end.id}, hash = '${end.hash}' WHERE id = 1;`,
    );
    expect((await cli('audit', 'verify')).code).toBe(0);
  });

  it('purges events past the retention at a signed checkpoint, and verify still holds', async () => {
    const result = await purgeOld(store.auditLog, keys, Date.now(), 365, { batch: 3 });
    // The migration event and the ten old ones.
    expect(result).toEqual({ ok: true, deleted: 11, cutAt: 11 });
    expect((await store.auditLog.rows(0, 1))[0]!.id).toBe(12);
    const verify = await cli('audit', 'verify');
    expect(verify).toMatchObject({ code: 0, err: '' });
    const head = await store.auditLog.head();
    expect(verify.out).toContain(`rows 12–${head.lastId} (${head.lastId - 11} events)`);
    // New events chain on; deleting the first remaining row is still named.
    await store.transaction(async (tx) => tx.audit(event(21)));
    expect((await cli('audit', 'verify')).code).toBe(0);
    await raw(`DELETE FROM audit_log WHERE id = 12`);
    await expectBroken(12);
  });
});
