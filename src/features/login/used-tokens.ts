/**
 * Single-use tokens of the login form (a solved challenge's signature, a second step's
 * pending-login token), remembered in the store until they expire so that every worker and
 * host sharing it refuses a second use.
 */
import type { ColumnType, Kysely, Migration } from 'kysely';
import type { Dialect as SqlDialect } from '../../store/migrations.js';
import type { FeatureDb } from '../db/feature-db.js';

export const USED_TOKENS_MIGRATION_NAME = '0171_login_used_tokens';

export interface UsedTokensTables {
  login_used_tokens: { hash: string; expires: ColumnType<number | string | bigint, number, number> };
}

/** Creates `login_used_tokens` (hash of the token, when it can be forgotten). Never edit once released. */
export function usedTokensMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('login_used_tokens')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('expires', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_used_tokens_expires').on('login_used_tokens').column('expires').execute();
    },
  };
}

export class UsedTokens {
  constructor(private readonly db: FeatureDb<UsedTokensTables>) {}

  /** Marks `hash` used until `expires` (ms); true only for the first use, on any process. */
  async use(hash: string, expires: number): Promise<boolean> {
    const rows = await this.db.run((db) =>
      db
        .insertInto('login_used_tokens')
        .values({ hash, expires })
        .onConflict((oc) => oc.column('hash').doNothing())
        .returning('hash')
        .execute(),
    );
    return rows.length === 1;
  }

  /** True when `hash` was used (a cheap look before spending anything else on a token). */
  async used(hash: string): Promise<boolean> {
    const row = await this.db.run((db) => db.selectFrom('login_used_tokens').select('hash').where('hash', '=', hash).executeTakeFirst());
    return row !== undefined;
  }

  /** Forgets tokens that have expired anyway (a periodic job). */
  async purge(now: number): Promise<number> {
    const result = await this.db.run((db) => db.deleteFrom('login_used_tokens').where('expires', '<', now).executeTakeFirst());
    return Number(result.numDeletedRows);
  }
}
