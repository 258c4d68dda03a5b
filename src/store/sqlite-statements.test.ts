import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptStatements } from './sqlite-statements.js';

describe('KeptStatements', () => {
  const open: Database.Database[] = [];
  const connect = () => {
    const db = new Database(':memory:');
    open.push(db);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    return db;
  };
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
  });

  it('hands out the same prepared statement for the same SQL text', () => {
    const db = connect();
    const kept = new KeptStatements(() => db);
    const first = kept.prepare('SELECT v FROM t WHERE id = ?');
    expect(kept.prepare('SELECT v FROM t WHERE id = ?')).toBe(first);
    expect(kept.prepare('SELECT id FROM t')).not.toBe(first);
    expect(kept.size).toBe(2);
  });

  it('keeps at most its bound, dropping the oldest text first', () => {
    const db = connect();
    const kept = new KeptStatements(() => db, 3);
    const texts = [1, 2, 3, 4].map((n) => `SELECT ${n} AS n`);
    const firsts = texts.map((text) => kept.prepare(text));
    expect(kept.size).toBe(3);
    expect(kept.prepare(texts[3]!)).toBe(firsts[3]);
    expect(kept.prepare(texts[0]!)).not.toBe(firsts[0]);
  });

  it('starts afresh on a new connection: a statement of the closed one is never used', () => {
    const holder = { db: connect() };
    const kept = new KeptStatements(() => holder.db);
    const old = kept.prepare('SELECT count(*) AS n FROM t');
    holder.db.close();
    holder.db = connect();
    const fresh = kept.prepare('SELECT count(*) AS n FROM t');
    expect(fresh).not.toBe(old);
    expect(fresh.all([])).toEqual([{ n: 0 }]);
    expect(kept.size).toBe(1);
  });

  it('never hands out a statement that is still being iterated', () => {
    const db = connect();
    db.exec("INSERT INTO t (v) VALUES ('a'), ('b')");
    const kept = new KeptStatements(() => db);
    const reading = kept.prepare('SELECT v FROM t ORDER BY id');
    const rows = reading.iterate([]);
    expect(rows.next().value).toEqual({ v: 'a' });
    const other = kept.prepare('SELECT v FROM t ORDER BY id');
    expect(other).not.toBe(reading);
    expect(other.all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(rows.next().value).toEqual({ v: 'b' });
    expect(rows.next().done).toBe(true);
  });

  it('sees columns added after the statement was first prepared (SQLite prepares it again)', async () => {
    const db = connect();
    const kysely = new Kysely<{ t: { id: Generated<number>; v: string } }>({
      dialect: new SqliteDialect({ database: new KeptStatements(() => db) }),
    });
    await kysely.insertInto('t').values({ v: 'a' }).execute();
    const select = () => kysely.selectFrom('t').selectAll().execute();
    expect(await select()).toEqual([{ id: 1, v: 'a' }]);
    db.exec("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'");
    expect(await select()).toEqual([{ id: 1, v: 'a', w: 'x' }]);
    expect(await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(kysely)).toEqual({ rows: [{ n: 1 }] });
  });
});
