import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { featureDbFromKysely, type FeatureDb, type SqlDialect } from './feature-db.js';

/**
 * Test helper (not a test file): a fresh database per backend with the given migrations
 * applied. SQLite always (a temp file); PostgreSQL too when `SITEWARD_TEST_PG` holds a URL
 * (a new `sw_feat_<random>` schema, dropped by cleanup()).
 */
export interface FeatureTestBackend {
  readonly name: SqlDialect;
  /** Opens one more handle on the same database (another connection, like another process). */
  open<DB>(): Promise<FeatureDb<DB>>;
  cleanup(): Promise<void>;
}

export function featureTestBackends(migrations: (dialect: SqlDialect) => Record<string, Migration>): FeatureTestBackend[] {
  const backends: FeatureTestBackend[] = [new Backend('sqlite', undefined, migrations)];
  const url = process.env.SITEWARD_TEST_PG;
  if (url) backends.push(new Backend('postgres', url, migrations));
  return backends;
}

class Backend implements FeatureTestBackend {
  private dir: string | undefined;
  private migrated = false;
  private readonly handles: Kysely<unknown>[] = [];
  private readonly schema = `sw_feat_${randomBytes(6).toString('hex')}`;

  constructor(
    readonly name: SqlDialect,
    private readonly url: string | undefined,
    private readonly migrations: (dialect: SqlDialect) => Record<string, Migration>,
  ) {}

  async open<DB>(): Promise<FeatureDb<DB>> {
    const db = this.kysely<DB>();
    this.handles.push(db as Kysely<unknown>);
    if (!this.migrated) {
      this.migrated = true;
      if (this.name === 'postgres') await sql`CREATE SCHEMA ${sql.id(this.schema)}`.execute(db);
      const all = this.migrations(this.name);
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) } });
      const { error } = await migrator.migrateToLatest();
      if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    }
    // Handles of one process share a gate, as the store's SqliteGate does (feature-db.ts).
    return featureDbFromKysely(db, this.name, { exclusive: (fn) => this.hold(fn) });
  }

  private tail: Promise<unknown> = Promise.resolve();

  private hold<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private kysely<DB>(): Kysely<DB> {
    if (this.url !== undefined) {
      const pool = new pg.Pool({ connectionString: this.url, max: 6, options: `-c search_path=${this.schema}` });
      pool.on('error', () => undefined);
      return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    }
    this.dir ??= mkdtempSync(join(tmpdir(), 'siteward-feature-'));
    const conn = new BetterSqlite3(join(this.dir, 'test.db'), { timeout: 5000 });
    conn.pragma('journal_mode = WAL');
    return new Kysely<DB>({ dialect: new SqliteDialect({ database: conn }) });
  }

  async cleanup(): Promise<void> {
    const handles = this.handles.splice(0);
    await Promise.allSettled(handles.map((h) => h.destroy()));
    if (this.url !== undefined && this.migrated) {
      const client = new pg.Client({ connectionString: this.url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      } finally {
        await client.end();
      }
    }
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}
