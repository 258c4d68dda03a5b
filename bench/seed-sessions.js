// Fills a stopped Siteward's SQLite store with extra users (each with a role and a live session)
// so the "many sessions" scenario measures session lookup against a large table, not an empty
// one. Talks to the database file only; the schema is read from the file itself rather than
// assumed, so a renamed column fails here with a clear message instead of silently seeding junk.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';

const DAY = 24 * 60 * 60 * 1000;

function columnsOf(db, table) {
  return db.prepare(`PRAGMA table_info(${JSON.stringify(table)})`).all();
}

/**
 * Values for the columns we know the meaning of. A NOT NULL column without a default that is
 * not listed here makes seeding fail: a plausible value cannot be guessed for it.
 */
function rowBuilders(now, rolesKey) {
  const fakeHash = () => `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`;
  return {
    users: (i) => ({
      login: `benchuser${i}`,
      email: `benchuser${i}@example.org`,
      display_name: `Bench User ${i}`,
      pass_hash: fakeHash(), // never verifies: these users only exist to make the tables big
      registered: now,
    }),
    user_meta: (userId) => ({ user_id: userId, key: rolesKey, value: JSON.stringify(['subscriber']) }),
    sessions: (userId) => ({
      token_hash: randomBytes(32).toString('hex'),
      user_id: userId,
      expires_at: now + 14 * DAY,
      user_agent: 'siteward-bench',
      ip: '127.0.0.1',
      created: now,
    }),
  };
}

/** An INSERT for the columns the builder fills, after checking that nothing required is left out. */
function insertFor(db, table, sample) {
  const cols = columnsOf(db, table);
  if (!cols.length) throw new Error(`seed: table "${table}" not found in the store`);
  const names = new Set(cols.map((c) => c.name));
  const used = Object.keys(sample).filter((k) => names.has(k));
  const missing = cols.filter((c) => c.notnull && c.dflt_value === null && !c.pk && !used.includes(c.name));
  // An INTEGER PRIMARY KEY is the rowid (auto-assigned); any other primary key must be given.
  const missingPk = cols.filter(
    (c) => c.pk && !used.includes(c.name) && !(c.type.toUpperCase() === 'INTEGER' && cols.filter((x) => x.pk).length === 1),
  );
  const unknown = [...missing, ...missingPk].map((c) => c.name);
  if (unknown.length) throw new Error(`seed: don't know how to fill ${table}.${unknown.join(`, ${table}.`)}`);
  const stmt = db.prepare(`INSERT INTO ${table} (${used.join(', ')}) VALUES (${used.map((c) => `@${c}`).join(', ')})`);
  return (row) => stmt.run(Object.fromEntries(used.map((k) => [k, row[k]])));
}

/**
 * Adds `count` users, each with a subscriber role and one unexpired session, in one transaction.
 * The roles meta key is taken from the administrator the CLI created, so the rows look exactly
 * like the server's own.
 */
export function seedUsersAndSessions(dbPath, count) {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all();
    for (const t of ['users', 'user_meta', 'sessions']) {
      if (!tables.some((x) => x.name === t)) throw new Error(`seed: no "${t}" table; tables: ${tables.map((x) => x.name).join(', ')}`);
    }
    const roleRow = db.prepare("SELECT key FROM user_meta WHERE value LIKE '%administrator%' LIMIT 1").get();
    if (!roleRow) throw new Error('seed: found no user_meta row holding the administrator role');

    const now = Date.now();
    const build = rowBuilders(now, roleRow.key);
    const insertUser = insertFor(db, 'users', build.users(0));
    const insertMeta = insertFor(db, 'user_meta', build.user_meta(0));
    const insertSession = insertFor(db, 'sessions', build.sessions(0));
    const firstFree = (db.prepare('SELECT COALESCE(MAX(id), 0) AS m FROM users').get().m ?? 0) + 1;

    db.transaction(() => {
      for (let i = firstFree; i < firstFree + count; i++) {
        const { lastInsertRowid } = insertUser(build.users(i));
        const userId = Number(lastInsertRowid);
        insertMeta(build.user_meta(userId));
        insertSession(build.sessions(userId));
      }
    })();
    const counts = Object.fromEntries(['users', 'sessions'].map((t) => [t, db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get().n]));
    return { ...counts, rolesKey: roleRow.key };
  } finally {
    db.close();
  }
}

/**
 * The same seeding on PostgreSQL (`url` selects the store's schema through its search_path):
 * one INSERT … SELECT over generate_series per table, computed by the server, so 100k users,
 * roles and sessions take seconds, not 300k round trips. Bounded by a statement timeout. The
 * values have the shapes of rowBuilders' (random token hashes, unverifiable password hashes).
 */
export async function seedUsersAndSessionsPg(url, count, { timeoutMs = 120_000 } = {}) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: timeoutMs });
  await client.connect();
  try {
    const columns = async (table) =>
      (
        await client.query(
          'SELECT column_name AS name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
          [table],
        )
      ).rows;
    const known = {
      users: ['id', 'login', 'email', 'display_name', 'pass_hash', 'registered'],
      user_meta: ['user_id', 'key', 'value'],
      sessions: ['token_hash', 'user_id', 'expires_at', 'user_agent', 'ip', 'created'],
    };
    for (const [table, filled] of Object.entries(known)) {
      const cols = await columns(table);
      if (!cols.length) throw new Error(`seed: table "${table}" not found in the PostgreSQL schema`);
      const unknown = cols
        .filter((c) => c.is_nullable === 'NO' && c.column_default === null && !filled.includes(c.name))
        .map((c) => c.name);
      if (unknown.length) throw new Error(`seed: don't know how to fill ${table}.${unknown.join(`, ${table}.`)}`);
    }
    const role = (await client.query("SELECT key FROM user_meta WHERE value LIKE '%administrator%' LIMIT 1")).rows[0];
    if (!role) throw new Error('seed: found no user_meta row holding the administrator role');

    const now = Date.now();
    await client.query('BEGIN');
    const before = Number((await client.query('SELECT COALESCE(MAX(id), 0) AS m FROM users')).rows[0].m);
    await client.query(
      `INSERT INTO users (login, email, display_name, pass_hash, registered)
       SELECT 'benchuser' || g, 'benchuser' || g || '@example.org', 'Bench User ' || g,
              '$argon2id$v=19$m=19456,t=2,p=1$' || md5(random()::text) || '$' || md5(random()::text) || md5(random()::text), $3
       FROM generate_series($1::int, $2::int) AS g`,
      [before + 1, before + count, now],
    );
    await client.query('INSERT INTO user_meta (user_id, key, value) SELECT id, $2, $3 FROM users WHERE id > $1', [
      before,
      role.key,
      JSON.stringify(['subscriber']),
    ]);
    await client.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at, user_agent, ip, created)
       SELECT md5(random()::text || id) || md5(random()::text), id, $2, 'siteward-bench', '127.0.0.1', $3 FROM users WHERE id > $1`,
      [before, now + 14 * DAY, now],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE users, user_meta, sessions');
    const counts = {};
    for (const t of ['users', 'sessions']) counts[t] = Number((await client.query(`SELECT COUNT(*) AS n FROM ${t}`)).rows[0].n);
    return { ...counts, rolesKey: role.key };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
