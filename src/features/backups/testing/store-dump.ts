import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_FILE } from '../../../store/index.js';
import { pgClient } from '../postgres-export.js';
import type { StoreLocation } from '../store-location.js';

/** Test helper (not a test file): every table of a store, every row, in a stable order. */
export type StoreDump = Record<string, unknown[][]>;

export interface StoreDumper {
  dump(): Promise<StoreDump>;
  close(): Promise<void>;
}

function sortRows(rows: unknown[][]): unknown[][] {
  const key = (row: unknown[]) => JSON.stringify(row);
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Reads with its own connection, so it can run beside the store that is writing. */
export async function storeDumper(location: StoreLocation): Promise<StoreDumper> {
  if (location.backend === 'sqlite') {
    const db = new BetterSqlite3(join(location.dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    return {
      dump: () => {
        const result: StoreDump = {};
        // One read transaction: all tables from the same moment.
        db.transaction(() => {
          const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
          for (const { name } of tables) {
            result[name] = sortRows(db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]);
          }
        })();
        return Promise.resolve(result);
      },
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = await pgClient(location.url, location.schema);
  await client.connect();
  return {
    dump: async () => {
      const result: StoreDump = {};
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ t: string }>(
        `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
      );
      for (const { t } of rows) {
        const data = await client.query<unknown[]>({ text: `SELECT * FROM "${t}"`, rowMode: 'array' });
        result[t] = sortRows(data.rows);
      }
      await client.query('COMMIT');
      return result;
    },
    close: () => client.end(),
  };
}
