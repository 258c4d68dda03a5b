import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { listening, testStores, type TestBackend } from './testing/test-stores.js';
import type { Store } from './types.js';

/**
 * PostgreSQL option writes: what a toggle-shaped transaction (two read-modify-writes) sends, and
 * what the writing process's cache does after it. `onQuery` sees every statement of the store's
 * pool.
 */
const backend: TestBackend | undefined = testStores().find((b) => b.name === 'postgres');
const RARELY = 60_000;

const increment = (current: unknown) => (typeof current === 'number' ? current + 1 : 1);

describe.skipIf(!backend)('PostgreSQL option writes', () => {
  const db = backend!;
  afterAll(() => db.cleanup());

  it('a transaction updating two options bumps the version once and, with a current cache, reads nothing', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(store);
    await store.options.set('tx_first', 1);
    await store.options.get('tx_first');
    const before = await store.options.version();
    queries.length = 0;
    await store.transaction(async (tx) => {
      await tx.options.update('tx_first', increment);
      await tx.options.update('tx_second', increment);
      // Read-your-writes inside the transaction, from what it wrote.
      await tx.options.update('tx_second', increment);
    });
    // BEGIN, the bump, the upserts, COMMIT: the current values come from the cache, which is at
    // exactly the version before the bump.
    expect(queries.filter((q) => q.includes('state_version'))).toHaveLength(1);
    expect(queries.filter((q) => /^select/i.test(q))).toEqual([]);
    expect(queries).toHaveLength(6);
    expect(await store.options.version()).toBe(before + 1);
    expect(await store.options.getMany(['tx_first', 'tx_second'])).toEqual(
      new Map([
        ['tx_first', 2],
        ['tx_second', 2],
      ]),
    );
  });

  it('a toggle-shaped transaction with a current cache sends BEGIN, the bump, one upsert and COMMIT', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(store);
    await store.options.set('toggle_list', ['a']);
    await store.options.set('toggle_mark', 'taken');
    await store.options.getMany(['toggle_list', 'toggle_public']);
    queries.length = 0;
    const seen = await store.transaction(async (tx) => {
      // Read before the first write: served as a read outside the transaction would be.
      const visibility = await tx.options.get('toggle_public');
      await tx.options.update('toggle_list', (list) => [...(list as string[]), 'b']);
      await tx.options.update('toggle_mark', () => 'taken');
      // Read after a write: the transaction's own value.
      return { visibility, list: await tx.options.get('toggle_list') };
    });
    expect(seen).toEqual({ visibility: undefined, list: ['a', 'b'] });
    expect(queries.map((q) => q.split(' ')[0]?.toLowerCase())).toEqual(['begin', 'update', 'insert', 'commit']);
  });

  it('a transaction whose cache is behind another store reads the current values from the database', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    const other = await db.open({ versionRecheckMs: RARELY });
    await store.options.set('behind_count', 1);
    await store.options.get('behind_count');
    await other.options.update('behind_count', increment);
    queries.length = 0;
    await store.transaction((tx) => tx.options.update('behind_count', increment));
    expect(queries.filter((q) => /^select "value", "autoload" from "options"/i.test(q))).toHaveLength(1);
    const check = await db.open({ versionRecheckMs: 0 });
    expect(await check.options.get('behind_count')).toBe(3);
  });

  it('after its own transaction the writer reads the new values from its cache, without a query', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(store);
    await store.options.set('own_a', 'a0');
    await store.options.get('own_a');
    queries.length = 0;
    await store.transaction(async (tx) => {
      await tx.options.set('own_a', 'a1');
      await tx.options.update('own_b', () => ['b1']);
      await tx.options.delete('own_absent');
    });
    const written = queries.length;
    expect(await store.options.getMany(['own_a', 'own_b', 'own_absent'])).toEqual(
      new Map<string, unknown>([
        ['own_a', 'a1'],
        ['own_b', ['b1']],
      ]),
    );
    expect(queries.slice(written)).toEqual([]);
  });

  it('a cache one write behind the transaction is reloaded, not patched, and so shows the other write too', async () => {
    const store = await db.open({ versionRecheckMs: RARELY });
    const other = await db.open({ versionRecheckMs: RARELY });
    await store.options.get('behind_x');
    await other.options.set('behind_y', 'from other');
    await store.transaction((tx) => tx.options.set('behind_x', 'mine'));
    expect(await store.options.getMany(['behind_x', 'behind_y'])).toEqual(
      new Map([
        ['behind_x', 'mine'],
        ['behind_y', 'from other'],
      ]),
    );
  });

  it('an update that leaves the value as it is writes nothing and keeps the version', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await store.options.set('same', { a: [1, 2] });
    const version = await store.options.version();
    queries.length = 0;
    expect(await store.options.update('same', (current) => current)).toEqual({ a: [1, 2] });
    await store.transaction((tx) => tx.options.update('same', (current) => current));
    expect(queries.some((q) => /^insert|^delete/i.test(q))).toBe(false);
    expect(await store.options.version()).toBe(version);
    expect(await store.options.get('same')).toEqual({ a: [1, 2] });
  });

  it('loses no increment when two stores run concurrent two-option transactions', async () => {
    const one = await db.open();
    const two = await db.open();
    const rounds = 40;
    const run = (store: Store) =>
      store.transaction(async (tx) => {
        await tx.options.update('pair_a', increment);
        await tx.options.update('pair_b', increment);
      });
    await Promise.all(Array.from({ length: rounds }, (_, i) => run(i % 2 === 0 ? one : two)));
    const check = await db.open({ versionRecheckMs: 0 });
    expect(await check.options.getMany(['pair_a', 'pair_b'])).toEqual(
      new Map([
        ['pair_a', rounds],
        ['pair_b', rounds],
      ]),
    );
  });

  it('a transaction that fails after its bump leaves neither the version nor the option changed', async () => {
    const store = await db.open({ versionRecheckMs: 0 });
    const check = await db.open({ versionRecheckMs: 0 });
    await store.options.set('rolled_back', 'before');
    const version = await check.options.version();
    // The bump rides with BEGIN in one simple query: it must still be inside the transaction.
    await expect(
      store.transaction(async (tx) => {
        await tx.options.set('rolled_back', 'inside');
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect(await check.options.version()).toBe(version);
    expect(await check.options.get('rolled_back')).toBe('before');
    expect(await store.options.get('rolled_back')).toBe('before');
    // A transaction that runs nothing, and one whose first statement has parameters, work as before.
    expect(await store.transaction(() => Promise.resolve('nothing'))).toBe('nothing');
    await store.transaction(async (tx) => {
      await tx.userMeta.get(1, 'absent');
      await tx.options.set('rolled_back', 'after');
    });
    expect(await check.options.get('rolled_back')).toBe('after');
  });

  it('prepares a parameterized statement once per connection and reuses it', async () => {
    const store = await db.open({ poolSize: 1, versionRecheckMs: 0 });
    for (let i = 0; i < 3; i++) await store.options.set('prepared_once', i);
    const { rows } = await store.tables.run((conn) =>
      sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'insert into "options"%'`.execute(conn),
    );
    expect(rows).toHaveLength(1);
    expect(await store.options.get('prepared_once')).toBe(2);
  });

  // Last: it alters the tables of this file's schema.
  it('keeps answering after a newer migration adds columns to the tables it reads', async () => {
    const store = await db.open({ poolSize: 1, versionRecheckMs: 0 });
    await store.options.set('after_alter', 1);
    await store.sessions.find('no-such-token');
    await store.tables.run((conn) => sql`ALTER TABLE sessions ADD COLUMN added_later text`.execute(conn));
    await store.tables.run((conn) => sql`ALTER TABLE options ADD COLUMN added_later text`.execute(conn));
    expect(await store.sessions.find('no-such-token')).toBeUndefined();
    await store.options.set('after_alter', 2);
    expect(await store.options.get('after_alter')).toBe(2);
  });
});
