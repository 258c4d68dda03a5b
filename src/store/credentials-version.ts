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

/** How the repositories bump the credentials version (the store decides who else hears of it). */
export type CredentialsBump = (db: Kysely<Database>) => Promise<void>;

/** The plain bump (SQLite: every process reads the row on every request anyway). */
export const bumpCredentialsVersion: CredentialsBump = async (db) => {
  await sql`INSERT INTO state_version (id, v) VALUES (${CREDENTIALS_ROW}, 1) ON CONFLICT (id) DO UPDATE SET v = state_version.v + 1`.execute(
    db,
  );
};

/**
 * PostgreSQL: the bump also notifies the listeners of `channel` (delivered only if the
 * transaction commits; payload `<row>:<version>` as `versionPayload` builds it) and returns the new version.
 */
export async function bumpAndNotifyCredentials(db: Kysely<Database>, channel: string): Promise<number> {
  const result = await sql<{ v: unknown }>`INSERT INTO state_version (id, v) VALUES (${CREDENTIALS_ROW}, 1)
    ON CONFLICT (id) DO UPDATE SET v = state_version.v + 1
    RETURNING v, pg_notify(${channel}, concat(${`${CREDENTIALS_ROW}:`}::text, v))`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('credentials version bump returned no row');
  return toInt(row.v, 'state_version.v');
}

export async function readCredentialsVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('state_version').select('v').where('id', '=', CREDENTIALS_ROW).executeTakeFirst();
  return row ? toInt(row.v, 'state_version.v') : 0;
}
