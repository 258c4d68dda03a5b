import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { postgresBinDir, startReplicatedPostgres, type ReplicatedPostgres } from './helpers/replicated-postgres.js';
import { hostGroup, type Host, type HostGroup } from './helpers/siteward-hosts.js';
import { within } from './helpers/within.js';

/**
 * Riding through PostgreSQL's failover: two `siteward start` hosts on a primary and a
 * synchronous streaming standby of the test's own, with libpq's several-host URL. The primary
 * dies (or is demoted) under write and read load and the standby is promoted, as pg_auto_failover
 * or Patroni would do. Needs PostgreSQL's server binaries (initdb, pg_basebackup, pg_ctl).
 */
const binDir = postgresBinDir();
const CONNECT_TIMEOUT_MS = 1000;
/** The first acknowledged write after the promotion comes within this (connect timeout + one search + a request). */
const WRITE_BACK_MS = 8000;
const PASSWORD = 'failover-admin-password';

if (!binDir) console.warn('pg-failover.slow.test: PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin): SKIPPED');

interface Outcome {
  readonly host: string;
  readonly kind: 'create' | 'toggle' | 'read';
  readonly status: number;
  readonly retryAfter: string | null;
  readonly at: number;
  readonly login?: string;
}

interface Session {
  readonly headers: Record<string, string>;
}

