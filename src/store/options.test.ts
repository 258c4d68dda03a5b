import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from './testing/test-stores.js';
import type { Store } from './types.js';

describe.each(testStores())('options on $name', (backend) => {
  let store: Store;
  let other: Store;

  // Every read asks the database here (SQLite's way, and PostgreSQL's without a listener), so a
  // write through one instance is seen on the very next read of the other. Versions pushed by
  // LISTEN/NOTIFY arrive a moment later: version-push.test.ts covers that mode.
  beforeAll(async () => {
    store = await backend.open({ versionRecheckMs: 0 });
    other = await backend.open({ versionRecheckMs: 0 });
  });
  afterAll(() => backend.cleanup());

  it('returns undefined for an option that does not exist', async () => {
    expect(await store.options.get('nope')).toBeUndefined();
    expect(await store.options.getMany(['nope', 'neither'])).toEqual(new Map());
  });

  it('stores and reads back JSON values of every kind', async () => {
    const values = { s: 'text', n: 3.5, b: false, z: null, a: [1, 'two', { three: 3 }], o: { nested: { deep: true } } };
    for (const [key, value] of Object.entries(values)) await store.options.set(`kind_${key}`, value);
    for (const [key, value] of Object.entries(values)) expect(await store.options.get(`kind_${key}`)).toEqual(value);
  });

  it('hands out copies, so mutating a read value does not change the cache', async () => {
    await store.options.set('list', ['a']);
    const first = await store.options.get('list');
    (first as string[]).push('b');
    expect(await store.options.get('list')).toEqual(['a']);
  });

  it('reads several options at once, leaving missing ones out', async () => {
    await store.options.set('many_a', 1);
    await store.options.set('many_b', 2, false);
    const map = await store.options.getMany(['many_a', 'many_b', 'many_c']);
    expect([...map.entries()].sort()).toEqual([
      ['many_a', 1],
      ['many_b', 2],
    ]);
  });

  it('serves options that are not autoloaded', async () => {
    await store.options.set('lazy', { big: 'value' }, false);
    expect(await store.options.get('lazy')).toEqual({ big: 'value' });
    expect(await other.options.get('lazy')).toEqual({ big: 'value' });
    await other.options.set('lazy', 'changed', false);
    expect(await store.options.get('lazy')).toBe('changed');
  });

  it('deletes an option and ignores deleting an absent one', async () => {
    await store.options.set('gone', 1);
    await store.options.delete('gone');
    await store.options.delete('gone');
    expect(await store.options.get('gone')).toBeUndefined();
    expect(await other.options.get('gone')).toBeUndefined();
  });

  it('bumps the version on every write and not on reads', async () => {
    const before = await store.options.version();
    await store.options.get('kind_s');
    expect(await store.options.version()).toBe(before);
    await store.options.set('bump', 1);
    await other.options.update('bump', (v) => (typeof v === 'number' ? v + 1 : 0));
    expect(await store.options.version()).toBe(before + 2);
    expect(await other.options.version()).toBe(before + 2);
  });

  it('sees a write made through another Store instance on the very next read', async () => {
    await store.options.set('shared', 'one');
    expect(await other.options.get('shared')).toBe('one');
    await other.options.set('shared', 'two');
    expect(await store.options.get('shared')).toBe('two');
    await other.options.delete('shared');
    expect(await store.options.get('shared')).toBeUndefined();
    await other.options.set('created_elsewhere', [1]);
    expect(await store.options.get('created_elsewhere')).toEqual([1]);
  });

  it('update passes the current value and stores what the function returns', async () => {
    expect(await store.options.update('counter_u', (v) => (v === undefined ? 'fresh' : 'old'))).toBe('fresh');
    expect(await store.options.update('counter_u', (v) => `${String(v)}+`)).toBe('fresh+');
    expect(await other.options.get('counter_u')).toBe('fresh+');
  });

  it('update returning undefined deletes the option', async () => {
    await store.options.set('to_delete', 1);
    expect(await store.options.update('to_delete', () => undefined)).toBeUndefined();
    expect(await other.options.get('to_delete')).toBeUndefined();
  });

  it('update keeps the autoload flag of an existing option', async () => {
    await store.options.set('lazy_counter', 1, false);
    await store.options.update('lazy_counter', (v) => (v as number) + 1);
    expect(await other.options.get('lazy_counter')).toBe(2);
  });

  it('update whose function throws changes nothing', async () => {
    await store.options.set('stable', 'same');
    const version = await store.options.version();
    await expect(
      store.options.update('stable', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.options.get('stable')).toBe('same');
    expect(await store.options.version()).toBe(version);
  });

  it('loses no increment when two Store instances run 200 concurrent updates', async () => {
    const increment = (v: unknown): number => (typeof v === 'number' ? v + 1 : 1);
    await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? store : other).options.update('concurrent', increment)));
    expect(await store.options.get('concurrent')).toBe(200);
    expect(await other.options.get('concurrent')).toBe(200);
  });

  it('loses no increment when updates, sets and transactions interleave', async () => {
    const increment = (v: unknown): number => (typeof v === 'number' ? v + 1 : 1);
    await store.options.set('mixed', 0);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const s = i % 2 === 0 ? store : other;
        if (i % 3 === 0) return s.transaction((tx) => tx.options.update('mixed', increment));
        if (i % 3 === 1) return s.options.update('mixed', increment).then(() => s.options.set(`noise_${i}`, i));
        return s.options.update('mixed', increment);
      }),
    );
    expect(await other.options.get('mixed')).toBe(60);
    expect(await store.options.get('mixed')).toBe(60);
  });
});

describe('options performance on sqlite', () => {
  const backend = testStores()[0];
  afterAll(() => backend.cleanup());

  // The rate itself is measured by `npm run bench`; this checks that a long run of toggles ends where it began.
  it('returns to the start after an even number of durable toggles', async () => {
    const store = await backend.open();
    await store.options.set('active_modules', ['protect', 'monitor']);
    const toggle = (v: unknown) => {
      const list = Array.isArray(v) ? v : [];
      return list.includes('likes') ? list.filter((m) => m !== 'likes') : [...list, 'likes'];
    };
    const n = 2000;
    for (let i = 0; i < n; i++) await store.options.update('active_modules', toggle);
    expect(await store.options.get('active_modules')).toEqual(['protect', 'monitor']);
  });
});
