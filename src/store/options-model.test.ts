import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/json.js';
import { testStores } from './test-store.js';
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

describe.each(testStores())('options against a model on $name', (backend) => {
  let stores: Store[];

  beforeAll(async () => {
    stores = [await backend.open(), await backend.open(), await backend.open()];
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
          // Every instance agrees with the model after every step.
          for (const reader of stores) {
            const got = await reader.options.getMany(['a', 'b', 'c', 'd']);
            expect(Object.fromEntries(got)).toEqual(Object.fromEntries(model));
          }
        }
      }),
      { numRuns: backend.name === 'sqlite' ? 60 : 15 },
    );
  }, 120_000);
});
