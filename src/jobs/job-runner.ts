import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../core/logger.js';
import type { LeasesRepo } from '../store/types.js';
import { isServiceUnavailable } from '../core/unavailable.js';

/** An outage (the store unreachable, frozen or full) is a warning, as everywhere else; anything else is an error. */
function failed(log: Logger, error: unknown): (obj: unknown, msg: string) => void {
  return isServiceUnavailable(error) ? (obj, msg) => log.warn(obj, msg) : (obj, msg) => log.error(obj, msg);
}

/** The lease that decides which process runs background jobs. */
export const JOB_LEASE = 'background-jobs';

/** Default lease period (`SITEWARD_JOB_LEASE_MS`): how long jobs stop when their process dies. */
export const DEFAULT_JOB_LEASE_MS = 30_000;

/**
 * The lease holder's name: host and process id tell an operator reading the `leases` table
 * which process runs the jobs; the random part keeps two runners of one process apart.
 */
export function runnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * A periodic job (e.g. purging expired sessions). Features and plugins add them; the runner
 * calls `run` on the one process holding the lease.
 *
 * @example
 * ctx.addJob({ name: 'purge-expired-sessions', everyMs: 3_600_000, run: () => sessions.purgeExpired() });
 */
export interface BackgroundJob {
  name: string;
  /** How often it runs, in milliseconds. */
  everyMs: number;
  /**
   * Runs on every process, not only the lease holder (e.g. Monitor's per-host checks); `run`
   * learns whether this process holds the lease. Default false.
   */
  everyProcess?: boolean;
  run(round?: { readonly leading: boolean }): Promise<unknown>;
}

export interface JobRunnerOptions {
  leases: LeasesRepo;
  log: Logger;
  /** How long a lease lasts without renewal. Default 30 s; it is renewed every third of that. */
  leaseMs?: number;
  clock?: () => number;
}

/**
 * Runs background jobs on exactly one process of all those sharing the store: each process
 * tries to take or renew a lease (its own table, so renewals never touch the cached options),
 * and only the holder runs jobs. A holder that dies loses the lease when it expires.
 */
export class JobRunner {
  readonly id = runnerId();
  private readonly jobs: { job: BackgroundJob; nextAt: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private leading = false;
  private acquiring: Promise<unknown> = Promise.resolve();
  private readonly leaseMs: number;
  private readonly clock: () => number;

  constructor(private readonly opts: JobRunnerOptions) {
    this.leaseMs = opts.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.clock = opts.clock ?? Date.now;
  }

  add(job: BackgroundJob): void {
    if (this.jobs.some((entry) => entry.job.name === job.name))
      throw new Error(`a background job named "${job.name}" is already registered`);
    this.jobs.push({ job, nextAt: this.clock() });
  }

  /** The registered jobs' names, in order. */
  names(): string[] {
    return this.jobs.map((entry) => entry.job.name);
  }

  /** Tries to take or renew the lease; true when this process holds it now. */
  acquire(): Promise<boolean> {
    const attempt = this.opts.leases.acquire(JOB_LEASE, this.id, this.leaseMs, this.clock());
    // stop() waits for it: a take still on its way to the store (another pooled connection)
    // would otherwise land after the release and leave the lease held by a stopped process.
    this.acquiring = attempt.catch(() => false);
    return attempt;
  }

  /** One round: renew the lease and run the jobs that are due. */
  async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      const holds = await this.acquire();
      if (holds !== this.leading) {
        this.leading = holds;
        // Which process runs the jobs is worth one line each time it changes.
        if (holds)
          this.opts.log.info({ holder: this.id, leaseMs: this.leaseMs }, 'background jobs: this process holds the lease and runs them');
        else this.opts.log.info({ holder: this.id }, 'background jobs: the lease is held by another process');
      }
      const now = this.clock();
      for (const entry of this.jobs) {
        if (entry.nextAt > now || !(holds || entry.job.everyProcess === true)) continue;
        entry.nextAt = now + entry.job.everyMs;
        try {
          await entry.job.run({ leading: holds });
        } catch (error) {
          failed(this.opts.log, error)({ err: error, job: entry.job.name }, 'background job failed');
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Starts ticking every third of the lease (the timer does not keep the process alive). */
  start(): void {
    if (this.timer || this.stopped) return;
    const round = () =>
      void this.tick().catch((error: unknown) => failed(this.opts.log, error)({ err: error }, 'background jobs round failed'));
    round();
    this.timer = setInterval(round, Math.floor(this.leaseMs / 3));
    this.timer.unref();
  }

  /** Stops ticking and gives the lease up so another process can take it at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.acquiring;
    await this.opts.leases.release(JOB_LEASE, this.id);
  }
}
