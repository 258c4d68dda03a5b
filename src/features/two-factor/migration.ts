import type { Kysely, Migration } from 'kysely';
import type { Dialect as SqlDialect } from '../../store/migrations.js';

export const TWO_FACTOR_MIGRATION_NAME = '0170_two_factor';

/** Creates the two-factor tables (see tables.ts). Never edit once released: add another. */
export function twoFactorMigration(dialect: SqlDialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('two_factor_users')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('last_step', big, (c) => c.notNull())
        .addColumn('created', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('two_factor_recovery')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('used_at', big)
        .addPrimaryKeyConstraint('two_factor_recovery_pk', ['user_id', 'hash'])
        .execute();
    },
  };
}

export const TWO_FACTOR_MIGRATIONS = { [TWO_FACTOR_MIGRATION_NAME]: twoFactorMigration } as const;
