import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect as SqlDialect } from '../../store/migrations.js';

/** The migration's name; it sorts after the store's own (`0001_initial`, `0002_runtime_state`). */
export const PROTECT_MIGRATION_NAME = '0101_protect';

/** An auto-numbered `id` primary key in either dialect. */
function idColumn(dialect: SqlDialect) {
  return <T extends CreateTableBuilder<string, never>>(t: T) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Creates the protect tables (see protect-tables.ts). Never edit once released: add another. */
export function protectMigration(dialect: SqlDialect): Migration {
  // BIGINT for milliseconds: INTEGER would overflow in PostgreSQL (SQLite integers are 64-bit anyway).
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('protect_keys')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('touched', millis, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('protect_keys_touched').on('protect_keys').column('touched').execute();

      await db.schema
        .createTable('protect_failures')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', millis, (c) => c.notNull())
        .execute();
      // Serves the per-key window count; the purge by `at` alone scans, which is fine for a janitor.
      await db.schema.createIndex('protect_failures_key_at').on('protect_failures').columns(['key', 'at']).execute();

      await db.schema
        .createTable('protect_blocks')
        .$call(idColumn(dialect))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', millis, (c) => c.notNull())
        .addColumn('until', millis, (c) => c.notNull())
        .addColumn('level', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('protect_blocks_key_until').on('protect_blocks').columns(['key', 'until']).execute();
      await db.schema.createIndex('protect_blocks_key_at').on('protect_blocks').columns(['key', 'at']).execute();

      await db.schema
        .createTable('protect_events')
        .$call(idColumn(dialect))
        .addColumn('at', millis, (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('protect_events_kind_at').on('protect_events').columns(['kind', 'at']).execute();
      await db.schema.createIndex('protect_events_at').on('protect_events').column('at').execute();

      await db.schema
        .createTable('protect_stats')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', millis, (c) => c.notNull())
        .execute();
      await sql`INSERT INTO protect_stats (name, value) VALUES ('blocked_attempts', 0)`.execute(db);
    },
  };
}

/** The second protect migration: attempts counted before their password is checked. */
export const PROTECT_ATTEMPTS_MIGRATION_NAME = '0110_protect_attempts';

/** Creates `protect_attempts` (see protect-tables.ts). Never edit once released: add another. */
export function protectAttemptsMigration(dialect: SqlDialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('protect_attempts')
        .$call(idColumn(dialect))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', millis, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('protect_attempts_key_at').on('protect_attempts').columns(['key', 'at']).execute();
    },
  };
}

/** The third: what a block list shows (who, how often, which logins), lifting blocks, unlock links, the digest mark. */
export const PROTECT_DETAILS_MIGRATION_NAME = '0160_protect_block_details';

/** Adds block details, event keys, `protect_unlocks` and the digest mark (see protect-tables.ts). Never edit once released: add another. */
export function protectDetailsMigration(dialect: SqlDialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('protect_blocks')
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('protect_blocks')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('protect_blocks').addColumn('first_at', millis).execute();
      await db.schema.alterTable('protect_blocks').addColumn('lifted_at', millis).execute();
      await db.schema.alterTable('protect_blocks').addColumn('lifted_by', 'text').execute();
      await db.schema.createIndex('protect_blocks_at').on('protect_blocks').column('at').execute();
      // Events before this migration have no key: they stay in the history, not in a block's details.
      await db.schema.alterTable('protect_events').addColumn('key', 'text').execute();
      await db.schema.createIndex('protect_events_key_at').on('protect_events').columns(['key', 'at']).execute();
      await db.schema
        .createTable('protect_unlocks')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('created', millis, (c) => c.notNull())
        .addColumn('expires', millis, (c) => c.notNull())
        .addColumn('used_at', millis)
        .execute();
      await db.schema.createIndex('protect_unlocks_user_created').on('protect_unlocks').columns(['user_id', 'created']).execute();
      await sql`INSERT INTO protect_stats (name, value) VALUES ('digest_sent_at', 0)`.execute(db);
    },
  };
}

/** The fourth: what failed (password, two-factor code, recovery code), so the list names it. */
export const PROTECT_FAILURE_KIND_MIGRATION_NAME = '0186_protect_failure_kind';

/** Adds `protect_events.failure` (null: a password, as every failure before this migration was). Never edit once released. */
export function protectFailureKindMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('protect_events').addColumn('failure', 'text').execute();
    },
  };
}

/** The fifth: who holds each check slot, so that a dead process's slots stop counting at once. */
export const PROTECT_ATTEMPT_OWNER_MIGRATION_NAME = '0188_protect_attempt_owner';

/** Adds `protect_attempts.owner` (null: a slot from before it, counted until its time-to-live). Never edit once released. */
export function protectAttemptOwnerMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('protect_attempts').addColumn('owner', 'text').execute();
    },
  };
}

/** Every protect migration, by name (the feature's `migrations`). */
export const PROTECT_MIGRATIONS = {
  [PROTECT_MIGRATION_NAME]: protectMigration,
  [PROTECT_ATTEMPTS_MIGRATION_NAME]: protectAttemptsMigration,
  [PROTECT_DETAILS_MIGRATION_NAME]: protectDetailsMigration,
  [PROTECT_FAILURE_KIND_MIGRATION_NAME]: protectFailureKindMigration,
  [PROTECT_ATTEMPT_OWNER_MIGRATION_NAME]: protectAttemptOwnerMigration,
} as const;