async function login(host: Host): Promise<Session> {
  const res = await fetch(`${host.base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login on ${host.name}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const { nonce } = (await res.json()) as { nonce: string };
  return { headers: { cookie, 'x-wp-nonce': nonce, 'content-type': 'application/json' } };
}

/** Writes (a new user each: every acknowledged one must survive) and toggles and reads, until stopped. */
function load(host: Host, session: Session, outcomes: Outcome[]): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const record = (kind: Outcome['kind'], res: Response, login?: string) =>
    outcomes.push({
      host: host.name,
      kind,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      at: Date.now(),
      ...(login ? { login } : {}),
    });
  const writer = (async () => {
    while (running) {
      const login = `u-${host.name}-${n++}`;
      const created = await fetch(`${host.base}/wp-json/wp/v2/users`, {
        method: 'POST',
        headers: session.headers,
        body: JSON.stringify({ username: login, email: `${login}@example.org`, password: 'a user password 1' }),
      });
      await created.arrayBuffer();
      record('create', created, login);
      const toggled = await fetch(`${host.base}/wp-json/jetpack/v4/module/markdown/active`, {
        method: 'POST',
        headers: session.headers,
        body: JSON.stringify({ active: n % 2 === 0 }),
      });
      await toggled.arrayBuffer();
      record('toggle', toggled);
    }
  })();
  const reader = (async () => {
    while (running) {
      const res = await fetch(`${host.base}/wp-json/jetpack/v4/settings`, { headers: session.headers });
      await res.arrayBuffer();
      record('read', res);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await Promise.all([writer, reader]);
    },
  };
}

/** Acknowledged user creations to have before the failover (a loaded machine hashes passwords slowly). */
const BEFORE_FAILOVER = 4;

function someAcknowledged(outcomes: readonly Outcome[]): Promise<unknown> {
  return within(
    30_000,
    () => Promise.resolve(outcomes.filter((o) => o.kind === 'create' && o.status === 201).length),
    (n) => n >= BEFORE_FAILOVER,
    `${BEFORE_FAILOVER} users created before the failover`,
  );
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!binDir)('PostgreSQL failover under two hosts (a primary and a synchronous standby of the test’s own)', () => {
  let cluster: ReplicatedPostgres | undefined;
  let group: HostGroup | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await group?.stop();
    cluster?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function twoHosts(): Promise<[Host, Host]> {
    cluster = await startReplicatedPostgres(binDir!);
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-failover-'));
    const [portA, portB] = [await freePort(), await freePort()];
    group = hostGroup(
      dir,
      {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        SITEWARD_DATABASE_URL: cluster.url,
        SITEWARD_SECRET: 'one secret for every host of this site, 32+ bytes',
        SITEWARD_DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        SITEWARD_DB_STATEMENT_TIMEOUT_MS: '2000',
        SITEWARD_JOB_LEASE_MS: '3000',
        SITEWARD_WORKERS: '1',
        LOG_LEVEL: 'info',
      },
      30_000,
    );
    group.run('a', ['user', 'create', 'admin', '--email', 'admin@example.org', '--role', 'administrator', '--password', PASSWORD], 30_000);
    const home = `http://127.0.0.1:${portA}`;
    return (await Promise.all([
      group.start('a', portA, { SITEWARD_HOME_URL: home }),
      group.start('b', portB, { SITEWARD_HOME_URL: home }),
    ])) as [Host, Host];
  }

  /** What every failover must leave: nothing acknowledged lost, only 503 + Retry-After, writes back in time, one store seen by both. */
  async function expectRodeThrough(hosts: [Host, Host], sessions: [Session, Session], outcomes: Outcome[], promotedAt: number) {
    const bad = outcomes.filter((o) => o.status >= 500 && !(o.status === 503 && o.retryAfter !== null));
    expect(bad, 'no 5xx but 503 with Retry-After').toEqual([]);
    // 409: a toggle to the state the other host just set (module already active or inactive).
    expect(outcomes.filter((o) => o.status !== 503 && o.status >= 400 && !(o.kind === 'toggle' && o.status === 409))).toEqual([]);
    const acknowledged = outcomes.filter((o) => o.kind === 'create' && o.status === 201).map((o) => o.login!);
    expect(acknowledged.length).toBeGreaterThanOrEqual(BEFORE_FAILOVER + 2);
    const present = new Set(
      (await query<{ login: string }>(cluster!.standbyUrl, 'SELECT login FROM users WHERE login = ANY($1)', [acknowledged])).map(
        (r) => r.login,
      ),
    );
    expect(
      acknowledged.filter((l) => !present.has(l)),
      'acknowledged writes lost',
    ).toEqual([]);
    const firstWrite = outcomes.find((o) => o.kind !== 'read' && o.at > promotedAt && o.status < 300);
    expect(firstWrite, 'a write succeeded after the promotion').toBeDefined();
    expect(firstWrite!.at - promotedAt).toBeLessThan(WRITE_BACK_MS);
    console.info(
      `failover: ${acknowledged.length} users acknowledged, 0 lost; ${outcomes.filter((o) => o.status === 503).length} × 503 of ${outcomes.length} requests; first write ${firstWrite!.at - promotedAt} ms after the promotion`,
    );

    // Both hosts see each other's changes within a second (LISTEN again on the new primary).
    const [a, b] = hosts;
    const active = async (host: Host, session: Session) =>
      (
        (await (await fetch(`${host.base}/wp-json/jetpack/v4/module/all`, { headers: session.headers })).json()) as Record<
          string,
          { activated: boolean }
        >
      ).markdown!.activated;
    for (const [writer, reader, ws, rs, on] of [
      [a, b, sessions[0], sessions[1], true],
      [b, a, sessions[1], sessions[0], false],
    ] as const) {
      const res = await fetch(`${writer.base}/wp-json/jetpack/v4/module/markdown/active`, {
        method: 'POST',
        headers: ws.headers,
        body: JSON.stringify({ active: on }),
      });
      expect(res.status).toBe(200);
      await within(
        1000,
        () => active(reader, rs),
        (v) => v === on,
        `${writer.name}'s toggle seen on ${reader.name}`,
      );
    }
    // One job leader on the new primary.
    await within(
      10_000,
      () =>
        query<{ holder: string }>(cluster!.standbyUrl, `SELECT holder FROM leases WHERE name = 'background-jobs' AND until > $1`, [
          Date.now(),
        ]),
      (rows) => rows.length === 1,
      'one background-jobs lease holder on the promoted server',
    );

    // Credentials too (the other cache NOTIFY keeps fresh): a password changed on one host ends
    // the user's session on the other within a second.
    const carol = `carol-${Date.now()}`;
    const created = await fetch(`${a.base}/wp-json/wp/v2/users`, {
      method: 'POST',
      headers: sessions[0].headers,
      body: JSON.stringify({ username: carol, email: `${carol}@example.org`, password: 'carol password one' }),
    });
    expect(created.status).toBe(201);
    const carolId = ((await created.json()) as { id: number }).id;
    const onB = await fetch(`${b.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: carol, password: 'carol password one' }),
    });
    expect(onB.status).toBe(200);
    const carolOnB = {
      cookie: onB.headers.get('set-cookie')!.split(';')[0]!,
      'x-wp-nonce': ((await onB.json()) as { nonce: string }).nonce,
    };
    const me = () => fetch(`${b.base}/wp-json/wp/v2/users/me`, { headers: carolOnB }).then((r) => r.status);
    expect(await me()).toBe(200);
    const changed = await fetch(`${a.base}/wp-json/wp/v2/users/${carolId}`, {
      method: 'PUT',
      headers: sessions[0].headers,
      body: JSON.stringify({ password: 'carol password two' }),
    });
    expect(changed.status).toBe(200);
    await within(1000, me, (status) => status === 401 || status === 403, `carol's session on b ended by the password change on a`);

    // One audit chain across the switch: `siteward audit verify` (the several-host URL finds the
    // promoted server) walks every row, ids one after the other from 1, hashes chained; each
    // acknowledged user has its event in it.
    const verified = group!.run('a', ['audit', 'verify'], 60_000);
    const rows = /^Audit log verified: rows 1–(\d+) \((\d+) events\)/.exec(verified);
    expect(rows, verified).not.toBeNull();
    expect(rows![1]).toBe(rows![2]);
    const [head] = await query<{ last_id: string; count: string }>(
      cluster!.standbyUrl,
      'SELECT last_id, count FROM audit_head WHERE id = 1',
    );
    expect([head!.last_id, head!.count].map(Number)).toEqual([Number(rows![1]), Number(rows![1])]);
    const recorded = new Set(
      (await query<{ data: string }>(cluster!.standbyUrl, `SELECT data FROM audit_log WHERE action = 'user.created'`)).map(
        (r) => (JSON.parse(r.data) as { changes: { login: { after: string } } }).changes.login.after,
      ),
    );
    expect(
      acknowledged.filter((l) => !recorded.has(l)),
      'acknowledged user creations without their audit event',
    ).toEqual([]);
    console.info(`audit chain after the failover: ${verified.trim()}`);
  }

  /**
   * Two hosts under load; once some writes are acknowledged, `failover` happens (the old primary
   * dies or is fenced, then the standby is promoted, as the orchestrator does); the load goes on
   * until each host has created a user after the promotion. Returns the two hosts' output.
   */
  async function underLoad(
    failover: (cluster: ReplicatedPostgres) => Promise<void>,
  ): Promise<{ hosts: [Host, Host]; outcomes: Outcome[] }> {
    const hosts = await twoHosts();
    const sessions = (await Promise.all(hosts.map(login))) as [Session, Session];
    const outcomes: Outcome[] = [];
    const loads = hosts.map((h, i) => load(h, sessions[i]!, outcomes));
    await someAcknowledged(outcomes);
    await failover(cluster!);
    cluster!.promoteStandby();
    const promotedAt = Date.now();
    await within(
      WRITE_BACK_MS + 5000,
      () => Promise.resolve(outcomes.filter((o) => o.kind === 'create' && o.at > promotedAt && o.status === 201).map((o) => o.host)),
      (done) => done.includes('a') && done.includes('b'),
      'a user created on each host after the promotion',
    );
    await Promise.all(loads.map((l) => l.stop()));
    await expectRodeThrough(hosts, sessions, outcomes, promotedAt);
    return { hosts, outcomes };
  }

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('loses no acknowledged write when the primary dies and the standby is promoted, and writes come back within seconds', async () => {
    const { hosts } = await underLoad(async (pair) => {
      pair.killPrimary();
      await pause(1000);
    });
    for (const host of hosts) expect(host.output()).toContain('PostgreSQL host in use');
  }, 180_000);

  it('drops the connections of a primary demoted under its pool (25006) and goes on with the promoted one', async () => {
    const { hosts, outcomes } = await underLoad(async (pair) => {
      // The orchestrator fences the old primary first (its pooled connections stay open), then promotes.
      pair.demotePrimary();
      await pause(500);
    });
    // The fenced server refused the writes sent to it (503), and each host moved to the promoted one.
    expect(outcomes.some((o) => o.status === 503)).toBe(true);
    for (const host of hosts) expect(host.output()).toContain('PostgreSQL host in use changed (failover)');
  }, 180_000);
});
