import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh schema on the test PostgreSQL (`SITEWARD_TEST_PG`), for a whole test app. */
export interface PgSchema {
  /** A database URL whose connections use only this schema. */
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * Creates a schema of its own on `SITEWARD_TEST_PG` so that test files running in parallel
 * never share tables; null when no test PostgreSQL is configured.
 */
export async function freshPgSchema(): Promise<PgSchema | null> {
  const base = process.env.SITEWARD_TEST_PG;
  if (!base) return null;
  const schema = `sw_test_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA "${schema}"`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`) };
}
