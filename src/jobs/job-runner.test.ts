import { afterAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import { JobRunner } from './job-runner.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} };

describe.each(testStores())('background jobs on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('runs jobs on exactly one of several processes, and another takes over when it stops', async () => {
    const [a, b] = [await backend.open(), await backend.open()];
    let now = 1_000_000;
    const clock = () => now;
    const runs: string[] = [];
    const jobsA = new JobRunner({ leases: a.leases, log: silent, leaseMs: 30_000, clock });
    const jobsB = new JobRunner({ leases: b.leases, log: silent, leaseMs: 30_000, clock });
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
    const dead = new JobRunner({ leases: a.leases, log: silent, leaseMs: 30_000, clock });
    const alive = new JobRunner({ leases: b.leases, log: silent, leaseMs: 30_000, clock });
    expect(await dead.acquire()).toBe(true);
    expect(await alive.acquire()).toBe(false);
    now += 31_000;
    expect(await alive.acquire()).toBe(true);
  });

  it('renews its lease without changing the options state version (cached answers survive)', async () => {
    const store = await backend.open();
    let now = 9_000_000;
    const jobs = new JobRunner({ leases: store.leases, log: silent, leaseMs: 30_000, clock: () => now });
    const before = await store.options.version();
    // A minute of renewals at the runner's pace (a third of the lease).
    for (let i = 0; i < 6; i++, now += 10_000) await jobs.tick();
    expect(await store.options.version()).toBe(before);
    expect(await store.leases.holder('background-jobs', now)).toBe(jobs.id);
  });

  it('gives the lease up on stop even when a take of it is still on its way to the store', async () => {
    let holder: string | null = null;
    let arrive: () => void = () => undefined;
    const leases = {
      // The take reaches the store only when the test lets it (another pooled connection).
      acquire: async (_name: string, who: string) => {
        await new Promise<void>((resolve) => (arrive = resolve));
        holder = who;
        return true;
      },
      release: async (_name: string, who: string) => void (holder === who ? (holder = null) : undefined),
      holder: async () => holder,
    };
    const jobs = new JobRunner({ leases, log: silent });
    const tick = jobs.tick();
    const stopped = jobs.stop();
    arrive();
    await Promise.all([tick, stopped]);
    expect(holder).toBeNull();
  });

  it('refuses two jobs of one name', () => {
    const jobs = new JobRunner({ leases: { acquire: async () => true, release: async () => {}, holder: async () => null }, log: silent });
    jobs.add({ name: 'x', everyMs: 1000, run: async () => {} });
    expect(() => jobs.add({ name: 'x', everyMs: 1000, run: async () => {} })).toThrow(/already registered/);
  });
});
