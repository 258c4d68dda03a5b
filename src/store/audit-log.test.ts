import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEventInput } from '../wire/audit.js';
import { chainHash, GENESIS_HASH } from './audit-chain.js';
import { listening, testStores } from './testing/test-stores.js';
import type { Store } from './types.js';

/**
 * The audit log's table: events commit with their transaction's changes or not at all, on both
 * backends and through both kinds of transaction, and every row's hash chains on the one before.
 */
function event(action: string, id = 'x'): AuditEventInput {
  return {
    action,
    result: 'ok',
    actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name: 'tester' } },
    client_ip: '',
    user_agent: '',
    request_id: '',
    object: { type: 'option', id, name: id },
    changes: { [id]: { before: null, after: 1 } },
  };
}

async function chainHolds(store: Store): Promise<number> {
  let previous = GENESIS_HASH;
  let expected = 1;
  for (const row of await store.auditLog.rows(0, 100_000)) {
    expect(row.id).toBe(expected++);
    previous = chainHash(previous, row.id, row.data);
    expect(row.hash).toBe(previous);
  }
  const head = await store.auditLog.head();
  expect(head).toEqual({ lastId: expected - 1, hash: previous, count: expected - 1 });
  return expected - 1;
}

describe.each(testStores())('the audit log on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('writes a transaction’s events with its changes, and none when it throws', async () => {
    const store = await backend.open({ hostId: 'host-a' });
    await store.transaction(async (tx) => {
      await tx.options.set('al_one', 1);
      tx.audit(event('option.updated', 'al_one'));
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.options.set('al_two', 2);
        tx.audit(event('option.updated', 'al_two'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.options.get('al_two')).toBeUndefined();
    const events = await store.auditLog.list({ action: 'option.*' }, { limit: 10, offset: 0 });
    expect(events.map((e) => [e.action, e.object?.id, e.host_id])).toEqual([['option.updated', 'al_one', 'host-a']]);
    // Row 1 is the store's own migrations, recorded when it was created.
    expect(events[0]!.id).toBe(2);
    const [migrated] = await store.auditLog.list({ action: 'server.migrated' }, { limit: 1, offset: 0 });
    expect(migrated).toMatchObject({ id: 1, actor: { kind: 'job', job: 'migrations' }, object: { type: 'store', id: backend.name } });
    expect((migrated!.changes.migrations as { after: string[] }).after).toContain('0190_audit_log');
    expect(typeof events[0]!.time).toBe('number');
    await chainHolds(store);
  });

  it('keeps one gap-free chain across 40 concurrent options transactions of two stores', async () => {
    const a = await backend.open();
    const b = await backend.open();
    await Promise.all([listening(a), listening(b)]);
    const before = (await a.auditLog.head()).lastId;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).optionsTransaction(async (tx) => {
          await tx.options.update('al_counter', (n) => (typeof n === 'number' ? n + 1 : 1));
          tx.audit(event('option.updated', `c${i}`));
          if (i % 10 === 0) tx.audit(event('option.extra', `c${i}`));
        }),
      ),
    );
    expect(await a.options.get('al_counter')).toBe(40);
    expect((await a.auditLog.head()).lastId - before).toBe(44);
    expect(await a.auditLog.count({ action: 'option.' })).toBe(45);
    expect(await a.auditLog.count({ action: 'option.extra' })).toBe(4);
    await chainHolds(a);
  });

  it('records nothing for an options transaction that throws, and what one without changes audits', async () => {
    const store = await backend.open();
    const before = (await store.auditLog.head()).lastId;
    await expect(
      store.optionsTransaction(async (tx) => {
        await tx.options.set('al_never', 1);
        tx.audit(event('option.updated', 'al_never'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await store.optionsTransaction(async (tx) => {
      await tx.options.get('al_never');
      tx.audit({ ...event('module.activation_refused', 'sso'), result: 'denied' });
    });
    const events = await store.auditLog.list({ after: 0 }, { limit: 5, offset: 0 });
    expect((await store.auditLog.head()).lastId - before).toBe(1);
    expect(events[0]).toMatchObject({ action: 'module.activation_refused', result: 'denied' });
    expect(await store.auditLog.count({ result: 'denied' })).toBe(1);
    expect(await store.auditLog.count({ search: 'ACTIVATION_REFUSED' })).toBe(1);
    await chainHolds(store);
  });

  it('appends events of their own and finds them by filters', async () => {
    const store = await backend.open();
    await store.auditLog.append([event('test.started', 'h1'), event('test.stopped', 'h1')]);
    expect(await store.auditLog.count({ action: 'test.*' })).toBe(2);
    expect(await store.auditLog.count({ objectType: 'option', objectId: 'h1' })).toBe(2);
    const last = await store.auditLog.list({ action: 'test.' }, { limit: 1, offset: 0 });
    expect(last[0]!.action).toBe('test.stopped');
    expect(await store.auditLog.get(last[0]!.id)).toEqual(last[0]);
    await chainHolds(store);
  });
});
