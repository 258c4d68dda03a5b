import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import { freshPgSchema, type PgSchema } from '../../test/helpers/pg-schema.js';

/**
 * Requests whose PostgreSQL connection is cut off mid-way (pg-retry.ts): the pool's backend is
 * ended with `pg_terminate_backend` (57P01, what a primary shutting down sends) while its
 * statement waits for a lock another connection holds, and the request still answers 200
 * with the right data.
 */
describe.skipIf(!process.env.SITEWARD_TEST_PG)('requests cut off from PostgreSQL mid-way (SITEWARD_TEST_PG)', () => {
  let t: TestApp;
  let pgSchema: PgSchema;
  let schema: string;
  let admin: LoggedIn;
  const watcher = new pg.Client({ connectionString: process.env.SITEWARD_TEST_PG });
  beforeAll(async () => {
    pgSchema = (await freshPgSchema())!;
    schema = /search_path=(\w+)/.exec(new URL(pgSchema.url).searchParams.get('options') ?? '')![1]!;
    t = await createTestApp({ env: { SITEWARD_DATABASE_URL: pgSchema.url } });
    admin = await t.loginAs('administrator', { login: 'cut_admin' });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher.end();
    await t.close();
    await pgSchema.drop();
  });

  /** Holds `lock` in an open transaction of another connection until `release`. */
  async function holding(lock: string): Promise<{ pid: number; release: () => Promise<void> }> {
    const locker = new pg.Client({ connectionString: process.env.SITEWARD_TEST_PG });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(lock);
    const pid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    return { pid, release: () => locker.query('ROLLBACK').then(() => locker.end()) };
  }

  /** Ends the first backend that comes to wait for `lockerPid`'s lock; returns its statement. */
  async function terminateWaiter(lockerPid: number): Promise<string> {
    for (let i = 0; i < 2000; i++) {
      const { rows } = await watcher.query<{ pid: number; query: string }>(
        'SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))',
        [lockerPid],
      );
      if (rows[0]) {
        await watcher.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        return rows[0].query;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('no statement came to wait for the lock');
  }

  const users = (path: string, method = 'GET', body?: object) =>
    t.request({ method, path: `/wp-json/wp/v2/users${path}`, headers: t.auth(admin), body });

  it('answers 200 with every user when the read of the users is cut off', async () => {
    await t.loginAs('editor', { login: 'cut_ed' });
    const lock = await holding(`LOCK TABLE "${schema}".users IN ACCESS EXCLUSIVE MODE`);
    const listed = users('?context=edit&per_page=100');
    const cutOff = await terminateWaiter(lock.pid);
    await lock.release();
    const answer = await listed;
    expect(cutOff).toMatch(/^select/i);
    expect(answer.status).toBe(200);
    expect((answer.json as { username: string }[]).map((u) => u.username).sort()).toEqual(['cut_admin', 'cut_ed']);
  });

  it('answers 200 and writes once when a user update is cut off before its COMMIT', async () => {
    const editor = await t.loginAs('editor', { login: 'cut_fay' });
    // A row lock: reads pass, the transaction's UPDATE of this user waits.
    const lock = await holding(`SELECT 1 FROM "${schema}".users WHERE id = ${editor.userId} FOR UPDATE`);
    const updated = users(`/${editor.userId}`, 'PUT', { name: 'Fay Cut' });
    const cutOff = await terminateWaiter(lock.pid);
    await lock.release();
    const answer = await updated;
    expect(cutOff).toMatch(/^update/i);
    expect(answer.status).toBe(200);
    expect((answer.json as { name: string }).name).toBe('Fay Cut');
    // The first run was rolled back: its audit event with it; the second run recorded one.
    const events = await watcher.query(`SELECT id FROM "${schema}".audit_log WHERE action = 'user.updated' AND object_id = $1`, [
      String(editor.userId),
    ]);
    expect(events.rows).toHaveLength(1);
  });

  it('answers 503 with Retry-After when the COMMIT of a user creation is cut off, and the documented check tells', async () => {
    // A deferred trigger runs at COMMIT: it waits for an advisory lock the test holds.
    const key = Math.floor(Math.random() * 1e9);
    await watcher.query(`
      CREATE FUNCTION "${schema}".wait_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_advisory_xact_lock(${key}); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER wait_at_commit AFTER INSERT ON "${schema}".users
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${schema}".wait_at_commit();`);
    try {
      const lock = await holding(`SELECT pg_advisory_xact_lock(${key})`);
      const created = t.request({
        method: 'POST',
        path: '/wp-json/wp/v2/users',
        headers: { ...t.auth(admin), 'X-Request-Id': 'cut-commit-1' },
        body: { username: 'cut_gil', email: 'gil@example.org', password: 'a user password 1' },
      });
      const cutOff = await terminateWaiter(lock.pid);
      await lock.release();
      const answer = await created;
      expect(cutOff).toMatch(/^commit/i);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBeDefined();
      expect((answer.json as { code: string }).code).toBe('siteward_store_unavailable');
      // docs/operations.md "Checking a write whose COMMIT was cut off": the event of the request's
      // id is there exactly when the change is (here the COMMIT was ended before it completed).
      const audit = await t.request({ path: '/wp-json/siteward/v1/audit?search=cut-commit-1', headers: t.auth(admin) });
      expect(audit.status).toBe(200);
      expect(audit.json).toEqual([]);
      const search = await users('?search=cut_gil&context=edit');
      expect(search.json).toEqual([]);
    } finally {
      await watcher.query(`DROP TRIGGER wait_at_commit ON "${schema}".users`);
    }
    // And the same check finds a creation that did commit.
    const again = await t.request({
      method: 'POST',
      path: '/wp-json/wp/v2/users',
      headers: { ...t.auth(admin), 'X-Request-Id': 'cut-commit-2' },
      body: { username: 'cut_gil', email: 'gil@example.org', password: 'a user password 1' },
    });
    expect(again.status).toBe(201);
    const found = await t.request({ path: '/wp-json/siteward/v1/audit?search=cut-commit-2', headers: t.auth(admin) });
    expect((found.json as { action: string }[]).map((e) => e.action)).toEqual(['user.created']);
  });
});
