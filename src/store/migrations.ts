import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * In-code migrations, applied in name order by Kysely's Migrator at open. Never edit a
 * released migration: add a new one. Dialect differences are limited to the id column and
 * the timestamp type.
 */
function initial(dialect: Dialect): Migration {
  // BIGINT for milliseconds: INTEGER would overflow in PostgreSQL (SQLite integers are 64-bit anyway).
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('options')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('autoload', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();

      // One row (id 1) whose counter every option write bumps: other processes compare it
      // with their cached copy to know when their option cache is stale.
      await db.schema
        .createTable('state_version')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('v', millis, (c) => c.notNull())
        .execute();
      await sql`INSERT INTO state_version (id, v) VALUES (1, 0)`.execute(db);

      await db.schema
        .createTable('users')
        .$call((t) =>
          dialect === 'postgres'
            ? t.addColumn('id', 'serial', (c) => c.primaryKey())
            : // AUTOINCREMENT: ids of deleted users are never reused (WordPress behaves the same).
              t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('pass_hash', 'text', (c) => c.notNull())
        .addColumn('registered', millis, (c) => c.notNull())
        .execute();
      // Case-insensitive uniqueness; lookups use the same expressions so the indexes serve them.
      await db.schema
        .createIndex('users_login_key')
        .unique()
        .on('users')
        .expression(sql`lower(login)`)
        .execute();
      await db.schema
        .createIndex('users_email_key')
        .unique()
        .on('users')
        .expression(sql`lower(email)`)
        .execute();

      await db.schema
        .createTable('user_meta')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_meta_pkey', ['user_id', 'key'])
        .execute();
      await db.schema.createIndex('user_meta_key').on('user_meta').column('key').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', millis, (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', millis, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

      await db.schema
        .createTable('app_passwords')
        .addColumn('uuid', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('created', millis, (c) => c.notNull())
        .addColumn('last_used', millis)
        .execute();
      await db.schema.createIndex('app_passwords_hash_key').unique().on('app_passwords').column('hash').execute();
      await db.schema.createIndex('app_passwords_user_id').on('app_passwords').column('user_id').execute();
    },
  };
}

/**
 * State that changes many times a minute (job leases, service status) gets tables of its own:
 * written through options it would bump the state version and throw every cached answer away.
 */
function runtimeState(dialect: Dialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('until', millis, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('status_values')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated', millis, (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * WordPress 5.6's application-password record also keeps the client's app id and the address of
 * the last use (`wp/v2/users/{id}/application-passwords`, docs/spec/current-clients.md §C.3).
 */
function appPasswordDetails(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('app_passwords')
        .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('app_passwords').addColumn('last_ip', 'text').execute();
    },
  };
}

/**
 * The audit log (docs/audit-log.md): events with their hash chain, the chain's head (one row,
 * locked by every append so one chain covers all hosts), and the signed checkpoints. Ids are
 * given by the appender from the head (last_id + 1 …), not by a sequence: they are gap-free,
 * so a deleted row shows as a gap.
 */
function auditLog(dialect: Dialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', millis, (c) => c.primaryKey())
        .addColumn('time', millis, (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'integer', (c) => c.notNull())
        .addColumn('object_type', 'text', (c) => c.notNull())
        .addColumn('object_id', 'text', (c) => c.notNull())
        // The event's canonical JSON (audit-chain.ts): what the hash covers.
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_time').on('audit_log').column('time').execute();
      await db.schema.createIndex('audit_log_action').on('audit_log').column('action').execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_user_id', 'id']).execute();
      await db.schema.createIndex('audit_log_object').on('audit_log').columns(['object_type', 'object_id', 'id']).execute();
      await db.schema
        .createTable('audit_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_id', millis, (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('count', millis, (c) => c.notNull())
        .execute();
      await sql`INSERT INTO audit_head (id, last_id, hash, count) VALUES (1, 0, ${'0'.repeat(64)}, 0)`.execute(db);
      await db.schema
        .createTable('audit_checkpoints')
        .addColumn('last_id', millis, (c) => c.primaryKey())
        .addColumn('head_hash', 'text', (c) => c.notNull())
        .addColumn('count', millis, (c) => c.notNull())
        .addColumn('time', millis, (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .execute();
      // Failed logins collapse into one row per address and login per window (docs/audit-log.md).
      await db.schema
        .createTable('audit_failed_logins')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('login', 'text', (c) => c.notNull())
        .addColumn('window_start', millis, (c) => c.notNull())
        .addColumn('count', millis, (c) => c.notNull())
        .addColumn('first_time', millis, (c) => c.notNull())
        .addColumn('last_time', millis, (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_failed_logins_pkey', ['address', 'login', 'window_start'])
        .execute();
    },
  };
}

/** A migration for one dialect. Features contribute theirs through the feature contract. */
export type MigrationFactory = (dialect: Dialect) => Migration;

/** The store's own migrations. Names sort globally with the features' ones: take the next free number. */
const coreMigrations: Record<string, MigrationFactory> = {
  '0001_initial': initial,
  '0002_runtime_state': runtimeState,
  '0130_app_password_details': appPasswordDetails,
  '0190_audit_log': auditLog,
};

/** The migration provider for one dialect: the store's migrations plus `extra` (from features). */
export function migrationProvider(dialect: Dialect, extra: Readonly<Record<string, MigrationFactory>> = {}): MigrationProvider {
  return {
    getMigrations: () => {
      const all: Record<string, Migration> = {};
      for (const [name, factory] of Object.entries({ ...coreMigrations, ...extra })) {
        if (name in coreMigrations && factory !== coreMigrations[name]) throw new Error(`migration name ${name} is taken by the store`);
        all[name] = factory(dialect);
      }
      return Promise.resolve(all);
    },
  };
}
