/**
 * The retention job (run by the app's own job runner, `app.jobs.tick()`, its clock injected and
 * moved a year on so that the events the store stamps now are old) refuses to purge a broken
 * chain and records `audit.verify_failed` naming the broken row, for alerts and forwarding; the
 * chain still names that row afterwards. On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { AuditEventInput } from '../../wire/audit.js';
import { auditInput } from '../../../test/helpers/audit-event.js';

const DAY = 86_400_000;
const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

function event(i: number): AuditEventInput {
  return auditInput({ action: 'option.updated', request_id: `req-${i}`, object: { type: 'option', id: `o${i}`, name: `o${i}` } });
}

describe.each(stores)('the audit retention job on a broken chain on %s', (backend) => {
  let now = Date.now();
  let t: TestApp;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ startJobs: false, clock: () => now, ...(schema ? { env: { SITEWARD_DATABASE_URL: schema.url } } : {}) });
  });
  afterAll(async () => {
    await t?.close();
    await schema?.drop();
  });

  it('purges nothing and records audit.verify_failed with the broken row', async () => {
    await t.store.auditLog.append([event(1), event(2), event(3)]);
    const [edited] = await t.store.auditLog.list({ objectId: 'o2' }, { limit: 1, offset: 0 });
    // An intruder edits a row in the database.
    await t.store.tables.run((db) => sql`UPDATE audit_log SET data = replace(data, 'req-2', 'req-X') WHERE id = ${edited!.id}`.execute(db));
    const head = (await t.store.auditLog.head()).lastId;

    now += 366 * DAY;
    await t.app.jobs.tick();
    expect((await t.store.auditLog.rows(0, 1))[0]!.id).toBe(1);
    const [failed] = await t.store.auditLog.list({ action: 'audit.verify_failed' }, { limit: 10, offset: 0 });
    expect(failed).toMatchObject({
      id: head + 1,
      result: 'failed',
      actor: { kind: 'job', job: 'audit-retention' },
      object: { type: 'audit_log', id: String(edited!.id) },
      changes: { broken_row: { after: edited!.id } },
    });
    expect((failed!.changes.reason as { after: string }).after).toMatch(new RegExp(`^not purged: row ${edited!.id}'s hash does not match`));
  });
});
