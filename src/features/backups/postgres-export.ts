import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { singleHostUrl } from '../../store/pg-hosts.js';
import { MIGRATION_TABLES, type PostgresTableEntry, type SequenceEntry } from './backup-manifest.js';

/** Where a PostgreSQL store lives: the URL and the schema (absent: the URL's current schema). */
export interface PostgresLocation {
  readonly url: string;
  readonly schema?: string;
}

export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A double-quoted identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The URL with `schema` as its search_path. It goes into the URL's own `options` parameter,
 * after any given there: pg lets the connection string's values win over separate config
 * fields, so a URL that selects a schema (`?options=-c search_path=…`) would otherwise send
 * a verify or restore into the live schema.
 */
export function withSearchPath(url: string, schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const parsed = new URL(url);
  parsed.searchParams.set('options', `${parsed.searchParams.get('options') ?? ''} -c search_path=${schema}`.trim());
  return parsed.toString();
}

/**
 * A plain client whose search_path is the schema (like the store's own pool). With several
 * hosts in the URL it goes to the one its `target_session_attrs` chooses, as the store does.
 */
export async function pgClient(url: string, schema?: string): Promise<pg.Client> {
  const one = await singleHostUrl(url);
  return new pg.Client({ connectionString: schema === undefined ? one : withSearchPath(one, schema) });
}

interface TableShape {
  readonly name: string;
  readonly columns: string[];
}

/** Base tables of the current schema with their (non-generated) columns in order, by name. */
export async function schemaTables(client: pg.Client): Promise<TableShape[]> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated <> 'ALWAYS'
      ORDER BY c.table_name COLLATE "C", c.ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? [];
    columns.push(row.column_name);
    tables.set(row.table_name, columns);
  }
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

/**
 * Orders tables so that every table comes after the tables its foreign keys reference: the
 * restore loads them in this order with immediate constraint checks. Cycles keep name order.
 */
async function orderByForeignKeys(client: pg.Client, tables: TableShape[]): Promise<TableShape[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace AND c.oid <> p.oid`,
  );
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const byName = new Map(tables.map((t) => [t.name, t]));
  const visit = (table: TableShape): void => {
    if (placed.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const { child, parent } of rows) {
      const target = child === table.name ? byName.get(parent) : undefined;
      if (target) visit(target);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

async function sequenceValues(client: pg.Client): Promise<SequenceEntry[]> {
  const { rows } = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `SELECT table_name, column_name, seq FROM (
       SELECT table_name, column_name,
              pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) AS seq
         FROM information_schema.columns WHERE table_schema = current_schema()) s
      WHERE seq IS NOT NULL ORDER BY table_name COLLATE "C", column_name COLLATE "C"`,
  );
  const values: SequenceEntry[] = [];
  for (const row of rows) {
    // `seq` comes from pg_get_serial_sequence, already a quoted, qualified name.
    const { rows: state } = await client.query<{ v: string; c: boolean }>(`SELECT last_value::text AS v, is_called AS c FROM ${row.seq}`);
    values.push({ table: row.table_name, column: row.column_name, lastValue: state[0].v, isCalled: state[0].c });
  }
  return values;
}

export interface PostgresExport {
  /** Every table's COPY text output in load order; consume it exactly once. */
  readonly content: AsyncIterable<Buffer>;
  /** Available once `content` is consumed. */
  result(): { tables: PostgresTableEntry[]; sequences: SequenceEntry[]; schemaVersion: string[] };
}

/**
 * A logical export of every table of the schema from one snapshot: one client, one
 * `REPEATABLE READ READ ONLY` transaction, `COPY (cols) TO STDOUT` in text format per table.
 * Text format ends every row with a newline (newlines inside values are escaped), so rows are
 * counted by counting newlines. The schema itself is not exported: a restore recreates it by
 * running the store's migrations up to the manifest's schema version.
 */
export async function exportPostgres(location: PostgresLocation): Promise<PostgresExport> {
  const client = await pgClient(location.url, location.schema);
  await client.connect();
  let tables: TableShape[];
  let sequences: SequenceEntry[];
  let schemaVersion: string[];
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const found = await schemaTables(client);
    for (const required of MIGRATION_TABLES) {
      if (!found.some((t) => t.name === required)) throw new Error(`the schema has no ${required} table: not a migrated Siteward store`);
    }
    tables = await orderByForeignKeys(client, found);
    schemaVersion = (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name COLLATE "C"')).rows.map(
      (r) => r.name,
    );
    // Sequences are outside transactions: this reads their value now, which is at least the
    // snapshot's, so a restored store never hands out an id the snapshot already used.
    sequences = await sequenceValues(client);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  const entries: PostgresTableEntry[] = [];
  async function* content(): AsyncGenerator<Buffer> {
    try {
      for (const table of tables) {
        const columns = table.columns.map(ident).join(', ');
        const stream = client.query(copyTo(`COPY ${ident(table.name)} (${columns}) TO STDOUT`));
        let bytes = 0;
        let rows = 0;
        for await (const chunk of stream) {
          const buffer = chunk as Buffer;
          bytes += buffer.length;
          for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) rows += 1;
          yield buffer;
        }
        entries.push({ name: table.name, rows, columns: table.columns, bytes });
      }
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return {
    content: content(),
    result: () => ({ tables: entries, sequences, schemaVersion }),
  };
}
