import type { JsonValue } from '../core/json.js';
import { openSqlite } from './sqlite-store.js';
import type { StoreImpl } from './store-impl.js';
import type { OpenStoreOptions, SiteSeed } from './store-options.js';
import type { Store } from './types.js';

export { SQLITE_FILE } from './sqlite-store.js';
export type { OpenStoreOptions, SiteSeed } from './store-options.js';

/**
 * Opens the store, runs pending migrations and seeds absent site options.
 *
 * @example
 * const store = await openStore({ dataDir: './data', seed: { blogname: 'My site' } });
 * await store.options.set('active_modules', ['protect']);
 * await store.close();
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  let store: StoreImpl;
  if (url === undefined || url === '') store = await openSqlite(options);
  // Loaded only for PostgreSQL: `pg` and its dialect cost a SQLite worker ~4 MB of RSS for nothing (issue 26).
  else if (/^postgres(ql)?:\/\//i.test(url)) store = await (await import('./pg-store.js')).openPostgres(url, options);
  else throw new Error(`unsupported database URL (expected postgres:// or none for SQLite): ${url.split(':')[0]}:…`);
  try {
    if (options.seed) await seed(store, options.seed);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
async function seed(store: Store, values: SiteSeed): Promise<void> {
  const entries = Object.entries(values).filter((e): e is [string, JsonValue] => e[1] !== undefined);
  if (entries.length === 0) return;
  const existing = await store.options.getMany(entries.map(([name]) => name));
  for (const [name, value] of entries) {
    // `?? value` inside the atomic update: another process may have seeded it meanwhile.
    if (!existing.has(name)) await store.options.update(name, (current) => current ?? value);
  }
}
