import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AuditEventInput } from '../wire/audit.js';
import { chainHash, GENESIS_HASH } from './audit-chain.js';
import { APPEND_BATCH, type KyselyAuditLog } from './audit-repo.js';
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

  // Group commit (issue 42): concurrent standalone appends share one transaction.
  const log = (store: Store) => store.auditLog as KyselyAuditLog;
  const rawTransaction = (store: Store) =>
    vi.spyOn(store as unknown as { rawTransaction: <T>(fn: (db: unknown) => Promise<T>) => Promise<T> }, 'rawTransaction');

  it('writes concurrent appends in one or few transactions, in call order, on one chain', async () => {
    const store = await backend.open();
    const before = log(store).appendTransactions;
    const ids = Array.from({ length: 300 }, (_, i) => `g${i}`);
    await Promise.all(ids.map((id) => store.auditLog.append([event('group.one', id)])));
    // The first call starts alone; the 299 arriving while it runs share the next transaction.
    expect(log(store).appendTransactions - before).toBe(2);
    const rows = await store.auditLog.list({ action: 'group.one' }, { limit: 1000, offset: 0, order: 'asc' });
    expect(rows.map((e) => e.object?.id)).toEqual(ids);
    await chainHolds(store);
  });

  it('bounds a grouped transaction to APPEND_BATCH events, a larger single call written alone', async () => {
    const store = await backend.open();
    const before = log(store).appendTransactions;
    const big = Array.from({ length: APPEND_BATCH + 20 }, (_, i) => event('bound.big', `b${i}`));
    const calls = [store.auditLog.append([event('bound.small', 's0')])];
    for (let i = 1; i <= APPEND_BATCH + 10; i++) calls.push(store.auditLog.append([event('bound.small', `s${i}`)]));
    calls.push(store.auditLog.append(big), store.auditLog.append([event('bound.small', 'last')]));
    await Promise.all(calls);
    // [s0], [s1 … s500], [s501 … s510] (the big call would pass the bound), [big], [last].
    expect(log(store).appendTransactions - before).toBe(5);
    const rows = await store.auditLog.list({ action: 'bound.' }, { limit: 5000, offset: 0, order: 'asc' });
    expect(rows.map((e) => e.object?.id)).toEqual([
      ...Array.from({ length: APPEND_BATCH + 11 }, (_, i) => `s${i}`),
      ...big.map((e) => e.object?.id),
      'last',
    ]);
    await chainHolds(store);
  });

  it('rejects exactly the callers of a batch whose write fails, and the chain goes on', async () => {
    const store = await backend.open();
    type Raw = <T>(fn: (db: unknown) => Promise<T>) => Promise<T>;
    const original = (store as unknown as { rawTransaction: Raw }).rawTransaction;
    const spy = rawTransaction(store);
    let calls = 0;
    spy.mockImplementation(function (this: unknown, fn: (db: unknown) => Promise<unknown>) {
      calls += 1;
      // The second transaction writes its events, then fails before COMMIT (rolled back).
      if (calls !== 2) return original.call(this, fn);
      return original.call(this, async (db) => {
        await fn(db);
        throw new Error('disk full');
      });
    });
    const headBefore = (await store.auditLog.head()).lastId;
    const first = store.auditLog.append([event('group.fail', 'f0')]);
    const batch = ['f1', 'f2', 'f3'].map((id) => store.auditLog.append([event('group.fail', id)]));
    const outcome = await Promise.allSettled([first, ...batch]);
    expect(outcome.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    for (const o of outcome.slice(1)) expect((o as PromiseRejectedResult).reason).toEqual(new Error('disk full'));
    await store.auditLog.append([event('group.fail', 'f4')]);
    spy.mockRestore();
    const rows = await store.auditLog.list({ action: 'group.fail' }, { limit: 10, offset: 0, order: 'asc' });
    expect(rows.map((e) => e.object?.id)).toEqual(['f0', 'f4']);
    expect((await store.auditLog.head()).lastId - headBefore).toBe(2);
    await chainHolds(store);
  });

  it('keeps one chain when two stores group their appends concurrently, and close writes what is queued', async () => {
    const a = await backend.open();
    const b = await backend.open();
    await Promise.all([listening(a), listening(b)]);
    const before = (await a.auditLog.head()).lastId;
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).auditLog.append([event('group.two', `t${i}`)])));
    expect((await a.auditLog.head()).lastId - before).toBe(100);
    await chainHolds(a);
    const c = await backend.open();
    const pending = Array.from({ length: 20 }, (_, i) => c.auditLog.append([event('group.closing', `c${i}`)]));
    await c.close();
    await Promise.all(pending);
    expect(await a.auditLog.count({ action: 'group.closing' })).toBe(20);
    await chainHolds(a);
  });
});
