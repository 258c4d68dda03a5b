import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FeatureDb } from '../db/feature-db.js';
import { featureTestBackends } from '../db/testing/feature-db.js';
import { lastDowntimeAnswer } from './last-downtime.js';
import {
  MONITOR_CHECKS_MIGRATION_NAME,
  MONITOR_MIGRATION_NAME,
  MONITOR_NO_DATA_MIGRATION_NAME,
  monitorChecksMigration,
  monitorMigration,
  monitorNoDataMigration,
} from './migration.js';
import { KyselyMonitorRepo } from './monitor-repo.js';
import type { MonitorTables } from './monitor-tables.js';
import { UptimeChecker, type MonitorTransition } from './uptime-checker.js';

const T0 = Date.UTC(2024, 5, 1, 12);

/** The monitored site: answers per `mode`, and can be taken down and brought back on its port. */
class Site {
  mode: 'ok' | 'error' | 'hang' = 'ok';
  port = 0;
  private server: Server | undefined;

  async up(): Promise<void> {
    const server = createServer((req, res) => {
      if (this.mode === 'hang') return;
      res.statusCode = this.mode === 'ok' ? 200 : 503;
      res.end('hi');
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }
}

describe.each(
  featureTestBackends({
    [MONITOR_MIGRATION_NAME]: monitorMigration,
    [MONITOR_CHECKS_MIGRATION_NAME]: monitorChecksMigration,
    [MONITOR_NO_DATA_MIGRATION_NAME]: monitorNoDataMigration,
  }),
)('uptime checker on $name', (backend) => {
  const site = new Site();
  let db: FeatureDb<MonitorTables>;
  let now = T0;
  let events: MonitorTransition[] = [];

  beforeAll(async () => {
    await site.up();
    db = await backend.open<MonitorTables>();
  });
  afterAll(async () => {
    await site.down();
    await backend.cleanup();
  });
  beforeEach(async () => {
    site.mode = 'ok';
    events = [];
    now += 7 * 86_400_000;
    await db.run((k) => k.deleteFrom('monitor_intervals').execute());
    await db.run((k) => k.deleteFrom('monitor_heartbeat').execute());
  });

  const checker = (extra: { intervalSeconds?: number; timeoutMs?: number } = {}): UptimeChecker =>
    new UptimeChecker({
      url: site.url,
      repo: new KyselyMonitorRepo(db),
      clock: () => now,
      onTransition: (e) => events.push(e),
      ...extra,
    });

  it('checks at once, then only when the interval has passed', async () => {
    const c = checker();
    expect(await c.tick()).toEqual({ kind: 'up' });
    now += 59_000;
    expect(await c.tick()).toEqual({ kind: 'idle', nextCheckAt: now + 1000 });
    now += 1000;
    expect(await c.tick()).toEqual({ kind: 'up' });
    expect(await new KyselyMonitorRepo(db).heartbeat()).toBe(now);
  });

  it('confirms a 5xx answer with a retry 10 s later before reporting the site down', async () => {
    const c = checker();
    await c.tick();
    now += 60_000;
    site.mode = 'error';
    const firstFailure = now;
    expect(await c.tick()).toEqual({ kind: 'suspect', reason: 'HTTP 503', retryAt: now + 10_000 });
    expect(events).toEqual([]);
    now += 10_000;
    expect(await c.tick()).toEqual({ kind: 'down', reason: 'HTTP 503', since: firstFailure });
    expect(events).toEqual([{ kind: 'down', url: site.url, at: now, since: firstFailure, reason: 'HTTP 503', lastError: 'HTTP 503' }]);
    now += 60_000;
    expect(await c.tick()).toEqual({ kind: 'still-down' });
    site.mode = 'ok';
    now += 60_000;
    expect(await c.tick()).toEqual({ kind: 'recovered', downtimeSeconds: 130 });
    expect(events[1]).toMatchObject({ kind: 'up', since: firstFailure, downtimeSeconds: 130 });
    expect(await c.history(1)).toEqual([{ start: firstFailure, end: now, durationSeconds: 130 }]);
  });

  it('ignores a failure that the retry does not confirm', async () => {
    const c = checker();
    await c.tick();
    now += 60_000;
    site.mode = 'error';
    await c.tick();
    site.mode = 'ok';
    now += 10_000;
    expect(await c.tick()).toEqual({ kind: 'up' });
    expect(events).toEqual([]);
    expect(await c.lastDowntime()).toBeNull();
  });

  it('reports a refused connection while the server is down, and recovery when it is back', async () => {
    const c = checker({ intervalSeconds: 10 });
    await c.tick();
    await site.down();
    now += 10_000;
    const result = await c.tick();
    expect(result).toEqual({ kind: 'suspect', reason: 'ECONNREFUSED', retryAt: now + 10_000 });
    now += 10_000;
    expect(await c.tick()).toMatchObject({ kind: 'down', reason: 'ECONNREFUSED' });
    expect(await c.lastDowntime()).toMatchObject({ end: null, reason: 'ECONNREFUSED' });
    await site.up();
    now += 10_000;
    expect(await c.tick()).toEqual({ kind: 'recovered', downtimeSeconds: 20 });
  });

  it('counts a server that hangs past the timeout as down', async () => {
    const c = checker({ timeoutMs: 150 });
    site.mode = 'hang';
    expect(await c.tick()).toEqual({ kind: 'suspect', reason: 'timeout after 0.15 s', retryAt: now + 10_000 });
    now += 10_000;
    expect(await c.tick()).toMatchObject({ kind: 'down', reason: 'timeout after 0.15 s' });
  });

  it('records the time no checker ran as "no data", not downtime, when it exceeds two intervals', async () => {
    const repo = new KyselyMonitorRepo(db);
    const first = checker();
    await first.tick();
    const lastBeat = now;
    now += 3 * 60_000;
    await checker().init();
    expect(await repo.latest()).toBeNull();
    expect(await repo.noDataSince(0)).toEqual([{ start: lastBeat, end: now }]);
  });

  it('records no gap for a restart within two intervals', async () => {
    await checker().tick();
    const from = now;
    now += 2 * 60_000;
    await checker().init();
    expect(await new KyselyMonitorRepo(db).latest()).toBeNull();
    expect(await new KyselyMonitorRepo(db).noDataSince(from)).toEqual([]);
  });

  it('keeps a downtime open across a restart until a good check', async () => {
    const first = checker();
    site.mode = 'error';
    await first.tick();
    now += 10_000;
    await first.tick();
    const since = now - 10_000;
    const second = checker();
    site.mode = 'ok';
    now += 30_000;
    expect(await second.tick()).toEqual({ kind: 'recovered', downtimeSeconds: 40 });
    expect(await second.history(1)).toEqual([{ start: since, end: now, durationSeconds: 40 }]);
  });

  it('refuses an interval under 10 s and retries after the interval when it is that short', () => {
    expect(() => checker({ intervalSeconds: 9 })).toThrow(RangeError);
    expect(checker({ intervalSeconds: 10 }).retryDelayMs).toBe(10_000);
    expect(checker({ intervalSeconds: 300 }).retryDelayMs).toBe(10_000);
  });

  it('runs its loop through the injected timers', async () => {
    const scheduled: { fn: () => void; ms: number }[] = [];
    const c = new UptimeChecker({
      url: site.url,
      repo: new KyselyMonitorRepo(db),
      clock: () => now,
      timers: { setTimeout: (fn, ms) => scheduled.push({ fn, ms }), clearTimeout: () => undefined },
    });
    await c.start();
    expect(scheduled.map((s) => s.ms)).toEqual([0]);
    scheduled[0]?.fn();
    await c.tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduled.map((s) => s.ms)).toEqual([0, 60_000]);
    await c.stop();
  });
});

describe('lastDowntimeAnswer', () => {
  const now = Date.UTC(2024, 0, 10);

  it('is null without any downtime', () => {
    expect(lastDowntimeAnswer(null, now)).toEqual({ code: 'success', date: null });
  });

  it('measures from the end of the last downtime', () => {
    const last = { id: 1, start: now - 4 * 86_400_000, end: now - 3 * 86_400_000, reason: 'HTTP 503' };
    expect(lastDowntimeAnswer(last, now)).toEqual({ code: 'success', date: '3 days' });
  });

  it('measures from the start of a downtime that lasts', () => {
    expect(lastDowntimeAnswer({ id: 1, start: now - 5 * 60_000, end: null, reason: 'x' }, now)).toEqual({
      code: 'success',
      date: '5 mins',
    });
  });
});
