// A PostgreSQL schema of the bench's own on SITEWARD_BENCH_PG, created at the start of the
// PostgreSQL scenarios and dropped at their end, so a run never reads or leaves tables of
// another (tests and other runs use their own schemas on the same database).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function admin(baseUrl, statement) {
  const client = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 10_000, statement_timeout: 60_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates `sw_bench_<random>`; returns its name, a URL whose connections use only it, and drop(). */
export async function createBenchSchema(baseUrl) {
  const schema = `sw_bench_${randomBytes(5).toString('hex')}`;
  await admin(baseUrl, `CREATE SCHEMA "${schema}"`);
  const url = new URL(baseUrl);
  // The store reads the schema from the URL's options (open-store.ts / pg's connection string).
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { schema, url: url.toString(), drop: () => admin(baseUrl, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`) };
}
