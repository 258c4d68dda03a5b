/**
 * The retention waits for the forwarding (docs/audit-log.md "Retention"): through the app's own
 * jobs (`app.jobs.tick()`, their clock injected and moved a year on, so that the events the
 * store stamps now are old) with a real webhook receiver, events older than
 * the retention that the sink has not taken stay; those it took go; a sink failing for longer
 * than SITEWARD_AUDIT_FORWARD_HOLD_DAYS stops holding, and `/healthz?detail=1` and
 * `GET siteward/v1/audit/forwarding` say which sinks hold. On SQLite and, with
 * SITEWARD_TEST_PG, PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../../test/helpers/test-app.js';
import type { AuditEventInput } from '../../../wire/audit.js';
import type { ForwardStatus } from './forwarder.js';

const DAY = 86_400_000;
const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

function event(i: number): AuditEventInput {
  return {
    action: 'module.activated',
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: 'root', credential: { type: 'none' } },
    client_ip: '203.0.113.9',
    user_agent: 'ua',
    request_id: `r${i}`,
    object: { type: 'module', id: `m${i}`, name: `Module ${i}` },
    changes: { active: { before: false, after: true } },
  };
}

describe.each(stores)('audit retention held by the forwarding on %s', (backend) => {
  let now = Date.now();
  let receiverUp = true;
  const received: number[] = [];
  let http: Server;
  let t: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (!receiverUp) return void res.writeHead(503).end();
        received.push(...(JSON.parse(body) as { events: { id: number }[] }).events.map((e) => e.id));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({
      startJobs: false,
      clock: () => now,
      env: {
        SITEWARD_AUDIT_WEBHOOK_URL: `http://127.0.0.1:${(http.address() as { port: number }).port}/audit`,
        SITEWARD_AUDIT_FORWARD_HOLD_DAYS: '3',
        SITEWARD_AUDIT_RETENTION_DAYS: '365',
        ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
      },
    });
    admin = await t.loginAs('administrator', { login: 'root' });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
    await new Promise((resolve) => http.close(resolve));
  });

  /** The oldest id the log still holds (past the head once everything was purged). */
  const firstId = async () => (await t.store.auditLog.rows(0, 1))[0]?.id ?? (await t.store.auditLog.head()).lastId + 1;
  const sinkStatus = async () => {
    const res = await t.request({ path: '/wp-json/siteward/v1/audit/forwarding', headers: t.auth(admin) });
    expect(res.status).toBe(200);
    return (res.json as ForwardStatus[])[0]!;
  };
  const health = async () =>
    ((await t.request({ path: '/healthz?detail=1' })).json as { audit_forwarding: Record<string, unknown>[] }).audit_forwarding[0]!;

  it('purges only what the sink took, holds what it missed, and lets go of a sink failing for longer than the hold', async () => {
    // Events, all delivered.
    await t.store.auditLog.append([event(1), event(2), event(3)]);
    await t.app.jobs.tick();
    const delivered = (await t.store.auditLog.head()).lastId;
    expect(received.at(-1)).toBe(delivered);

    // The receiver goes away; more events, never delivered.
    receiverUp = false;
    await t.store.auditLog.append([event(4), event(5)]);
    const missed = (await t.store.auditLog.head()).lastId;

    // A year and a day later: all of them are past the retention, but only what the sink took is purged.
    const T0 = now + 366 * DAY;
    now = T0;
    await t.app.jobs.tick();
    expect(await firstId()).toBe(delivered + 1);
    expect(received.at(-1)).toBe(delivered);
    expect(await sinkStatus()).toMatchObject({
      last_delivered_id: delivered,
      failing_since: new Date(T0).toISOString(),
      holds_retention: true,
    });
    expect(await health()).toMatchObject({
      sink: 'webhook',
      failing: true,
      failing_since: new Date(T0).toISOString(),
      holds_retention: true,
    });

    // Three days of failures: still held.
    now = T0 + 3 * DAY;
    await t.app.jobs.tick();
    expect(await firstId()).toBe(delivered + 1);

    // Failing for longer than the hold: the retention no longer waits, and says so.
    now = T0 + 4 * DAY + 1;
    await t.app.jobs.tick();
    expect(await firstId()).toBeGreaterThan(missed);
    expect(await sinkStatus()).toMatchObject({ last_delivered_id: delivered, holds_retention: false });
    expect(await health()).toMatchObject({ failing: true, holds_retention: false });

    // Back: it gets what came since and holds the retention again.
    receiverUp = true;
    await t.store.auditLog.append([event(6)]);
    now += 60_000; // past the back-off, before the next daily retention

    await t.app.jobs.tick();
    expect(received.at(-1)).toBe((await t.store.auditLog.head()).lastId);
    expect(await sinkStatus()).toMatchObject({ failing_since: null, holds_retention: true, backlog: 0 });
  });
});
