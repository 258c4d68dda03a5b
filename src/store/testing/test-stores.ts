import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openStore, SQLITE_FILE, type OpenStoreOptions } from '../open-store.js';
import { versionFeed } from '../pg-store.js';
import type { Store } from '../types.js';

/**
 * Test helper (not a test file): the store backends a test suite should run against.
 * SQLite always; PostgreSQL too when `SITEWARD_TEST_PG` holds a connection URL.
 * Every backend object owns a fresh database (a temp directory, or a new `sw_test_<random>`
 * schema), so parallel test files never share state.
 *
 * @example
 * describe.each(testStores())('options on $name', (backend) => {
 *   let store: Store;
 *   beforeAll(async () => { store = await backend.open(); });
 *   afterAll(() => backend.cleanup());
 *   it('stores a value', async () => { … });
 * });
 */
export interface TestBackend {
  readonly name: 'sqlite' | 'postgres';
  /** The temp data directory (created on first use; also used by PostgreSQL for secrets). */
  readonly dataDir: string;
  /** openStore options for this backend's database, for code that opens the store itself. */
  storeOptions(extra?: Partial<OpenStoreOptions>): OpenStoreOptions;
  /** Opens a Store on this backend's database; call again for a second instance on the same data. */
  open(extra?: Partial<OpenStoreOptions>): Promise<Store>;
  /** Every row of a table, read with the plain driver (to check what is really stored). */
  rawRows(table: string): Promise<Record<string, unknown>[]>;
  /** Runs statements with the plain driver, behind the store's back (tamper tests). */
  rawExec(statements: string): Promise<void>;
  /** Closes every store it opened, then removes the directory and drops the schema. */
  cleanup(): Promise<void>;
}

/** Resolves once a PostgreSQL store's listener is up (at once on SQLite), within 20 s. */
export async function listening(store: Store): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (store.backend === 'postgres' && !versionFeed(store).listening) {
    if (Date.now() > deadline) throw new Error('the listener did not come up');
    await new Promise((r) => setTimeout(r, 2));
  }
}

export function testStores(): TestBackend[] {
  const backends: TestBackend[] = [new TempBackend('sqlite', undefined)];
  const url = process.env.SITEWARD_TEST_PG;
  if (url) backends.push(new TempBackend('postgres', url));
  return backends;
}

class TempBackend implements TestBackend {
  private dir: string | undefined;
  private readonly opened: Store[] = [];
  private readonly schema: string | undefined;

  constructor(
    readonly name: 'sqlite' | 'postgres',
    private readonly url: string | undefined,
  ) {
    this.schema = url ? `sw_test_${randomBytes(6).toString('hex')}` : undefined;
  }

  get dataDir(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), `siteward-${this.name}-`));
    return this.dir;
  }

  storeOptions(extra: Partial<OpenStoreOptions> = {}): OpenStoreOptions {
    return { dataDir: this.dataDir, databaseUrl: this.url, schema: this.schema, ...extra };
  }

  async open(extra: Partial<OpenStoreOptions> = {}): Promise<Store> {
    const store = await openStore(this.storeOptions(extra));
    this.opened.push(store);
    return store;
  }

  async rawRows(table: string): Promise<Record<string, unknown>[]> {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
    if (this.url) {
      const client = new pg.Client({ connectionString: this.url, options: `-c search_path=${this.schema}` });
      await client.connect();
      try {
        return (await client.query<Record<string, unknown>>(`SELECT * FROM ${table}`)).rows;
      } finally {
        await client.end();
      }
    }
    const db = new BetterSqlite3(join(this.dataDir, SQLITE_FILE), { readonly: true });
    try {
      return db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }

  async rawExec(statements: string): Promise<void> {
    if (this.url) {
      const client = new pg.Client({ connectionString: this.url, options: `-c search_path=${this.schema}` });
      await client.connect();
      try {
        await client.query(statements);
      } finally {
        await client.end();
      }
      return;
    }
    const db = new BetterSqlite3(join(this.dataDir, SQLITE_FILE));
    try {
      db.exec(statements);
    } finally {
      db.close();
    }
  }

  async cleanup(): Promise<void> {
    const stores = this.opened.splice(0);
    await Promise.allSettled(stores.map((s) => s.close()));
    if (this.url && this.schema) {
      const client = new pg.Client({ connectionString: this.url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      } finally {
        await client.end();
      }
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
