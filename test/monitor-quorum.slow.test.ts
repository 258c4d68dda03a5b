import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { closeServer, listenOnLoopback } from './helpers/loopback-server.js';
import { freshPgSchema, type PgSchema } from './helpers/pg-schema.js';
import { hostGroup, type Host, type HostGroup } from './helpers/siteward-hosts.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { within } from './helpers/within.js';

/**
 * Monitor's quorum on three hosts: three `siteward start` processes (the built command) with
 * their own data directories and host ids on one PostgreSQL schema. Host C sends its checks
 * from 127.0.0.2 (SITEWARD_MONITOR_SOURCE_ADDRESS, as on a host with several addresses), and
 * the monitored site refuses connections from that address, as a firewall that blocks one
 * network would: C cannot reach the site while A and B can. Runs only with SITEWARD_TEST_PG.
 */
const BLOCKED_SOURCE = '127.0.0.2';
const LEADING = 'background jobs: this process holds the lease and runs them';
/** Bounded waits: a downtime needs a failed check, the votes of the others within their interval (10 s) and the confirming retry 10 s later. */
const TRANSITION_MS = 60_000;

describe.skipIf(!process.env.SITEWARD_TEST_PG)('Monitor on three hosts of one PostgreSQL (runs with SITEWARD_TEST_PG)', () => {
  let dir: string;
  let schema: PgSchema;
  let hooks: WebhookReceiver;
  let siteUp = true;
  const site = createServer((_req, res) => {
    res.statusCode = siteUp ? 200 : 503;
    res.end('ok');
  });
  // The site's firewall: connections from the blocked address are cut at once.
  site.on('connection', (socket) => {
    if (socket.remoteAddress === BLOCKED_SOURCE || socket.remoteAddress === `::ffff:${BLOCKED_SOURCE}`) socket.destroy();
  });
  let group: HostGroup;
  const hostNamed = (name: string) => group.hosts.find((h) => h.name === name)!;
  let headers: Record<string, string>;

  const startHost = async (name: string, extra: Record<string, string> = {}) =>
    group.start(name, await freePort(), { ...extra, SITEWARD_HOST_ID: name });

  const rest = (host: Host, route: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${host.base}/wp-json/${route}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as unknown }));
  type Overview = { checks: { state: string; hosts: { host: string; down: boolean; at: string; reason: string | null }[] }[] };
  const overview = async (host: Host) => (await rest(host, 'siteward/v1/monitor')).json as Overview;
  /**
   * Waits until the deciding host C has checked `times` more times. C casts its vote and decides
   * in the same job round (src/features/monitor/index.ts, `verdict`), so when its vote is renewed
   * twice, the decision of the round before has been made: two whole decisions, which without the
   * quorum would be a failed check and its confirming retry. A signal from C, not a fixed sleep.
   */
  const decisionsOfC = async (times: number) => {
    const voteOfC = async () => (await overview(hostNamed('a'))).checks[0]?.hosts.find((h) => h.host === 'c')?.at ?? '';
    let last = await voteOfC();
    for (let seen = 0; seen < times; seen++) {
      const renewed = await within(TRANSITION_MS, voteOfC, (at) => at !== last, `C to check again (${seen + 1} of ${times})`);
      last = renewed.value;
    }
  };
  const downtimes = async (host: Host) =>
    ((await rest(host, 'siteward/v1/monitor/history')).json as { intervals: { end: string | null; reason: string }[] }).intervals;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-quorum-'));
    schema = (await freshPgSchema())!;
    hooks = await startWebhookReceiver();
    const siteUrl = `${await listenOnLoopback(site)}/`;
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      SITEWARD_DATABASE_URL: schema.url,
      SITEWARD_SECRET: 'one secret for every host of this site, 32+ bytes',
      SITEWARD_JOB_LEASE_MS: '3000',
      SITEWARD_MONITOR_URL: siteUrl,
      SITEWARD_MONITOR_INTERVAL: '10',
      SITEWARD_MONITOR_WEBHOOK: hooks.url,
      LOG_LEVEL: 'info',
    };
    group = hostGroup(dir, env, 60_000);
    group.run(
      'a',
      ['user', 'create', 'admin', '--email', 'admin@example.org', '--role', 'administrator', '--password', 'quorum-password'],
      90_000,
    );
    // C first, so that it takes the job lease and is the one deciding: its own checks fail, and
    // only the votes of A and B keep it from recording a downtime (without the quorum it would).
    const c = await startHost('c', { SITEWARD_MONITOR_SOURCE_ADDRESS: BLOCKED_SOURCE });
    await within(
      30_000,
      async () => c.output(),
      (out) => out.includes(LEADING),
      'C to take the job lease',
    );
    const [a] = await Promise.all([startHost('a'), startHost('b')]);
    const login = await fetch(`${a!.base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a!.base },
      body: JSON.stringify({ username: 'admin', password: 'quorum-password' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { nonce } = (await login.json()) as { nonce: string };
    headers = { cookie, 'x-wp-nonce': nonce, 'content-type': 'application/json' };
    expect((await rest(a!, 'jetpack/v4/module/monitor/active', { method: 'POST', body: { active: true } })).status).toBe(200);
    expect((await rest(a!, 'jetpack/v4/module/monitor', { method: 'POST', body: { monitor_receive_notifications: true } })).status).toBe(
      200,
    );
  }, 120_000);

  afterAll(async () => {
    await group?.stop();
    await schema?.drop();
    await closeServer(site);
    await hooks.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('counts no downtime when only the host that cannot reach the site sees it down, though that host decides', async () => {
    const a = hostNamed('a');
    const votes = await within(
      TRANSITION_MS,
      () => overview(a),
      (o) => o.checks[0]?.hosts.length === 3,
      'all three hosts to vote',
    );
    expect(votes.value.checks[0]!.hosts.map((h) => [h.host, h.down])).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
    expect(votes.value.checks[0]!.hosts[2]!.reason).toMatch(/^(ECONNRESET|socket hang up|EPIPE)/);
    // C has voted "down" at two checks in a row (a failed check and its retry): still no downtime and no message.
    await within(
      TRANSITION_MS,
      () => overview(a),
      (o) => o.checks[0]!.hosts.every((h) => h.host !== 'c' || h.down),
      'C to keep voting down',
    );
    await decisionsOfC(2);
    expect((await overview(a)).checks[0]!.hosts.find((h) => h.host === 'c')!.down).toBe(true);
    expect(await downtimes(a)).toEqual([]);
    expect((await overview(hostNamed('b'))).checks[0]!.state).toBe('up');
    expect(group.hosts.filter((h) => h.output().includes(LEADING)).map((h) => h.name)).toEqual(['c']);
    expect(hooks.bodies).toEqual([]);
  }, 120_000);

  it('records a downtime seen by the majority once, notifies once per change (from the job leader), and ends it', async () => {
    const a = hostNamed('a');
    const b = hostNamed('b');
    siteUp = false;
    const down = await hooks.next();
    // The reason is one down voter's: HTTP 503 from a and b, or the reset c always meets (when
    // c's vote and only one of the others' make the majority, as happens on a loaded machine).
    expect(down).toMatchObject({
      event: 'down',
      reason: expect.stringMatching(/^(HTTP 503 \((2|3)|ECONNRESET \(2) of 3 hosts\)$/) as unknown,
    });
    expect(await downtimes(b)).toEqual([expect.objectContaining({ end: null })]);
    siteUp = true;
    const up = await hooks.next();
    expect(up).toMatchObject({ event: 'up' });
    await within(
      TRANSITION_MS,
      () => downtimes(a),
      (d) => d.length === 1 && d[0]!.end !== null,
      'the downtime to end',
    );
    // Two more checks by the deciding host (another interval and its retry): no second message from any host.
    await decisionsOfC(2);
    expect(hooks.bodies.map((h) => h.event)).toEqual(['down', 'up']);
    const leaders = group.hosts.filter((h) => h.output().includes('"msg":"monitor: My Site is down"'));
    expect(leaders).toHaveLength(1);
  }, 180_000);
});
