/**
 * The store id (issue 20 item 8): a random id created with the store by this feature's
 * migration, kept in the store itself (so a backup carries it and a restore brings it back),
 * recorded in every backup's manifest and used as the backup's folder in every target. Two
 * stores sharing one backup directory or bucket thus never see each other's backups.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../store/migrations.js';
import { featureDb } from '../db/feature-db.js';
import type { Store } from '../../store/types.js';

export const STORE_ID_MIGRATION_NAME = '0150_backup_store_id';
export const STORE_ID_TABLE = 'backup_store_id';

export interface StoreIdTables {
  backup_store_id: { id: string };
}

/** Creates the one-row table and the id. Never edit once released: add another. */
export function storeIdMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable(STORE_ID_TABLE)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .execute();
      await (db as unknown as Kysely<StoreIdTables>).insertInto('backup_store_id').values({ id: randomUUID() }).execute();
    },
  };
}

/** A store id as this feature writes it (a UUID); anything else in a folder name is not a store. */
export function isStoreId(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(text);
}

/** The id of an opened store. */
export async function readStoreId(store: Pick<Store, 'backend' | 'tables'>): Promise<string> {
  const row = await featureDb<StoreIdTables>(store).run((db) => db.selectFrom('backup_store_id').select('id').executeTakeFirst());
  if (row === undefined) throw new Error('the store has no store id (its backup_store_id table is empty)');
  return row.id;
}
