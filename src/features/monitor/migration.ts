import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect as SqlDialect } from '../../store/migrations.js';

/** The migration's name; it sorts after the store's own (`0001_initial`, `0002_runtime_state`). */
export const MONITOR_MIGRATION_NAME = '0102_monitor';

/** Creates the monitor tables (see monitor-tables.ts). Never edit once released: add another. */
export function monitorMigration(dialect: SqlDialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('monitor_intervals')
        .$call((t) =>
          dialect === 'postgres'
            ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
            : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('started', millis, (c) => c.notNull())
        .addColumn('ended', millis)
        .addColumn('reason', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_intervals_started').on('monitor_intervals').column('started').execute();
      await db.schema.createIndex('monitor_intervals_ended').on('monitor_intervals').column('ended').execute();

      await db.schema
        .createTable('monitor_heartbeat')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('at', millis, (c) => c.notNull())
        .execute();
    },
  };
}

/** The second monitor migration: several checks, response-time history, per-host votes, maintenance windows. */
export const MONITOR_CHECKS_MIGRATION_NAME = '0140_monitor_checks';

/** Creates the tables of monitor-tables.ts beyond the first two. Never edit once released: add another. */
export function monitorChecksMigration(dialect: SqlDialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  const serial = (t: CreateTableBuilder<string, never>) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('monitor_checks')
        .$call(serial)
        .addColumn('url', 'text')
        .addColumn('expected_status', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('keyword', 'text')
        .addColumn('keyword_absent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('slow_ms', 'integer')
        .addColumn('created', millis, (c) => c.notNull())
        .execute();
      // Check 1 is the site's own URL (url null: SITEWARD_MONITOR_URL or the home URL); it cannot be removed.
      await sql`INSERT INTO monitor_checks (id, url, expected_status, keyword_absent, created) VALUES (1, NULL, '', 0, 0)`.execute(db);
      if (dialect === 'postgres') await sql`SELECT setval(pg_get_serial_sequence('monitor_checks', 'id'), 1)`.execute(db);
      // Downtimes existing before are the site check's.
      await db.schema
        .alterTable('monitor_intervals')
        .addColumn('check_id', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.createIndex('monitor_intervals_check').on('monitor_intervals').columns(['check_id', 'started']).execute();
      await db.schema
        .createTable('monitor_samples')
        .addColumn('check_id', 'integer', (c) => c.notNull())
        .addColumn('at', millis, (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('ms', 'integer')
        .addColumn('outcome', 'integer', (c) => c.notNull())
        .addColumn('maintenance', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('monitor_samples_check_at').on('monitor_samples').columns(['check_id', 'at']).execute();
      await db.schema
        .createTable('monitor_votes')
        .addColumn('check_id', 'integer', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('at', millis, (c) => c.notNull())
        .addColumn('down', 'integer', (c) => c.notNull())
        .addColumn('since', millis)
        .addColumn('reason', 'text')
        .addPrimaryKeyConstraint('monitor_votes_pk', ['check_id', 'host'])
        .execute();
      await db.schema
        .createTable('monitor_maintenance')
        .$call(serial)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('starts', millis)
        .addColumn('ends', millis)
        .addColumn('cron', 'text')
        .addColumn('duration_minutes', 'integer')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', millis, (c) => c.notNull())
        .execute();
    },
  };
}

/** The third monitor migration: periods when no host checked ("no data"), kept apart from downtimes. */
export const MONITOR_NO_DATA_MIGRATION_NAME = '0185_monitor_no_data';

/**
 * Creates `monitor_no_data` and moves into it the gaps earlier releases recorded as downtimes
 * with the reason "monitor not running": Siteward's own downtime is not the site's. Never edit
 * once released: add another.
 */
export function monitorNoDataMigration(dialect: SqlDialect): Migration {
  const millis = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('monitor_no_data')
        .$call((t) =>
          dialect === 'postgres'
            ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
            : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('check_id', 'integer', (c) => c.notNull())
        .addColumn('started', millis, (c) => c.notNull())
        .addColumn('ended', millis, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_no_data_check').on('monitor_no_data').columns(['check_id', 'ended']).execute();
      await sql`INSERT INTO monitor_no_data (check_id, started, ended)
        SELECT check_id, started, ended FROM monitor_intervals WHERE reason = 'monitor not running' AND ended IS NOT NULL`.execute(db);
      await sql`DELETE FROM monitor_intervals WHERE reason = 'monitor not running'`.execute(db);
    },
  };
}
