import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureDb } from '../db/feature-db.js';
import { featureTestBackends } from '../db/testing/feature-db.js';
import { PROTECT_MIGRATIONS } from './migration.js';
import { decideBlock, DEFAULT_PROTECT_RULES, ProtectPolicy, protectRules } from './protect-policy.js';
import { KyselyProtectRepo } from './protect-repo.js';
import type { ProtectTables } from './protect-tables.js';

const MIN = 60_000;
const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);

describe('decideBlock', () => {
  const rules = DEFAULT_PROTECT_RULES;

  it('counts down to the threshold', () => {
    expect(decideBlock(4, 0, rules, T0)).toEqual({ block: false, remaining: 1 });
  });

  it('blocks for 15 minutes at the fifth failure', () => {
    expect(decideBlock(5, 0, rules, T0)).toEqual({ block: true, level: 1, until: T0 + 15 * MIN });
  });

  it('blocks for 24 hours when this is the fourth block in a day', () => {
    expect(decideBlock(5, 3, rules, T0)).toEqual({ block: true, level: 2, until: T0 + 24 * 60 * MIN });
  });
});

describe('protectRules', () => {
  it('completes overrides with the defaults', () => {
    expect(protectRules({ maxFailures: 3 })).toEqual({ ...DEFAULT_PROTECT_RULES, maxFailures: 3 });
  });

  it('refuses a rule that is not a positive integer', () => {
    expect(() => protectRules({ windowSeconds: 0 })).toThrow(RangeError);
    expect(() => protectRules({ blockSeconds: 1.5 })).toThrow(RangeError);
  });
});

