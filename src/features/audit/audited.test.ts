/**
 * `audited`: the option changes of the transaction become the event's `changes` (secrets only as
 * "changed"), and options written that `describe` did not account for are recorded anyway.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { testStores } from '../../store/testing/test-stores.js';
import { audited } from './audited.js';
import { jobSource } from './source.js';

describe.each(testStores())('audited transactions on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('record before → after per option, secrets as changed, and never a change without an event', async () => {
    const store = await backend.open();
    await store.options.set('au_color', 'red');
    const run = (f: Parameters<typeof store.optionsTransaction>[0]) => store.optionsTransaction(f);
    await audited(
      run,
      jobSource('test'),
      async (tx) => {
        await tx.options.set('au_color', 'blue');
        await tx.options.update('au_api_key', () => 'sk-123');
        await tx.options.set('au_same', null);
        await tx.options.delete('au_same');
      },
      () => ({ action: 'test.changed', object: { type: 'site', id: 'x', name: 'x' } }),
    );
    const [event] = await store.auditLog.list({ action: 'test.changed' }, { limit: 1, offset: 0 });
    expect(event!.changes).toEqual({ au_color: { before: 'red', after: 'blue' }, au_api_key: { secret: true } });
    expect(JSON.stringify(event)).not.toContain('sk-123');

    await audited(
      run,
      jobSource('test'),
      (tx) => tx.options.set('au_color', 'green'),
      () => null,
    );
    const [fallback] = await store.auditLog.list({ action: 'options.updated' }, { limit: 1, offset: 0 });
    expect(fallback).toMatchObject({
      object: null,
      changes: { au_color: { before: 'blue', after: 'green' } },
      actor: { kind: 'job', job: 'test' },
    });

    // Nothing written, nothing described: no event.
    const before = (await store.auditLog.head()).lastId;
    await audited(
      run,
      jobSource('test'),
      (tx) => tx.options.get('au_color'),
      () => null,
    );
    expect((await store.auditLog.head()).lastId).toBe(before);
  });
});
