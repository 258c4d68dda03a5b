import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION_RECHECK_MS } from '../src/store/pg-version-watch.js';
import { freePort } from './helpers/free-port.js';
import { freshPgSchema, type PgSchema } from './helpers/pg-schema.js';
import { hostGroup, type Host, type HostGroup } from './helpers/siteward-hosts.js';
import { within } from './helpers/within.js';

/**
 * Two hosts behind one load balancer: two `siteward start` processes (the built command, as an
 * operator runs it) with their own data directories, one PostgreSQL schema and one
 * SITEWARD_SECRET. Runs only with SITEWARD_TEST_PG.
 */
const LEASE_MS = 3000;
/** Time a host may take beyond the rules it promises (start-up, a loaded machine). */
const MARGIN_MS = 1500;
const LEADING = 'background jobs: this process holds the lease and runs them';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holder ids this host's log says it took the job lease as. */
function leadHolders(host: Host): string[] {
  return host
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: unknown; holder?: unknown };
        return entry.msg === LEADING && typeof entry.holder === 'string' ? [entry.holder] : [];
      } catch {
        return [];
      }
    });
}

describe.skipIf(!process.env.SITEWARD_TEST_PG)('two hosts on one PostgreSQL (runs with SITEWARD_TEST_PG)', () => {
  let dir: string;
  let schema: PgSchema;
  let group: HostGroup;

  async function leaseHolder(): Promise<string | null> {
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ holder: string }>(`SELECT holder FROM leases WHERE name = 'background-jobs' AND until > $1`, [
        Date.now(),
      ]);
      return rows[0]?.holder ?? null;
    } finally {
      await client.end();
    }
  }

  let a: Host;
  let b: Host;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-two-hosts-'));
    schema = (await freshPgSchema())!;
    const [portA, portB] = [await freePort(), await freePort()];
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      SITEWARD_DATABASE_URL: schema.url,
      SITEWARD_SECRET: 'one secret for every host of this site, 32+ bytes',
      SITEWARD_JOB_LEASE_MS: String(LEASE_MS),
      LOG_LEVEL: 'info',
    };
    group = hostGroup(dir, env, 20_000);
    group.run(
      'a',
      ['user', 'create', 'admin', '--email', 'admin@example.org', '--role', 'administrator', '--password', 'two-hosts-password'],
      30_000,
    );
    // Behind a load balancer both hosts serve one site: the same home URL.
    const home = `http://127.0.0.1:${portA}`;
    [a, b] = await Promise.all([
      group.start('a', portA, { SITEWARD_HOME_URL: home }),
      group.start('b', portB, { SITEWARD_HOME_URL: home }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await group?.stop();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('answers the health check on both, from the shared store', async () => {
    for (const host of [a, b]) {
      const res = await fetch(`${host.base}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', store: 'postgres' });
    }
  });

  it('accepts a login made on one host on the other, sees toggles and a logout across hosts within the re-check interval', async () => {
    const login = await fetch(`${a.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'two-hosts-password' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { nonce } = (await login.json()) as { nonce: string };
    const headers = { cookie, 'x-wp-nonce': nonce, 'content-type': 'application/json' };
    // An administrators-only route: 200 only for a valid login of an administrator.
    const settings = (host: Host) => fetch(`${host.base}/wp-json/jetpack/v4/settings`, { headers }).then((r) => r.status);
    expect(await settings(b)).toBe(200);

    const active = async (host: Host) => {
      const res = await fetch(`${host.base}/wp-json/jetpack/v4/module/all`, { headers });
      return ((await res.json()) as Record<string, { activated: boolean }>).markdown!.activated;
    };
    const toggle = (host: Host, on: boolean) =>
      fetch(`${host.base}/wp-json/jetpack/v4/module/markdown/active`, { method: 'POST', headers, body: JSON.stringify({ active: on }) });
    expect(await active(b)).toBe(false);
    expect((await toggle(a, true)).status).toBe(200);
    // Normally the first read already sees it (pushed by NOTIFY); never later than the re-check.
    await within(
      VERSION_RECHECK_MS + MARGIN_MS,
      () => active(b),
      (on) => on,
      'the toggle on A seen on B',
    );
    expect((await toggle(b, false)).status).toBe(200);
    await within(
      VERSION_RECHECK_MS + MARGIN_MS,
      () => active(a),
      (on) => !on,
      'the toggle on B seen on A',
    );

    const out = await fetch(`${a.base}/logout`, { method: 'POST', headers, body: '{}' });
    expect(out.status).toBe(200);
    await within(
      VERSION_RECHECK_MS + MARGIN_MS,
      () => settings(b),
      (status) => status !== 200,
      'the logout on A seen on B',
    );
    // Logged out: the cookie no longer authenticates (WordPress answers 403 for its nonce then).
    expect([401, 403]).toContain(await settings(b));
  });

  it('runs the background jobs on exactly one host, and on the other within one lease period once that one is killed', async () => {
    const leaders = await within(
      LEASE_MS + MARGIN_MS,
      async () => [a, b].filter((host) => leadHolders(host).length > 0),
      (found) => found.length > 0,
      'a host to take the job lease',
    );
    expect(leaders.value).toHaveLength(1);
    const leader = leaders.value[0]!;
    const follower = leader === a ? b : a;
    const holder = leadHolders(leader)[0]!;
    expect(await leaseHolder()).toBe(holder);
    // A full lease period later the follower still has not taken it (renewals keep it).
    await sleep(LEASE_MS);
    expect(leadHolders(follower)).toEqual([]);
    expect(await leaseHolder()).toBe(holder);

    // kill -9: no graceful release of the lease, it has to expire.
    process.kill(-leader.child.pid!, 'SIGKILL');
    await leader.exited;
    // The lease runs out at most one period after the last renewal (before the kill), and the
    // follower tries every third of a period.
    const moved = await within(
      LEASE_MS + LEASE_MS / 3 + MARGIN_MS,
      leaseHolder,
      (h) => h !== null && h !== holder,
      'the job lease to move to the other host',
    );
    await within(
      MARGIN_MS,
      async () => leadHolders(follower),
      (ids) => ids.includes(moved.value!),
      'the new holder to be the other host',
    );
    expect(await fetch(`${follower.base}/healthz`).then((r) => r.status)).toBe(200);
  }, 30_000);
});
