/**
 * The stores a restore replaced and kept (`siteward backup clean-kept`): on SQLite the files
 * `siteward.db.before-restore-<backup id>` beside the live one, with any `-wal`/`-shm` left next
 * to them; on PostgreSQL the schemas `<schema>_before_<8 hex>` in the same database (and a
 * `<schema>_restore_<8 hex>` staging schema a restore that was cut off left behind). Nothing
 * reads them: they are there to go back to if the restored store turns out wrong.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StoreLocation } from './store-location.js';
import { sqliteFile } from './sqlite-backup.js';

export interface KeptCopy {
  /** The file (with its side files) or the schema. */
  readonly name: string;
  readonly kind: 'file' | 'schema';
  /** Bytes of the files; null for a schema. */
  readonly bytes: number | null;
}

/**
 * The PostgreSQL side (node-postgres, pg-copy-streams) loads when a PostgreSQL store's copies are
 * listed or removed: every worker imports this file through the backups feature, and one on
 * SQLite never needs the driver (issue 44, docs/performance.md "Start-up memory").
 */
const postgresExport = () => import('./postgres-export.js');

const KEPT_FILE = /^siteward\.db\.before-restore-[^/]+?(-wal|-shm)?$/;

export async function listKept(location: StoreLocation): Promise<KeptCopy[]> {
  if (location.backend === 'sqlite') return keptFiles(location.dataDir);
  return keptSchemas(location.url, location.schema);
}

/** Removes what `listKept` found; returns what went. */
export async function removeKept(location: StoreLocation, copies: readonly KeptCopy[]): Promise<KeptCopy[]> {
  const removed: KeptCopy[] = [];
  if (location.backend === 'sqlite') {
    for (const copy of copies) {
      for (const side of ['', '-wal', '-shm']) await rm(copy.name + side, { force: true });
      removed.push(copy);
    }
    return removed;
  }
  const { ident, pgClient } = await postgresExport();
  const client = await pgClient(location.url);
  await client.connect();
  try {
    for (const copy of copies) {
      await client.query(`DROP SCHEMA IF EXISTS ${ident(copy.name)} CASCADE`);
      removed.push(copy);
    }
  } finally {
    await client.end();
  }
  return removed;
}

/** Each kept database file once, its `-wal`/`-shm` counted with it (and listed alone when the main file is gone). */
async function keptFiles(dataDir: string): Promise<KeptCopy[]> {
  const live = path.basename(sqliteFile(dataDir));
  const names = (await readdir(dataDir).catch(() => [] as string[])).filter((n) => n.startsWith(`${live}.`) && KEPT_FILE.test(n));
  const bases = new Map<string, number>();
  for (const name of names) {
    const base = name.replace(/-(wal|shm)$/, '');
    const { size } = await stat(path.join(dataDir, name));
    bases.set(base, (bases.get(base) ?? 0) + size);
  }
  return [...bases.entries()].sort().map(([base, bytes]) => ({ name: path.join(dataDir, base), kind: 'file', bytes }));
}

async function keptSchemas(url: string, given: string | undefined): Promise<KeptCopy[]> {
  const { pgClient } = await postgresExport();
  const client = await pgClient(url);
  await client.connect();
  try {
    const schema = given ?? (await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]?.s ?? 'public';
    // The restore names them after the first 45 characters of the live schema (backups.ts).
    const prefix = schema.slice(0, 45);
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname ~ $1 ORDER BY nspname`, [
      `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_(before|restore)_[0-9a-f]{8}$`,
    ]);
    return rows.map((r) => ({ name: r.name, kind: 'schema', bytes: null }));
  } finally {
    await client.end();
  }
}
