import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct SQL texts keep their prepared statement (the store's queries number under a hundred). */
export const MAX_KEPT_STATEMENTS = 256;

/**
 * Kysely's connection to SQLite: always the store's current connection (it is replaced when a
 * read-only store reopens), with each SQL text's prepared statement kept for the next query.
 *
 * Speed and memory: Kysely's SQLite driver prepares every query anew. Preparing cost about a
 * fifth of a user update's CPU (the update runs a dozen queries), and each statement's native
 * memory stayed allocated until a full garbage collection finalized its JS object, so RSS grew
 * under writes (docs/performance.md 19). better-sqlite3 resets a statement after each `run` or
 * `all`, and SQLite prepares it again by itself when the schema changes, so reuse is safe; a
 * statement still being iterated (`busy`) is never handed out twice.
 *
 * Bounded: the oldest text is dropped once `max` are kept, so queries built with ever new texts
 * (an `in (…)` list of every length) cannot grow memory without end.
 */
export class KeptStatements implements SqliteDatabase {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private connection: BetterSqlite3.Database | null = null;

  constructor(
    private readonly current: () => BetterSqlite3.Database,
    private readonly max = MAX_KEPT_STATEMENTS,
  ) {}

  prepare(sql: string): SqliteStatement {
    const db = this.current();
    // Statements belong to their connection: a reopened store starts afresh.
    if (db !== this.connection) {
      this.statements.clear();
      this.connection = db;
    }
    const kept = this.statements.get(sql);
    if (kept !== undefined && !kept.busy) return kept;
    const statement = db.prepare(sql);
    if (kept === undefined) {
      if (this.statements.size >= this.max) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** How many statements are kept (for tests). */
  get size(): number {
    return this.statements.size;
  }

  close(): void {
    this.statements.clear();
    this.current().close();
  }
}
