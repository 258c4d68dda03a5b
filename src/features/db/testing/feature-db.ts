import type { MigrationFactory } from '../../../store/migrations.js';
import { testStores } from '../../../store/testing/test-stores.js';
import { featureDb, type FeatureDb, type SqlDialect } from '../feature-db.js';

/**
 * Test helper (not a test file): real stores with a feature's migrations, on SQLite always and
 * on PostgreSQL too when `SITEWARD_TEST_PG` holds a URL (see src/store/testing/test-stores.ts).
 */
export interface FeatureTestBackend {
  readonly name: SqlDialect;
  /** Opens one more store on the same database (another connection, like another process). */
  open<DB>(): Promise<FeatureDb<DB>>;
  cleanup(): Promise<void>;
}

export function featureTestBackends(migrations: Readonly<Record<string, MigrationFactory>>): FeatureTestBackend[] {
  return testStores().map((backend) => {
    return {
      name: backend.name,
      open: async <DB>(): Promise<FeatureDb<DB>> => featureDb<DB>(await backend.open({ migrations })),
      cleanup: () => backend.cleanup(),
    };
  });
}
