import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from '../../test/helpers/throwaway-postgres.js';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../test/helpers/test-app.js';

const binDir = postgresBinDir();
if (!binDir) console.warn('store-outage tests skipped: no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql');

/** A write that is acknowledged (200) only once the store has it. */
function writer(api: SitewardApi): void {
  api.registerRoute('outage-test/v1', '/write', {
    methods: 'POST',
    permissionCallback: (req) => req.user.can('manage_options'),
    callback: async (req) => {
      const key = String((req.json as { key: string }).key);
      await api.options.set(`outage_${key}`, key, false);
      return { stored: key };
    },
  });
}

describe.skipIf(!binDir)('a PostgreSQL outage', () => {
  let pg: ThrowawayPostgres;
  let app: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    pg = await startThrowawayPostgres(binDir!);
    app = await createTestApp({
      env: { SITEWARD_DATABASE_URL: pg.url, SITEWARD_DB_CONNECT_TIMEOUT_MS: '1500', SITEWARD_DB_STATEMENT_TIMEOUT_MS: '1500' },
      plugins: [writer],
      startJobs: false,
    });
    admin = await app.loginAs('administrator');
  }, 60_000);
  afterAll(async () => {
    // Thawed first: a test that failed while the database was frozen must not hang the close.
    try {
      pg?.thaw();
    } catch {
      // Not running.
    }
    await app?.close().catch(() => undefined);
    pg?.destroy();
  });

  let sequence = 0;
  const write = async (): Promise<{ key: string; res: TestResponse; ms: number }> => {
    const key = `k${++sequence}`;
    const started = performance.now();
    const res = await app.request({ method: 'POST', path: '/wp-json/outage-test/v1/write', headers: app.auth(admin), body: { key } });
    return { key, res, ms: performance.now() - started };
  };
  const acknowledged: string[] = [];
  /** Eight clients, each writing `rounds` times in a row. */
  const eightClients = async (rounds: number) => {
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const mine = [];
        for (let i = 0; i < rounds; i++) mine.push(await write());
        return mine;
      }),
    );
    const flat = results.flat();
    for (const r of flat) if (r.res.status === 200) acknowledged.push(r.key);
    return flat;
  };

  const expectUnavailable = (r: { res: TestResponse; ms: number }) => {
    expect(r.res.status).toBe(503);
    expect(r.res.json).toMatchObject({ code: 'siteward_store_unavailable', data: { status: 503 } });
    expect(Number(r.res.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.res.headers['content-type']).toContain('application/json');
    expect(r.ms).toBeLessThan(5000);
  };

  it('answers JSON 503 with Retry-After while the database is stopped, and keeps serving', async () => {
    expect((await eightClients(3)).every((r) => r.res.status === 200)).toBe(true);
    pg.stop();
    const during = await eightClients(2);
    for (const r of during) expectUnavailable(r);
    // Pages that need the store answer the same way.
    const page = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(page.status).toBe(503);
    expect((await app.request({ path: '/healthz' })).status).toBe(503);
  }, 60_000);

  it('recovers by itself when the database returns, with every acknowledged write kept', async () => {
    pg.start();
    let ok = false;
    for (let i = 0; i < 100 && !ok; i++) {
      ok = (await write()).res.status === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ok).toBe(true);
    expect((await eightClients(2)).every((r) => r.res.status === 200)).toBe(true);
    const stored = await app.store.options.getMany(acknowledged.map((k) => `outage_${k}`));
    expect(acknowledged.filter((k) => stored.get(`outage_${k}`) !== k)).toEqual([]);
  }, 60_000);

  it('counts the wait for a pooled connection against the statement timeout when the database freezes', async () => {
    // A connect timeout far above the statement timeout: the wait for one of the pool's ten
    // connections, all stuck on the frozen server, must still end within the statement bound.
    const bounded = await createTestApp({
      env: { SITEWARD_DATABASE_URL: pg.url, SITEWARD_DB_CONNECT_TIMEOUT_MS: '20000', SITEWARD_DB_STATEMENT_TIMEOUT_MS: '1000' },
      startJobs: false,
    });
    try {
      const reader = await bounded.loginAs('administrator', { login: 'frozen-reader' });
      pg.freeze();
      try {
        const results = await Promise.all(
          Array.from({ length: 24 }, async () => {
            const started = performance.now();
            const res = await bounded.request({ path: '/wp-json/jetpack/v4/settings', headers: bounded.auth(reader) });
            return { res, ms: performance.now() - started };
          }),
        );
        for (const r of results) expectUnavailable(r);
      } finally {
        pg.thaw();
      }
    } finally {
      await bounded.close();
    }
  }, 60_000);

  it('answers every request on a frozen database within the statement timeout + 0.5 s, authentication included', async () => {
    // The documented bound: the authentication lookups, the Protect slot and the route's own
    // reads share one budget; a request is never held for two timeouts in a row.
    const STATEMENT_MS = 1000;
    const bounded = await createTestApp({
      env: { SITEWARD_DATABASE_URL: pg.url, SITEWARD_DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS) },
      startJobs: false,
    });
    try {
      const reader = await bounded.loginAs('administrator', { login: 'budget-reader' });
      const key = await bounded.app.authenticator.appPasswords.create('budget-reader', 'frozen');
      if (!key.ok) throw new Error(key.message);
      const basic = { Authorization: `Basic ${Buffer.from(`budget-reader:${key.password}`).toString('base64')}` };
      // Nothing verified in this process: every request asks the frozen database.
      bounded.app.authenticator.forgetUser(reader.userId);
      pg.freeze();
      try {
        const timed = async (headers: Record<string, string>) => {
          const started = performance.now();
          const res = await bounded.request({ path: '/wp-json/jetpack/v4/settings', headers });
          return { res, ms: performance.now() - started };
        };
        const results = await Promise.all([
          ...Array.from({ length: 8 }, () => timed(bounded.auth(reader))),
          ...Array.from({ length: 8 }, () => timed(basic)),
        ]);
        const slowest = Math.max(...results.map((r) => r.ms));
        console.info(`frozen database: slowest of ${results.length} answers ${Math.round(slowest)} ms`);
        for (const r of results) expectUnavailable(r);
        // The bound plus what a loaded test machine adds to timers (well under a second timeout more).
        expect(slowest).toBeLessThan(STATEMENT_MS + 500 + 400);
      } finally {
        pg.thaw();
      }
    } finally {
      await bounded.close();
    }
  }, 60_000);

  it('does not hang on a frozen database: 503 after the statement or connection timeout', async () => {
    pg.freeze();
    try {
      const during = await Promise.all([write(), write()]);
      for (const r of during) expectUnavailable(r);
      // A frozen server closes no socket, so the change listener cannot tell; the health check
      // asks the database itself and says so.
      const health = await app.request({ path: '/healthz' });
      expect(health.status).toBe(503);
      expect(health.json).toEqual({ status: 'unavailable', store: 'postgres' });
    } finally {
      pg.thaw();
    }
    let ok = false;
    for (let i = 0; i < 100 && !ok; i++) {
      ok = (await write()).res.status === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ok).toBe(true);
  }, 60_000);
});
