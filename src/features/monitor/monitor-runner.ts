import type { MonitorRepo } from './monitor-repo.js';
import type { TickResult, UptimeChecker } from './uptime-checker.js';

export interface MonitorRunnerOptions {
  readonly repo: MonitorRepo;
  readonly clock: () => number;
  /** Whether the `monitor` module is active (read each round, so a change in any worker counts). */
  readonly isActive: () => Promise<boolean>;
  /** A fresh checker: it picks up the stored state (open downtime, heartbeat gap) on its first tick. */
  readonly newChecker: () => UptimeChecker;
}

export type RoundResult = { readonly kind: 'paused' } | { readonly kind: 'checked'; readonly tick: TickResult };

/**
 * Starts and stops the uptime checker of one process. `round()` is the background job: the job
 * runner calls it only on the process holding the jobs lease, so exactly one process checks,
 * and a process that loses the lease simply stops being called.
 */
export class MonitorRunner {
  private checker: UptimeChecker | undefined;
  /** Whether the stored state already says "not monitoring" (so a paused round writes nothing). */
  private paused = false;

  constructor(private readonly options: MonitorRunnerOptions) {}

  async round(): Promise<RoundResult> {
    if (!(await this.options.isActive())) {
      await this.pause();
      return { kind: 'paused' };
    }
    this.paused = false;
    this.checker ??= this.options.newChecker();
    return { kind: 'checked', tick: await this.checker.tick() };
  }

  /**
   * Stops checking: an open downtime ends now (nobody watches any more) and the heartbeat is
   * forgotten, so that turning the module on again later does not record the pause as downtime.
   */
  async pause(): Promise<void> {
    const checker = this.checker;
    this.checker = undefined;
    await checker?.stop();
    if (this.paused) return;
    this.paused = true;
    const { repo, clock } = this.options;
    const open = await repo.openInterval();
    if (open !== null) await repo.closeInterval(open.id, clock());
    await repo.clearHeartbeat();
  }

  /** The module was turned on here: check at the next round instead of waiting for a stale schedule. */
  resume(): void {
    this.paused = false;
    this.checker = undefined;
  }
}
