import { sql, type Kysely } from 'kysely';
import { toInt } from './db-values.js';
import type { Database } from './schema.js';

/**
 * The credentials version: row 2 of `state_version` (row 1 is the options' version). It goes
 * up whenever a verified login may have stopped being valid (a session destroyed, a password,
 * role or application password changed, a user deleted), so every process can keep verified
 * logins cached and still see such a change made by any other process on its next request.
 * A row of its own, because logins must not throw the option caches away. The row is created
 * by its first bump, so no migration is needed; absent reads as 0.
 */
export const CREDENTIALS_ROW = 2;

export async function bumpCredentialsVersion(db: Kysely<Database>): Promise<void> {
  await sql`INSERT INTO state_version (id, v) VALUES (${CREDENTIALS_ROW}, 1) ON CONFLICT (id) DO UPDATE SET v = state_version.v + 1`.execute(db);
}

export async function readCredentialsVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('state_version').select('v').where('id', '=', CREDENTIALS_ROW).executeTakeFirst();
  return row ? toInt(row.v, 'state_version.v') : 0;
}
