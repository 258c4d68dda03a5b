import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { listenerName, versionFeed } from './pg-store.js';
import { versionChannel, VersionWatch } from './pg-version-watch.js';
import { testStores, type TestBackend } from './testing/test-stores.js';
import type { Store } from './types.js';

/**
 * PostgreSQL: versions pushed by LISTEN/NOTIFY instead of a version query per read. Every store
 * here re-checks only once a minute unless a test sets its own clock, so whatever a read sees
 * sooner came by notification (or by the reconnect that follows a lost listener).
 */
const backend: TestBackend | undefined = testStores().find((b) => b.name === 'postgres');
const RARELY = 60_000;

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function listening(store: Store): Promise<void> {
  await until(() => versionFeed(store).listening, Boolean, 'the listener');
}

describe.skipIf(!backend)('versions pushed by PostgreSQL LISTEN/NOTIFY', () => {
  const db = backend!;
  afterAll(() => db.cleanup());
  /** The `application_name` of this schema's listening connections. */
  const listener = db ? listenerName(versionChannel(db.storeOptions().schema!)) : '';

  /** A plain connection to the test schema (for writes that bypass the store). */
  async function raw<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({
      connectionString: db.storeOptions().databaseUrl,
      options: `-c search_path=${db.storeOptions().schema}`,
    });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  it('shows a write through one instance to the next reads of another, by notification', async () => {
    const writer = await db.open({ versionRecheckMs: RARELY });
    const reader = await db.open({ versionRecheckMs: RARELY });
    await Promise.all([listening(writer), listening(reader)]);
    await writer.options.set('pushed_toggle', false);
    await until(
      () => reader.options.get('pushed_toggle'),
      (v) => v === false,
      'the first value',
    );
    await writer.options.set('pushed_toggle', true);
    // The writer sees its own write at once, without waiting for its own notification.
    expect(await writer.options.get('pushed_toggle')).toBe(true);
    expect(
      await until(
        () => reader.options.get('pushed_toggle'),
        (v) => v === true,
        'the toggle',
      ),
    ).toBe(true);
    // Writes inside a transaction count once committed, also for the writer itself.
    await writer.transaction((tx) => tx.options.set('pushed_toggle', 'tx'));
    expect(await writer.options.get('pushed_toggle')).toBe('tx');
    expect(
      await until(
        () => reader.options.get('pushed_toggle'),
        (v) => v === 'tx',
        'the transaction’s write',
      ),
    ).toBe('tx');
  });

  it('reads with a healthy listener send no query at all; without one each read asks for the version', async () => {
    const queries: string[] = [];
    const pushed = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(pushed);
    await pushed.options.set('counted', 1);
    await pushed.options.get('counted');
    await pushed.sessions.credentialsVersion();
    queries.length = 0;
    for (let i = 0; i < 50; i++) {
      expect(await pushed.options.get('counted')).toBe(1);
      await pushed.sessions.credentialsVersion();
    }
    expect(queries).toEqual([]);

    const polled: string[] = [];
    const perRead = await db.open({ versionRecheckMs: 0, onQuery: (text) => void polled.push(text) });
    await perRead.options.get('counted');
    polled.length = 0;
    for (let i = 0; i < 50; i++) {
      expect(await perRead.options.get('counted')).toBe(1);
      await perRead.sessions.credentialsVersion();
    }
    expect(polled.filter((text) => text.includes('state_version'))).toHaveLength(100);
    // Concurrent checks share a query (at most one in flight and one queued behind it).
    polled.length = 0;
    await Promise.all(Array.from({ length: 10 }, () => perRead.sessions.credentialsVersion()));
    await Promise.all(Array.from({ length: 10 }, () => perRead.options.get('counted')));
    expect(polled.filter((text) => text.includes('state_version')).length).toBeLessThanOrEqual(4);
  });

  it('catches a missed notification with the re-check, at most one interval later', async () => {
    let now = 1_000_000;
    const reader = await db.open({ versionRecheckMs: 1000, clock: () => now });
    await listening(reader);
    await reader.options.set('missed', 'before');
    expect(await reader.options.get('missed')).toBe('before');
    // A commit whose notification never arrives: the version moves without NOTIFY.
    await raw(async (client) => {
      await client.query(`UPDATE options SET value = '"after"' WHERE name = 'missed'`);
      await client.query('UPDATE state_version SET v = v + 1 WHERE id = 1');
    });
    now += 999;
    expect(await reader.options.get('missed')).toBe('before');
    now += 1;
    expect(await reader.options.get('missed')).toBe('after');
  });

  it('moves its listener to a new connection when told the host in use changed, and reads the versions again', async () => {
    // What a failover to a fenced (not dead) primary needs: that listener would hear nothing more.
    const store = await db.open({ versionRecheckMs: RARELY });
    await listening(store);
    let dropped = 0;
    let clients = 0;
    const watch = new VersionWatch({
      newClient: () => {
        clients++;
        return new pg.Client({
          connectionString: db.storeOptions().databaseUrl,
          options: `-c search_path=${db.storeOptions().schema}`,
          application_name: 'moving listener',
        });
      },
      channel: versionChannel(db.storeOptions().schema!),
      rows: [1],
      recheckMs: RARELY,
      clock: Date.now,
      onDropped: () => void dropped++,
      onError: () => undefined,
    });
    try {
      watch.start();
      await until(() => watch.feed().listening, Boolean, 'the first listener');
      const pidOf = () =>
        raw((c) => c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'moving listener'`)).then((r) =>
          r.rows.map((row) => row.pid),
        );
      const [first] = await pidOf();
      // A commit whose notice this listener never hears (sent while it was elsewhere).
      const v = await raw((c) => c.query<{ v: string }>('UPDATE state_version SET v = v + 1 WHERE id = 1 RETURNING v')).then((r) =>
        Number(r.rows[0]!.v),
      );
      const droppedBefore = dropped;
      watch.reconnect();
      await until(
        () => watch.feed(),
        (feed) => feed.listening && feed.connects === 2,
        'the listener on its new connection',
      );
      expect(clients).toBe(2);
      expect(dropped).toBeGreaterThan(droppedBefore);
      expect(watch.trusted(1)).toBe(v);
      expect(await until(pidOf, (pids) => pids.length === 1, 'one listening connection')).not.toEqual([first]);
    } finally {
      await watch.close();
    }
  });

  it('drops its caches when the listener is killed and reads the versions again on reconnecting', async () => {
    const reader = await db.open({ versionRecheckMs: RARELY });
    await listening(reader);
    await reader.options.set('killed', 'before');
    expect(await reader.options.get('killed')).toBe('before');
    const before = versionFeed(reader).connects;
    // Missed while the listener is down: nothing notifies this write.
    await raw(async (client) => {
      await client.query(`UPDATE options SET value = '"after"' WHERE name = 'killed'`);
      await client.query('UPDATE state_version SET v = v + 1 WHERE id = 1');
      const killed = await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [listener]);
      expect(killed.rowCount).toBeGreaterThan(0);
    });
    await until(
      () => versionFeed(reader),
      (feed) => feed.listening && feed.connects > before,
      'the reconnect',
    );
    expect(await reader.options.get('killed')).toBe('after');
    // And notifications flow again on the new connection.
    const writer = await db.open({ versionRecheckMs: RARELY });
    await writer.options.set('killed', 'again');
    expect(
      await until(
        () => reader.options.get('killed'),
        (v) => v === 'again',
        'a notification after the reconnect',
      ),
    ).toBe('again');
  });

  it('asks the database on every read while its listener cannot reconnect, and stops once it is back', async (ctx) => {
    // A role of its own with a connection limit keeps the lost listener from reconnecting
    // while the pool's open connection goes on serving (superusers ignore limits).
    const role = `sw_test_role_${randomBytes(4).toString('hex')}`;
    const schema = `${role}_s`;
    const admin = <T>(fn: (client: pg.Client) => Promise<T>) => raw(fn);
    const onDatabase = (grant: string) => `DO $$ BEGIN EXECUTE format('${grant}', current_database()); END $$`;
    await admin((c) =>
      c.query(
        `CREATE ROLE ${role} LOGIN; CREATE SCHEMA ${schema} AUTHORIZATION ${role}; ${onDatabase(`GRANT CREATE ON DATABASE %I TO ${role}`)}`,
      ),
    );
    let store: Store | undefined;
    try {
      const url = new URL(db.storeOptions().databaseUrl!);
      url.username = role;
      const queries: string[] = [];
      try {
        store = await openStore({
          dataDir: db.dataDir,
          databaseUrl: url.toString(),
          schema,
          poolSize: 1,
          versionRecheckMs: RARELY,
          onQuery: (text) => void queries.push(text),
        });
      } catch (error) {
        // A server that lets only its superuser in (no trust for other roles) cannot run this.
        if ((error as { code?: string }).code === '28P01' || (error as { code?: string }).code === '28000') ctx.skip();
        throw error;
      }
      const s = store;
      await listening(s);
      await s.options.set('fallback', 'one');
      expect(await s.options.get('fallback')).toBe('one');
      const before = versionFeed(s).connects;
      await admin(async (c) => {
        await c.query(`ALTER ROLE ${role} CONNECTION LIMIT 1`);
        await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          listenerName(versionChannel(schema)),
        ]);
      });
      await until(
        () => versionFeed(s).listening,
        (up) => !up,
        'the listener to be lost',
      );
      // A change nobody notifies: seen on the very next read, because every read asks.
      await admin((c) =>
        c.query(
          `UPDATE ${schema}.options SET value = '"two"' WHERE name = 'fallback'; UPDATE ${schema}.state_version SET v = v + 1 WHERE id = 1`,
        ),
      );
      queries.length = 0;
      expect(await s.options.get('fallback')).toBe('two');
      await s.sessions.credentialsVersion();
      expect(queries.filter((text) => text.includes('state_version')).length).toBeGreaterThanOrEqual(2);
      expect(versionFeed(s).connects).toBe(before);

      await admin((c) => c.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`));
      // Back-off doubles from 0.1 s to at most 5 s between attempts.
      const deadline = Date.now() + 30_000;
      while (!(versionFeed(s).listening && versionFeed(s).connects > before)) {
        if (Date.now() > deadline) throw new Error('the listener did not come back');
        await new Promise((r) => setTimeout(r, 20));
      }
      // The reconnect dropped the cache: one reload, then no more queries.
      expect(await s.options.get('fallback')).toBe('two');
      queries.length = 0;
      expect(await s.options.get('fallback')).toBe('two');
      await s.sessions.credentialsVersion();
      expect(queries).toEqual([]);
    } finally {
      await store?.close();
      await admin((c) =>
        c.query(
          `DROP SCHEMA IF EXISTS ${schema} CASCADE; ${onDatabase(`REVOKE ALL ON DATABASE %I FROM ${role}`)}; DROP ROLE IF EXISTS ${role}`,
        ),
      );
    }
  }, 30_000);

  it('carries the credentials version too: a logout through one instance reaches the other', async () => {
    const a = await db.open({ versionRecheckMs: RARELY });
    const b = await db.open({ versionRecheckMs: RARELY });
    await Promise.all([listening(a), listening(b)]);
    const user = await a.users.create({ login: 'pushed_user', email: 'pushed@example.org', displayName: 'P', passHash: 'x' });
    await a.sessions.create({
      tokenHash: 'pushed-token',
      userId: user.id,
      expiresAt: Date.now() + 60_000,
      userAgent: '',
      ip: '',
      created: Date.now(),
    });
    const version = await b.sessions.credentialsVersion();
    expect(await a.sessions.destroy('pushed-token')).toBe(true);
    // Read-your-writes for the instance that logged out, the other by notification.
    expect(await a.sessions.credentialsVersion()).toBe(version + 1);
    expect(
      await until(
        () => b.sessions.credentialsVersion(),
        (v) => v === version + 1,
        'the logout',
      ),
    ).toBe(version + 1);
    // A change inside a transaction, once committed.
    await a.transaction((tx) => tx.users.setPassword(user.id, 'y').then(() => undefined));
    expect(await a.sessions.credentialsVersion()).toBe(version + 2);
    expect(
      await until(
        () => b.sessions.credentialsVersion(),
        (v) => v === version + 2,
        'the password change',
      ),
    ).toBe(version + 2);
  });

  it('closes its listener with the store (no connection left behind)', async () => {
    const store = await db.open({ versionRecheckMs: RARELY });
    await listening(store);
    const count = () =>
      raw(async (client) =>
        Number(
          (await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [listener])).rows[0]!
            .n,
        ),
      );
    const open = await count();
    await store.close();
    expect(versionFeed(store).listening).toBe(false);
    await until(count, (n) => n === open - 1, 'the listener to close');
  });
});
