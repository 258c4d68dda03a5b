import type { Kysely, Migration } from 'kysely';
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
