/**
 * Honest HTTP Basic clients and Protect's check slots, against the built server with two workers
 * (`siteward start --workers 2`) on SQLite and (with SITEWARD_TEST_PG) PostgreSQL: a valid
 * application password is never refused for lack of a slot, not under 48 parallel clients and
 * not right after a kill -9 left slots behind, while a burst of wrong passwords is still checked
 * exactly SITEWARD_PROTECT_MAX_FAILURES (5) times.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY, send, serverBackends, twoWorkerServer, type TwoWorkerServer } from './helpers/two-worker-server.js';
import { within } from './helpers/within.js';

const PASSWORD = 'Quartz-Lantern-Meadow-93';
const CLIENTS = 48;

const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

describe.each(serverBackends)('honest Basic clients of two workers on $name', ({ pg: onPg }) => {
  let server: TwoWorkerServer;
  let port: number;
  const apps: string[] = [];

  /** Runs `statement` on the server's store from outside (SQLite file or PostgreSQL schema); answers the rows. */
  async function onStore<T>(statement: string): Promise<T[]> {
    const schema = server.schema;
    if (schema) {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        return (await client.query(statement)).rows as T[];
      } finally {
        await client.end();
      }
    }
    const db = new Database(path.join(server.dir, 'data', 'siteward.db'));
    try {
      const prepared = db.prepare(statement);
      return prepared.reader ? (prepared.all() as T[]) : (prepared.run(), []);
    } finally {
      db.close();
    }
  }

  /** Check slots in the store (reservations of checks in progress, or of processes that died mid-check). */
  const pendingSlots = async () => Number((await onStore<{ n: unknown }>('SELECT count(*) AS n FROM protect_attempts'))[0]!.n);

  beforeAll(async () => {
    server = await twoWorkerServer({ prefix: 'siteward-basic-', pg: onPg });
    port = server.port;
    server.cli(['user', 'create', 'boss', '--email', 'boss@example.org', '--role', 'administrator', '--password', PASSWORD]);
    for (const name of ['deploy', 'backup-script']) apps.push(server.cli(['app-password', 'create', 'boss', name, '--porcelain']));
    expect(apps.every((p) => /^[A-Za-z0-9 ]{24,}$/.test(p))).toBe(true);
    await server.start();
    const admin = await server.login('boss', PASSWORD);
    const activated = await send(port, 'POST', '/wp-json/jetpack/v4/module/protect/active', admin, JSON.stringify({ active: true }));
    expect(activated.status, activated.text).toBe(200);
  }, 90_000);

  afterAll(() => server?.close());

  it(`answers ${CLIENTS} parallel Basic clients with valid application passwords without a single 429`, async () => {
    const statuses: number[] = [];
    // Fresh credentials on both workers first (nothing verified yet), then again.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) => send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', apps[i % apps.length]!))),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('lets a valid Basic request in at once after a kill -9 in the middle of password checks', async () => {
    // Right passwords through the login form (each check takes tens of milliseconds), many at
    // once: their slots are held when the whole server is killed.
    let stop = false;
    const logins = Array.from({ length: 24 }, async () => {
      while (!stop) {
        await send(port, 'POST', '/login', JSON_BODY, JSON.stringify({ username: 'boss', password: PASSWORD })).catch(() => undefined);
      }
    });
    await within(30_000, pendingSlots, (n) => n >= 3, 'password checks in progress');
    const killed = server.stop('SIGKILL');
    stop = true;
    await killed;
    await Promise.all(logins);
    // What the dead processes left behind: reservations that nobody will give back. The kill
    // may land just as one was given back: copies of them make up the limit (5) exactly.
    const left = await pendingSlots();
    expect(left).toBeGreaterThan(0);
    const columns = (
      await onStore<{ name: string }>(
        server.schema
          ? "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'protect_attempts' AND table_schema = current_schema()"
          : "SELECT name FROM pragma_table_info('protect_attempts')",
      )
    )
      .map((c) => c.name)
      .filter((name) => name !== 'id')
      .join(', ');
    for (let n = left; n < 5; n++)
      await onStore(`INSERT INTO protect_attempts (${columns}) SELECT ${columns} FROM protect_attempts LIMIT 1`);
    expect(await pendingSlots()).toBe(Math.max(left, 5));

    await server.start();
    const answer = await send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', apps[0]!));
    // At once: not a 429 until the dead slots' time-to-live (60 s) has passed.
    expect(answer.status, answer.text).toBe(200);
    await server.login('boss', PASSWORD);
  }, 120_000);

  it('still checks exactly 5 of 100 simultaneous wrong Basic passwords; the rest are refused before any check', async () => {
    const wrong = 'AAAAbbbbCCCCddddEEEEffff';
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        // Half the same wrong password (one check in flight per credential must not share a failure), half different ones.
        send(port, 'GET', '/wp-json/jetpack/v4/settings', basic('boss', i % 2 === 0 ? wrong : `${wrong.slice(0, 20)}${String(1000 + i)}`)),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
  }, 60_000);
});
