import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/json.js';
import { testStores } from './testing/test-stores.js';
import type { Store } from './types.js';

/** One step against one of the Store instances. */
type Step =
  | { op: 'set'; via: number; key: string; value: number; autoload: boolean }
  | { op: 'delete'; via: number; key: string }
  | { op: 'add'; via: number; key: string; by: number }
  | { op: 'tx'; via: number; key: string; value: number; fail: boolean };

const key = fc.constantFrom('a', 'b', 'c', 'd');
const via = fc.integer({ min: 0, max: 2 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), via, key, value: fc.integer({ min: 0, max: 99 }), autoload: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), via, key }),
  fc.record({ op: fc.constant('add' as const), via, key, by: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ op: fc.constant('tx' as const), via, key, value: fc.integer({ min: 0, max: 99 }), fail: fc.boolean() }),
);

/**
 * `per-read`: every read asks the database for the version, so every instance agrees at once.
 * `pushed` (PostgreSQL's default): versions come by LISTEN/NOTIFY; the writer agrees at once,
 * the others as soon as the notification arrives, long before the (here one-minute) re-check
 * that would hide a lost notification.
 */
const cases = [
  ...testStores().map((backend) => ({ backend, mode: 'per-read' as const })),
  ...testStores()
    .filter((b) => b.name === 'postgres')
    .map((backend) => ({ backend, mode: 'pushed' as const })),
];

/** Reads until `reader` agrees with `expected` (pushed versions arrive a moment after the commit). */
async function agreement(read: () => Promise<Map<string, JsonValue>>, expected: Record<string, JsonValue>, eventually: boolean) {
  const until = Date.now() + 20_000;
  const canonical = (o: Record<string, JsonValue>) => JSON.stringify(Object.entries(o).sort(([x], [y]) => x.localeCompare(y)));
  for (;;) {
    const got = Object.fromEntries(await read());
    if (!eventually || Date.now() > until || canonical(got) === canonical(expected)) return got;
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe.each(cases)('options against a model on $backend.name, versions $mode', ({ backend, mode }) => {
  let stores: Store[];

  beforeAll(async () => {
    const recheck = { versionRecheckMs: mode === 'per-read' ? 0 : 60_000 };
    stores = [await backend.open(recheck), await backend.open(recheck), await backend.open(recheck)];
  });
  afterAll(() => backend.cleanup());

  it('every instance reads what a plain map says after any sequence of writes through any instance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const model = new Map<string, JsonValue>();
        for (const k of ['a', 'b', 'c', 'd']) await stores[0].options.delete(k);
        for (const s of steps) {
          const store = stores[s.via];
          if (s.op === 'set') {
            await store.options.set(s.key, s.value, s.autoload);
            model.set(s.key, s.value);
          } else if (s.op === 'delete') {
            await store.options.delete(s.key);
            model.delete(s.key);
          } else if (s.op === 'add') {
            await store.options.update(s.key, (v) => (typeof v === 'number' ? v : 0) + s.by);
            model.set(s.key, ((model.get(s.key) as number | undefined) ?? 0) + s.by);
          } else {
            const run = store.transaction(async (tx) => {
              await tx.options.set(s.key, s.value);
              if (s.fail) throw new Error('rolled back');
            });
            if (s.fail) await expect(run).rejects.toThrow('rolled back');
            else {
              await run;
              model.set(s.key, s.value);
            }
          }
          // Every instance agrees with the model after every step (the writer at once).
          for (const reader of [store, ...stores.filter((other) => other !== store)]) {
            const got = await agreement(
              () => reader.options.getMany(['a', 'b', 'c', 'd']),
              Object.fromEntries(model),
              mode === 'pushed' && reader !== store,
            );
            expect(got).toEqual(Object.fromEntries(model));
          }
        }
      }),
      { numRuns: backend.name === 'sqlite' ? 60 : 15 },
    );
  }, 120_000);
});
