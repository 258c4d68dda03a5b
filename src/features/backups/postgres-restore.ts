import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Kysely, Migrator } from 'kysely';
import { singleHostUrl } from '../../store/pg-hosts.js';
import { StorePostgresDialect } from '../../store/pg-introspector.js';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrationProvider, type MigrationFactory } from '../../store/migrations.js';
import type { BackupKey } from './backup-crypto.js';
import { openContent } from './backup-file.js';
import type { PostgresManifest } from './backup-manifest.js';
import { ident, pgClient, schemaTables, withSearchPath } from './postgres-export.js';
import type { TrialResult } from './sqlite-backup.js';

/** Features' migrations (name → factory); the store's own are always added. */
export type FeatureMigrations = Readonly<Record<string, MigrationFactory>>;

/** Why a backup's schema version cannot be rebuilt by this code, or null when it can. */
export async function schemaVersionProblem(schemaVersion: readonly string[], migrations: FeatureMigrations = {}): Promise<string | null> {
  const known = Object.keys(await migrationProvider('postgres', migrations).getMigrations()).sort();
  if (schemaVersion.length === 0) return 'the backup lists no applied migrations';
  const unknown = schemaVersion.filter((name, i) => known[i] !== name);
  if (unknown.length > 0) return `the backup was made by a different Siteward version (migrations ${unknown.join(', ')} are unknown here)`;
  return null;
}

/**
 * Builds the backup's schema in `schema` (which must not exist yet) by running the store's
 * migrations up to the backup's version — not to the latest: the copied `kysely_migration`
 * rows must describe the tables exactly, and the next server start migrates further itself.
 */
async function migrateSchema(url: string, schema: string, lastMigration: string, migrations: FeatureMigrations): Promise<void> {
  const pool = new pg.Pool({ connectionString: withSearchPath(await singleHostUrl(url), schema), max: 1 });
  pool.on('error', () => undefined);
  const db = new Kysely<unknown>({ dialect: new StorePostgresDialect({ pool }) });
  try {
    // migrationTableSchema: without it Kysely looks for its tables in every schema, finds the
    // live store's, and never creates them here.
    const migrator = new Migrator({ db, provider: migrationProvider('postgres', migrations), migrationTableSchema: schema });
    const { error } = await migrator.migrateTo(lastMigration);
    if (error !== undefined) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  } finally {
    await db.destroy();
  }
}

async function copySections(client: pg.Client, file: string, manifest: PostgresManifest, key: BackupKey | null): Promise<void> {
  const content = openContent(file, manifest, key);
  const reader = content.stream[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  try {
    for (const table of manifest.tables) {
      if (table.bytes === 0) {
        if (table.rows !== 0) throw new Error(`table ${table.name}: no data for ${table.rows} rows`);
        continue;
      }
      const columns = table.columns.map(ident).join(', ');
      const copy = client.query(copyFrom(`COPY ${ident(table.name)} (${columns}) FROM STDIN`));
      const done = finished(copy);
      done.catch(() => undefined);
      let remaining = table.bytes;
      while (remaining > 0) {
        if (pending.length === 0) {
          const next = await reader.next();
          if (next.done === true) throw new Error('the backup content ended early');
          pending = next.value as Buffer;
        }
        const piece = pending.subarray(0, remaining);
        pending = pending.subarray(piece.length);
        remaining -= piece.length;
        if (!copy.write(piece)) await Promise.race([once(copy, 'drain'), done]);
      }
      copy.end();
      await done;
      if (copy.rowCount !== table.rows) throw new Error(`table ${table.name}: ${copy.rowCount} rows loaded, manifest says ${table.rows}`);
    }
    if (pending.length > 0 || (await reader.next()).done !== true) throw new Error('the backup content is longer than the manifest says');
    if (!content.matches()) throw new Error('content checksum differs from the manifest');
  } finally {
    content.stream.destroy();
  }
}

/**
 * Creates `schema` and loads the backup into it: migrations up to the backup's version, then in
 * one transaction every table emptied (migrations seed rows) and filled with COPY FROM, row
 * counts and content checksum checked, sequences set. On failure the schema is dropped again.
 * `migrations` must be those of every feature the store was opened with: without a feature's
 * migrations its tables cannot be rebuilt and the backup is refused as unknown.
 */
export async function loadIntoNewSchema(
  file: string,
  manifest: PostgresManifest,
  url: string,
  schema: string,
  migrations: FeatureMigrations = {},
  key: BackupKey | null = null,
): Promise<TrialResult> {
  const problem = await schemaVersionProblem(manifest.schemaVersion, migrations);
  if (problem !== null) return { ok: false, reason: problem };
  const admin = await pgClient(url);
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${ident(schema)}`);
    try {
      await migrateSchema(url, schema, manifest.schemaVersion[manifest.schemaVersion.length - 1], migrations);
      await fillSchema(file, manifest, url, schema, key);
      return { ok: true };
    } catch (error) {
      await admin.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
      return { ok: false, reason: (error as Error).message };
    }
  } finally {
    await admin.end();
  }
}

async function fillSchema(file: string, manifest: PostgresManifest, url: string, schema: string, key: BackupKey | null): Promise<void> {
  const client = await pgClient(url, schema);
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    const tables = await schemaTables(client);
    const names = (list: readonly { name: string }[]) =>
      list
        .map((t) => t.name)
        .sort()
        .join();
    if (names(tables) !== names(manifest.tables)) throw new Error('the rebuilt schema has other tables than the backup');
    for (const entry of manifest.tables) {
      const columns = tables.find((t) => t.name === entry.name)?.columns ?? [];
      if (!entry.columns.every((c) => columns.includes(c))) throw new Error(`table ${entry.name}: columns differ from the backup`);
    }
    await client.query(`TRUNCATE ${tables.map((t) => ident(t.name)).join(', ')}`);
    await copySections(client, file, manifest, key);
    for (const seq of manifest.sequences) {
      await client.query(`SELECT setval(pg_get_serial_sequence(format('%I.%I', $1::text, $2::text), $3), $4::bigint, $5)`, [
        schema,
        seq.table,
        seq.column,
        seq.lastValue,
        seq.isCalled,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Puts a loaded schema in place of the live one in one transaction (both renames or neither).
 * The old schema is dropped in the same transaction, except `public` (it may hold extensions
 * and other objects that are not the store's): that one is kept under `previous`.
 */
export async function swapSchemas(
  url: string,
  loaded: string,
  target: string,
  previous: string,
  keepPrevious: boolean,
): Promise<string | null> {
  const client = await pgClient(url);
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1', [target]);
    const hadTarget = rows[0].n > 0;
    if (hadTarget) await client.query(`ALTER SCHEMA ${ident(target)} RENAME TO ${ident(previous)}`);
    await client.query(`ALTER SCHEMA ${ident(loaded)} RENAME TO ${ident(target)}`);
    const keep = hadTarget && (keepPrevious || target === 'public');
    if (hadTarget && !keep) await client.query(`DROP SCHEMA ${ident(previous)} CASCADE`);
    await client.query('COMMIT');
    return keep ? previous : null;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The schema a location means: the given one, or the URL's current schema. */
export async function resolveSchema(url: string, schema: string | undefined): Promise<string> {
  if (schema !== undefined) return schema;
  const client = await pgClient(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ s: string | null }>('SELECT current_schema() AS s');
    const found = rows[0].s;
    if (found === null) throw new Error('the database URL selects no schema (empty search_path)');
    return found;
  } finally {
    await client.end();
  }
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = await pgClient(url);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
