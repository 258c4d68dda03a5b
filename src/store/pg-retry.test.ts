import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isServiceUnavailable, ServiceUnavailableError } from '../core/unavailable.js';
import { isRead, markNotApplied, NotAppliedError, OutcomeUnknownError } from './pg-retry.js';
import { testStores, type TestBackend } from './testing/test-stores.js';
import type { Store } from './types.js';

/**
 * What runs again after PostgreSQL cut a connection off (pg-retry.ts), against the test
 * PostgreSQL: a backend of the store's pool is ended with `pg_terminate_backend` (57P01, what
 * a primary shutting down sends) while its statement waits for a lock held by another
 * connection, so the cut comes exactly where the test wants it.
 */
const backend: TestBackend | undefined = testStores().find((b) => b.name === 'postgres');

const cut = (error: unknown) => markNotApplied(error, new ServiceUnavailableError('store', 'x'), PLACE);
const PLACE = { text: 'update users set email = $1', inTransaction: false, commitSent: false };
const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('what may run again after a connection was cut off', () => {
  it('counts a SELECT that only reads as a read, and one that notifies, locks or sets state as a write', () => {
    expect(isRead('select "id", "login" from "users" order by "id"')).toBe(true);
    expect(isRead('SELECT pg_notify($1, $2)')).toBe(false);
    expect(isRead('select v from state_version where id = 1 for update')).toBe(false);
    expect(isRead('select set_config($1, $2, false)')).toBe(false);
    expect(isRead('with bump as (update state_version set v = v + 1 returning v) select v from bump')).toBe(false);
  });

  it('runs again a statement inside a transaction, never a COMMIT sent or a write outside one', () => {
    expect(cut(terminated)).toBeInstanceOf(OutcomeUnknownError);
    expect(markNotApplied(terminated, new ServiceUnavailableError('store', 'x'), { ...PLACE, inTransaction: true })).toBeInstanceOf(
      NotAppliedError,
    );
    // The rollback Kysely sends after a failed COMMIT fails too: that says nothing about the COMMIT.
    const afterCommit = { text: 'rollback', inTransaction: false, commitSent: true };
    expect(markNotApplied(terminated, new ServiceUnavailableError('store', 'x'), afterCommit)).not.toBeInstanceOf(NotAppliedError);
    expect(
      markNotApplied(terminated, new ServiceUnavailableError('store', 'x'), { ...PLACE, text: 'commit', commitSent: true }),
    ).not.toBeInstanceOf(NotAppliedError);
  });

  it('runs again a write refused as read-only (a demoted primary) or never sent, not one cut off after it was sent', () => {
    const readOnly = Object.assign(new Error('cannot execute UPDATE in a read-only transaction'), { code: '25006' });
    expect(cut(readOnly)).toBeInstanceOf(NotAppliedError);
    expect(cut(new Error('Client has encountered a connection error and is not queryable'))).toBeInstanceOf(NotAppliedError);
    expect(cut(new Error('Connection terminated unexpectedly'))).not.toBeInstanceOf(NotAppliedError);
    expect(cut(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).not.toBeInstanceOf(
      NotAppliedError,
    );
  });
});

describe.skipIf(!backend)('PostgreSQL connections cut off mid-way, with the test PostgreSQL (SITEWARD_TEST_PG)', () => {
  const db = backend!;
  const schema = db.storeOptions().schema!;
  const admin = new pg.Client({ connectionString: process.env.SITEWARD_TEST_PG });
  let connected = false;
  afterAll(async () => {
    if (connected) await admin.end();
    await db.cleanup();
  });

  /** A connection holding `lock` in an open transaction; `release` rolls it back. */
  async function holding(lock: string): Promise<{ pid: number; release: () => Promise<void> }> {
    if (!connected) {
      await admin.connect();
      connected = true;
    }
    const locker = new pg.Client({ connectionString: process.env.SITEWARD_TEST_PG });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(lock);
    const pid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    return {
      pid,
      release: async () => {
        await locker.query('ROLLBACK');
        await locker.end();
      },
    };
  }

  /** Ends the first backend found waiting for `locker`'s lock, once one waits. */
  async function terminateWaiter(lockerPid: number): Promise<number> {
    for (let i = 0; i < 2000; i++) {
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [
        lockerPid,
      ]);
      if (rows[0]) {
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        return rows[0].pid;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('no statement came to wait for the lock');
  }

  const user = (login: string) => ({ login, email: `${login}@example.com`, displayName: login, passHash: 'x' });

  async function opened(): Promise<Store> {
    const store = await db.open({ statementTimeoutMs: 10_000 });
    // A first statement, so that the pool has a connection and the migrations are done.
    await store.users.list();
    return store;
  }

  it('answers a read cut off by a terminated backend from a fresh connection, with the right rows', async () => {
    const store = await opened();
    await store.users.create(user('read_ann'));
    await store.users.create(user('read_bob'));
    const lock = await holding(`LOCK TABLE "${schema}".users IN ACCESS EXCLUSIVE MODE`);
    const listed = store.users.list();
    await terminateWaiter(lock.pid);
    await lock.release();
    expect((await listed).map((u) => u.login)).toEqual(['read_ann', 'read_bob']);
  });

  it('runs a store transaction cut off before its COMMIT once more and writes it once', async () => {
    const store = await opened();
    let runs = 0;
    const lock = await holding(`LOCK TABLE "${schema}".users IN ACCESS EXCLUSIVE MODE`);
    const written = store.transaction(async (tx) => {
      runs++;
      await tx.options.set('cut_marker', runs);
      return tx.users.create(user('tx_carol'));
    });
    await terminateWaiter(lock.pid);
    await lock.release();
    const created = await written;
    expect(runs).toBe(2);
    expect(created.login).toBe('tx_carol');
    expect((await store.users.list()).filter((u) => u.login === 'tx_carol')).toHaveLength(1);
    expect(await db.rawRows('options').then((rows) => rows.filter((r) => r.name === 'cut_marker').map((r) => r.value))).toEqual(['2']);
  });

  it('runs an option set cut off before its COMMIT once more, and the value is there for every store', async () => {
    const store = await opened();
    await store.options.set('cut_option', 'first');
    const lock = await holding(`LOCK TABLE "${schema}".options IN ACCESS EXCLUSIVE MODE`);
    const written = store.options.set('cut_option', 'second');
    await terminateWaiter(lock.pid);
    await lock.release();
    await written;
    expect(await store.options.get('cut_option')).toBe('second');
    const other = await db.open();
    expect(await other.options.get('cut_option')).toBe('second');
  });

  it('answers a COMMIT cut off with the store unavailable (503), and never runs it again', async () => {
    const store = await opened();
    // A deferred trigger runs at COMMIT: it waits for an advisory lock the test holds.
    const key = Math.floor(Math.random() * 1e9);
    await db.rawExec(`
      CREATE FUNCTION "${schema}".wait_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_advisory_xact_lock(${key}); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER wait_at_commit AFTER INSERT ON "${schema}".users
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${schema}".wait_at_commit();`);
    let runs = 0;
    const lock = await holding(`SELECT pg_advisory_xact_lock(${key})`);
    const written = store.transaction(async (tx) => {
      runs++;
      return tx.users.create(user('commit_dave'));
    });
    const outcome = written.then(
      () => 'committed',
      (error: unknown) => error,
    );
    await terminateWaiter(lock.pid);
    await lock.release();
    const error = await outcome;
    expect(isServiceUnavailable(error)).toBe(true);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(runs).toBe(1);
    await db.rawExec(`DROP TRIGGER wait_at_commit ON "${schema}".users`);
  });

  it('leaves a write outside a transaction cut off after it was sent unavailable (503), not run again', async () => {
    const store = await opened();
    const added = await store.users.create(user('single_erin'));
    const lock = await holding(`LOCK TABLE "${schema}".users IN ACCESS EXCLUSIVE MODE`);
    const renamed = store.users.updateProfile(added.id, { email: 'erin@example.org' }).then(
      () => 'written',
      (error: unknown) => error,
    );
    await terminateWaiter(lock.pid);
    await lock.release();
    const error = await renamed;
    expect(isServiceUnavailable(error)).toBe(true);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    // It waited for the lock and was ended before it ran; the store answers again at once.
    expect((await store.users.byId(added.id))?.email).toBe('single_erin@example.com');
  });
});