describe.each(featureTestBackends(PROTECT_MIGRATIONS))('ProtectPolicy on $name', (backend) => {
  let db: FeatureDb<ProtectTables>;
  let other: FeatureDb<ProtectTables>;
  let n = 0;
  /** A fresh address per test: the tests share one database. */
  const freshIp = (): string => `198.51.100.${++n}`;

  beforeAll(async () => {
    db = await backend.open<ProtectTables>();
    other = await backend.open<ProtectTables>();
  });
  afterAll(() => backend.cleanup());

  const policy = (rules = {}): ProtectPolicy => new ProtectPolicy(new KyselyProtectRepo(db), rules);

  async function fail(p: ProtectPolicy, ip: string, times: number, start: number, step = 1000): Promise<void> {
    for (let i = 0; i < times; i++) await p.recordFailure(ip, 'admin', start + i * step);
  }

  it('blocks an address for 15 minutes after 5 failures within 15 minutes', async () => {
    const p = policy();
    const ip = freshIp();
    await fail(p, ip, 4, T0);
    expect(await p.check(ip, T0 + 5000)).toEqual({ blocked: false });
    const fifth = await p.recordFailure(ip, 'admin', T0 + 5000);
    expect(fifth).toEqual({ kind: 'blocked', level: 1, until: T0 + 5000 + 15 * MIN, retryAfterSeconds: 900 });
    expect(await p.check(ip, T0 + 6000)).toEqual({ blocked: true, retryAfterSeconds: 899 });
    expect(await p.check(ip, T0 + 5000 + 15 * MIN)).toEqual({ blocked: false });
  });

  it('forgets failures older than the window', async () => {
    const p = policy();
    const ip = freshIp();
    await fail(p, ip, 4, T0);
    // The failure at T0 leaves the window; those at T0 + 1 s … 3 s stay.
    const later = await p.recordFailure(ip, 'admin', T0 + 500 + 15 * MIN);
    expect(later).toEqual({ kind: 'counted', failures: 4, remaining: 1 });
  });

  it('reports failures during a block as already blocked and does not extend it', async () => {
    const p = policy();
    const ip = freshIp();
    await fail(p, ip, 5, T0);
    const during = await p.recordFailure(ip, 'admin', T0 + MIN);
    expect(during).toMatchObject({ kind: 'already-blocked', until: T0 + 4000 + 15 * MIN });
  });

  it('needs fresh failures after a block ends', async () => {
    const p = policy();
    const ip = freshIp();
    await fail(p, ip, 5, T0);
    const after = T0 + 20 * MIN;
    expect(await p.recordFailure(ip, 'admin', after)).toEqual({ kind: 'counted', failures: 1, remaining: 4 });
  });

  it('blocks for 24 hours at the fourth block within 24 hours', async () => {
    const p = policy();
    const ip = freshIp();
    for (let round = 0; round < 3; round++) await fail(p, ip, 5, T0 + round * 20 * MIN);
    const start = T0 + 3 * 20 * MIN;
    await fail(p, ip, 4, start);
    const fourth = await p.recordFailure(ip, 'admin', start + 4000);
    expect(fourth).toEqual({ kind: 'blocked', level: 2, until: start + 4000 + 24 * 60 * MIN, retryAfterSeconds: 86_400 });
    expect(await p.check(ip, start + 4000 + 23 * 60 * MIN)).toMatchObject({ blocked: true });
  });

  it('does not escalate when earlier blocks are more than 24 hours old', async () => {
    const p = policy();
    const ip = freshIp();
    for (let round = 0; round < 3; round++) await fail(p, ip, 5, T0 + round * 20 * MIN);
    const nextDay = T0 + 25 * 60 * MIN;
    await fail(p, ip, 4, nextDay);
    expect(await p.recordFailure(ip, 'admin', nextDay + 4000)).toMatchObject({ kind: 'blocked', level: 1 });
  });

  it('counts IPv6 addresses of one /64 together', async () => {
    const p = policy();
    for (let i = 1; i <= 5; i++) await p.recordFailure(`2001:db8:77:1::${i}`, 'admin', T0 + i);
    expect(await p.check('2001:db8:77:1:ffff::9', T0 + 10)).toMatchObject({ blocked: true });
    expect(await p.check('2001:db8:77:2::1', T0 + 10)).toEqual({ blocked: false });
  });

  it('counts an IPv4-mapped address with its IPv4 form', async () => {
    const p = policy();
    const ip = freshIp();
    await fail(p, `::ffff:${ip}`, 5, T0);
    expect(await p.check(ip, T0 + 10_000)).toMatchObject({ blocked: true });
  });

  it('follows configured thresholds', async () => {
    const p = policy({ maxFailures: 2, windowSeconds: 60, blockSeconds: 30 });
    const ip = freshIp();
    await p.recordFailure(ip, 'a', T0);
    expect(await p.recordFailure(ip, 'a', T0 + 59_000)).toMatchObject({ kind: 'blocked', retryAfterSeconds: 30 });
  });

  it('loses no failure when many arrive at once from two connections', async () => {
    const a = new ProtectPolicy(new KyselyProtectRepo(db), { maxFailures: 40 });
    const b = new ProtectPolicy(new KyselyProtectRepo(other), { maxFailures: 40 });
    const ip = freshIp();
    const outcomes = await Promise.all(Array.from({ length: 45 }, (_, i) => (i % 2 === 0 ? a : b).recordFailure(ip, 'admin', T0 + 1000)));
    const kinds = outcomes.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'blocked')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'counted')).toHaveLength(39);
    expect(kinds.filter((k) => k === 'already-blocked')).toHaveLength(5);
  });

  it('counts blocked attempts without losing any under concurrency', async () => {
    const a = policy();
    const b = new ProtectPolicy(new KyselyProtectRepo(other));
    const before = await a.blockedCount();
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).recordBlockedAttempt('203.0.113.5', 'admin', T0)));
    expect(await a.blockedCount()).toBe(before + 30);
  });

  it('logs a blocked attempt with time, address, its counter key and login only (no failure kind: nothing was checked)', async () => {
    const p = policy();
    await p.recordBlockedAttempt('203.0.113.77', 'x'.repeat(500), T0 + 7);
    const rows = await db.run((k) => k.selectFrom('protect_events').selectAll().where('address', '=', '203.0.113.77').execute());
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.at)).toBe(T0 + 7);
    expect(rows[0]?.kind).toBe('blocked');
    expect(rows[0]?.login).toHaveLength(200);
    expect(rows[0]?.key).toBe('203.0.113.77');
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['address', 'at', 'failure', 'id', 'key', 'kind', 'login']);
    expect(rows[0]?.failure).toBeNull();
  });

  it('gives a per-day history of blocked attempts with zero days', async () => {
    const p = policy();
    const base = Date.UTC(2030, 0, 10, 12);
    const day = 24 * 60 * MIN;
    await p.recordBlockedAttempt('203.0.113.1', 'a', base - 2 * day);
    await p.recordBlockedAttempt('203.0.113.1', 'a', base - 2 * day + 1);
    await p.recordBlockedAttempt('203.0.113.1', 'a', base);
    await p.recordBlockedAttempt('203.0.113.1', 'a', base - 5 * day);
    expect(await p.historyByDay(4, base)).toEqual([
      { date: '2030-01-07', count: 0 },
      { date: '2030-01-08', count: 2 },
      { date: '2030-01-09', count: 0 },
      { date: '2030-01-10', count: 1 },
    ]);
  });

  it('buckets the history by the given time zone', async () => {
    const p = policy();
    // 2031-01-10 03:00 UTC is January 9 in New York.
    await p.recordBlockedAttempt('203.0.113.1', 'a', Date.UTC(2031, 0, 10, 3));
    expect(await p.historyByDay(2, Date.UTC(2031, 0, 10, 18), 'America/New_York')).toEqual([
      { date: '2031-01-09', count: 1 },
      { date: '2031-01-10', count: 0 },
    ]);
  });

  it('purges rows no rule counts any more and events past the retention, but keeps the blocked-attempts total', async () => {
    const p = policy();
    const ip = freshIp();
    const old = Date.UTC(2000, 0, 1);
    await fail(p, ip, 5, old);
    await p.recordFailure(freshIp(), 'a', old);
    await p.recordBlockedAttempt(ip, 'a', old);
    const total = await p.blockedCount();
    const purged = await p.purge(Date.UTC(2001, 0, 1), 365 * 86_400_000);
    expect(purged.failures).toBeGreaterThanOrEqual(1);
    expect(purged.blocks).toBeGreaterThanOrEqual(1);
    expect(purged.events).toBeGreaterThanOrEqual(2);
    expect(await p.blockedCount()).toBe(total);
    expect(await p.recordFailure(ip, 'a', old + 1000)).toMatchObject({ kind: 'counted', failures: 1 });
  });
});
