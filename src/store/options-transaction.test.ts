import { afterAll, describe, expect, it } from 'vitest';
import { listening, testStores } from './testing/test-stores.js';

/**
 * `store.optionsTransaction`: all or nothing, no lost update between concurrent callers of one
 * store or of two stores on one database; on PostgreSQL the callers that come in while one
 * commits share one statement, and a batch that another store got ahead of runs again behind
 * the version lock (pg-option-batches.ts).
 */
const RARELY = 60_000;

const append = (item: string) => (current: unknown) => [...(Array.isArray(current) ? current : []), item];

describe.each(testStores())('options transactions on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('keep every change of 40 concurrent callers, each seeing the ones before it', async () => {
    const store = await backend.open();
    await listening(store);
    const seen = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.optionsTransaction(async (tx) => {
          const list = await tx.options.update('ot_list', append(`item${i}`));
          await tx.options.update('ot_count', (n) => (typeof n === 'number' ? n + 1 : 1));
          return { list: list as string[], count: await tx.options.get('ot_count') };
        }),
      ),
    );
    const stored = (await store.options.get('ot_list')) as string[];
    expect([...stored].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `item${i}`).sort());
    expect(await store.options.get('ot_count')).toBe(40);
    // Each caller saw a list as long as its count: its own change and every one before it.
    for (const { list, count } of seen) expect(list.length).toBe(count);
    expect(new Set(seen.map((s) => s.count)).size).toBe(40);
  });

  it('write nothing when a callback throws, and answer with its error', async () => {
    const store = await backend.open();
    await store.options.set('ot_kept', 'before');
    const failing = store.optionsTransaction(async (tx) => {
      await tx.options.set('ot_kept', 'after');
      await tx.options.set('ot_new', 1);
      throw new Error('refused');
    });
    const passing = store.optionsTransaction(async (tx) => tx.options.update('ot_other', () => 'written'));
    await expect(failing).rejects.toThrow('refused');
    await expect(passing).resolves.toBe('written');
    expect(await store.options.get('ot_kept')).toBe('before');
    expect(await store.options.get('ot_new')).toBeUndefined();
    expect(await store.options.get('ot_other')).toBe('written');
  });

  it('keep an option autoloaded or not as it was, and delete what it deletes', async () => {
    const store = await backend.open();
    await store.options.set('ot_lazy', 1, false);
    await store.options.set('ot_gone', 'x');
    await store.optionsTransaction(async (tx) => {
      await tx.options.update('ot_lazy', (n) => (n as number) + 1);
      await tx.options.delete('ot_gone');
      await tx.options.set('ot_made', 'y', false);
    });
    const rows = new Map((await backend.rawRows('options')).map((r) => [r.name, r]));
    expect(rows.get('ot_lazy')).toMatchObject({ value: '2', autoload: 0 });
    expect(rows.get('ot_made')).toMatchObject({ value: '"y"', autoload: 0 });
    expect(rows.has('ot_gone')).toBe(false);
    const fresh = await backend.open();
    expect(await fresh.options.getMany(['ot_lazy', 'ot_gone', 'ot_made'])).toEqual(
      new Map<string, unknown>([
        ['ot_lazy', 2],
        ['ot_made', 'y'],
      ]),
    );
  });

  it('lose no update when two stores on one database write the same option at once', async () => {
    const a = await backend.open({ versionRecheckMs: RARELY });
    const b = await backend.open({ versionRecheckMs: RARELY });
    await Promise.all([listening(a), listening(b)]);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? a : b).optionsTransaction((tx) => tx.options.update('ot_shared', append(`w${i}`))),
      ),
    );
    const fresh = await backend.open();
    const stored = (await fresh.options.get('ot_shared')) as string[];
    expect([...stored].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `w${i}`).sort());
  });

  it('run a callback again when another store wrote after it read, so that its write is computed from that one', async () => {
    const queries: string[] = [];
    const a = await backend.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    const b = await backend.open({ versionRecheckMs: RARELY });
    await Promise.all([listening(a), listening(b)]);
    await a.options.set('ot_race', ['start']);
    await a.options.get('ot_race');
    queries.length = 0;
    let runs = 0;
    const result = await a.optionsTransaction(async (tx) => {
      runs++;
      const current = (await tx.options.get('ot_race')) as string[];
      // Another writer gets in between this read and the commit, the first time only. (On
      // SQLite the transaction holds the write lock: the other store's write waits for it.)
      if (runs === 1 && a.backend === 'postgres') await b.options.update('ot_race', append('other'));
      await tx.options.set('ot_race', [...current, 'mine']);
      return current;
    });
    if (a.backend === 'postgres') {
      expect(runs).toBe(2);
      expect(result).toEqual(['start', 'other']);
      expect(await a.options.get('ot_race')).toEqual(['start', 'other', 'mine']);
      // The second run is an ordinary transaction that locks the version row before its first
      // read, so that read cannot come from a cache that has not heard of the other write yet.
      const again = queries.findIndex((q) => q.startsWith('SELECT v FROM state_version') && q.endsWith('FOR UPDATE'));
      expect(again).toBeGreaterThan(queries.findIndex((q) => q.startsWith('WITH bump')));
    } else {
      expect(runs).toBe(1);
      expect(await a.options.get('ot_race')).toEqual(['start', 'mine']);
    }
  });
});

const pgBackend = testStores().find((b) => b.name === 'postgres');

describe.skipIf(!pgBackend)('options transactions on PostgreSQL, batched', () => {
  const db = pgBackend!;
  afterAll(() => db.cleanup());

  it('commit the callers that came in during a commit with one statement, and send nothing else with a current cache', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(store);
    await store.options.set('ob_list', []);
    await store.options.get('ob_list');
    const before = await store.options.version();
    queries.length = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.optionsTransaction((tx) => tx.options.update('ob_list', append(`x${i}`)))),
    );
    // The first goes alone; the nine that came in while it committed go together.
    expect(queries).toHaveLength(2);
    for (const q of queries) expect(q).toMatch(/^WITH bump AS/);
    expect(await store.options.version()).toBe(before + 2);
    expect(((await store.options.get('ob_list')) as string[]).length).toBe(10);
    // The cache took the batch's writes in place: reading sent nothing.
    expect(queries).toHaveLength(2);
  });

  it('change no version and send nothing when nothing changes', async () => {
    const queries: string[] = [];
    const store = await db.open({ versionRecheckMs: RARELY, onQuery: (text) => void queries.push(text) });
    await listening(store);
    await store.options.set('ot_same', { a: 1 });
    await store.options.get('ot_same');
    const before = await store.options.version();
    queries.length = 0;
    await store.optionsTransaction(async (tx) => {
      await tx.options.update('ot_same', (v) => v);
      await tx.options.delete('ot_never_there');
    });
    expect(queries).toEqual([]);
    expect(await store.options.version()).toBe(before);
  });

  it('tell another store of the new version, which then reads the batch', async () => {
    const a = await db.open({ versionRecheckMs: RARELY });
    const b = await db.open({ versionRecheckMs: RARELY });
    await Promise.all([listening(a), listening(b)]);
    await b.options.get('ob_seen');
    const version = await a.options.version();
    await a.optionsTransaction((tx) => tx.options.set('ob_seen', 'yes'));
    const deadline = Date.now() + 10_000;
    while ((await b.options.version()) <= version) {
      if (Date.now() > deadline) throw new Error('the notification never came');
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await b.options.get('ob_seen')).toBe('yes');
  });
});
