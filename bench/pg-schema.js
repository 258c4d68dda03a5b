// A PostgreSQL schema of the bench's own on SITEWARD_BENCH_PG, created at the start of the
// PostgreSQL scenarios and dropped at their end, so a run never reads or leaves tables of
// another (tests and other runs use their own schemas on the same database).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SELF = fileURLToPath(import.meta.url);

async function admin(baseUrl, statement) {
  const client = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 10_000, statement_timeout: 60_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const dropStatement = (schema) => `DROP SCHEMA IF EXISTS "${schema}" CASCADE`;

/**
 * Creates `sw_bench_<random>`; returns its name, a URL whose connections use only it, and
 * drop(). Until drop() has run, leaving the process any way (error, SIGINT, the deadline) drops
 * it too, synchronously from the 'exit' handler through a child process.
 */
export async function createBenchSchema(baseUrl) {
  const schema = `sw_bench_${randomBytes(5).toString('hex')}`;
  await admin(baseUrl, `CREATE SCHEMA "${schema}"`);
  const onExit = () => spawnSync(process.execPath, [SELF, 'drop', baseUrl, schema], { stdio: 'ignore', timeout: 15_000 });
  process.on('exit', onExit);
  const url = new URL(baseUrl);
  // The store reads the schema from the URL's options (open-store.ts / pg's connection string).
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    drop: async () => {
      await admin(baseUrl, dropStatement(schema));
      process.off('exit', onExit);
    },
  };
}

// `node bench/pg-schema.js drop <url> <schema>`: the exit handler's way to drop synchronously.
if (process.argv[1] === SELF && process.argv[2] === 'drop' && /^sw_bench_[0-9a-f]+$/.test(process.argv[4] ?? '')) {
  await admin(process.argv[3], dropStatement(process.argv[4]));
}
