import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../core/unavailable.js';
import { JobRunner } from './job-runner.js';

/** Records each line as `level message`. */
function recorder() {
  const lines: string[] = [];
  const at = (level: string) => (_obj: unknown, msg?: string) => void lines.push(`${level} ${msg ?? ''}`);
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } };
}

describe('background jobs during a store outage', () => {
  it('log a round that cannot reach the store as a warning, not an error', async () => {
    const { lines, log } = recorder();
    const down = () => Promise.reject(new ServiceUnavailableError('store', 'Query read timeout'));
    const jobs = new JobRunner({ leases: { acquire: down, release: async () => {}, holder: down }, log, leaseMs: 30_000 });
    jobs.start();
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    await jobs.stop().catch(() => undefined);
    expect(lines).toEqual(['warn background jobs round failed']);
  });

  it('log a job that fails for the outage as a warning, and a job that fails otherwise as an error', async () => {
    const { lines, log } = recorder();
    const jobs = new JobRunner({ leases: { acquire: async () => true, release: async () => {}, holder: async () => null }, log });
    jobs.add({ name: 'outage', everyMs: 1000, run: () => Promise.reject(new ServiceUnavailableError('store', 'SQLITE_FULL')) });
    jobs.add({ name: 'bug', everyMs: 1000, run: () => Promise.reject(new TypeError('x is undefined')) });
    await jobs.tick();
    expect(lines.filter((l) => !l.startsWith('info'))).toEqual(['warn background job failed', 'error background job failed']);
  });
});
