import { randomUUID } from 'node:crypto';
import type { Logger } from '../plugins/api.js';
import type { OptionsRepo } from '../store/types.js';

/** The option holding the lease: which process runs background jobs, and until when. */
export const JOB_LEASE_OPTION = 'siteward_job_lease';

export interface BackgroundJob {
  name: string;
  /** How often it runs, in milliseconds. */
  everyMs: number;
  run(): Promise<unknown>;
}

export interface BackgroundJobsOptions {
  options: OptionsRepo;
  log: Logger;
  /** How long a lease lasts without renewal. Default 30 s. */
  leaseMs?: number;
  clock?: () => number;
}

interface Lease {
  holder: string;
  until: number;
}

function asLease(value: unknown): Lease | null {
  if (typeof value !== 'object' || value === null) return null;
  const { holder, until } = value as Record<string, unknown>;
  return typeof holder === 'string' && typeof until === 'number' ? { holder, until } : null;
}

/**
 * Runs background jobs (e.g. purging expired sessions) on exactly one process of all those
 * sharing the store: each process tries to take or renew a lease through an atomic option
 * update, and only the holder runs jobs. A holder that dies loses the lease when it expires.
 */
export class BackgroundJobs {
  readonly id = randomUUID();
  private readonly jobs: { job: BackgroundJob; nextAt: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly clock: () => number;

  constructor(private readonly opts: BackgroundJobsOptions) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.clock = opts.clock ?? Date.now;
  }

  add(job: BackgroundJob): void {
    this.jobs.push({ job, nextAt: this.clock() });
  }

  /** Tries to take or renew the lease; true when this process holds it now. */
  async acquire(): Promise<boolean> {
    const now = this.clock();
    let mine = false;
    await this.opts.options.update(JOB_LEASE_OPTION, (current) => {
      const lease = asLease(current);
      if (lease && lease.holder !== this.id && lease.until > now) return current;
      mine = true;
      return { holder: this.id, until: now + this.leaseMs };
    });
    return mine;
  }

  /** One round: renew the lease and run the jobs that are due. */
  async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      if (!(await this.acquire())) return;
      const now = this.clock();
      for (const entry of this.jobs) {
        if (entry.nextAt > now) continue;
        entry.nextAt = now + entry.job.everyMs;
        try {
          await entry.job.run();
        } catch (error) {
          this.opts.log.error({ err: error, job: entry.job.name }, 'background job failed');
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Starts ticking every third of the lease (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    const round = () => void this.tick().catch((error: unknown) => this.opts.log.error({ err: error }, 'background jobs round failed'));
    round();
    this.timer = setInterval(round, Math.max(1000, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops ticking and gives the lease up so another process can take it at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.opts.options.update(JOB_LEASE_OPTION, (current) => (asLease(current)?.holder === this.id ? undefined : current));
  }
}
