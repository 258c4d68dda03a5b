import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from './concurrency-limit.js';

/** A task that runs until the test settles it, recording when it started. */
function gatedTask(started: string[], name: string) {
  let settle!: (ok: boolean) => void;
  const task = () =>
    new Promise<string>((resolve, reject) => {
      started.push(name);
      settle = (ok) => (ok ? resolve(name) : reject(new Error(name)));
    });
  return { task, settle: (ok = true) => settle(ok) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('concurrencyLimit', () => {
  it('runs no more than the limit at once and starts the waiting ones in arrival order', async () => {
    const limit = concurrencyLimit(2);
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => gatedTask(started, name));
    const results = Promise.allSettled(tasks.map((t) => limit.run(t.task)));
    await turn();
    expect(started).toEqual(['a', 'b']);
    expect([limit.running, limit.waiting]).toEqual([2, 2]);

    tasks[1]!.settle();
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    expect([limit.running, limit.waiting]).toEqual([2, 1]);

    tasks[0]!.settle(false);
    await turn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    tasks[2]!.settle();
    tasks[3]!.settle();
    await expect(results).resolves.toEqual([
      { status: 'rejected', reason: new Error('a') },
      { status: 'fulfilled', value: 'b' },
      { status: 'fulfilled', value: 'c' },
      { status: 'fulfilled', value: 'd' },
    ]);
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('gives a freed slot to the longest-waiting task, not to one that arrives later', async () => {
    const limit = concurrencyLimit(1);
    const started: string[] = [];
    const first = gatedTask(started, 'first');
    const queued = gatedTask(started, 'queued');
    const late = gatedTask(started, 'late');
    void limit.run(first.task);
    void limit.run(queued.task);
    await turn();
    first.settle();
    void limit.run(late.task);
    await turn();
    expect(started).toEqual(['first', 'queued']);
    queued.settle();
    await turn();
    expect(started).toEqual(['first', 'queued', 'late']);
    late.settle();
  });

  it('refuses a limit below one', () => {
    expect(() => concurrencyLimit(0)).toThrow(RangeError);
  });
});
