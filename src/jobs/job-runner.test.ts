import { afterAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/test-store.js';
import { BackgroundJobs } from './job-runner.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} };

describe.each(testStores())('background jobs on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('runs jobs on exactly one of several processes, and another takes over when it stops', async () => {
    const [a, b] = [await backend.open(), await backend.open()];
    let now = 1_000_000;
    const clock = () => now;
    const runs: string[] = [];
    const jobsA = new BackgroundJobs({ options: a.options, log: silent, leaseMs: 30_000, clock });
    const jobsB = new BackgroundJobs({ options: b.options, log: silent, leaseMs: 30_000, clock });
    jobsA.add({ name: 'purge', everyMs: 1000, run: async () => void runs.push('a') });
    jobsB.add({ name: 'purge', everyMs: 1000, run: async () => void runs.push('b') });

    await Promise.all([jobsA.tick(), jobsB.tick()]);
    expect(runs).toHaveLength(1);
    const holder = runs[0];
    for (let i = 0; i < 5; i++) {
      now += 1000;
      await Promise.all([jobsA.tick(), jobsB.tick()]);
    }
    expect(runs).toEqual(Array(6).fill(holder));

    await (holder === 'a' ? jobsA : jobsB).stop();
    now += 1000;
    await Promise.all([jobsA.tick(), jobsB.tick()]);
    expect(runs.at(-1)).not.toBe(holder);
  });

  it('lets another process take an expired lease of a holder that died', async () => {
    const [a, b] = [await backend.open(), await backend.open()];
    let now = 5_000_000;
    const clock = () => now;
    const dead = new BackgroundJobs({ options: a.options, log: silent, leaseMs: 30_000, clock });
    const alive = new BackgroundJobs({ options: b.options, log: silent, leaseMs: 30_000, clock });
    expect(await dead.acquire()).toBe(true);
    expect(await alive.acquire()).toBe(false);
    now += 31_000;
    expect(await alive.acquire()).toBe(true);
  });
});
