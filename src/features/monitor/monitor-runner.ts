import type { MonitorRepo } from './monitor-repo.js';
import type { StoredCheck } from './monitor-store.js';
import type { TickResult, UptimeChecker } from './uptime-checker.js';

export interface MonitorRunnerOptions {
  /** The checks to run, read each round (so one added or changed in any process counts). */
  readonly checks: () => Promise<StoredCheck[]>;
  /** The downtimes and heartbeat of one check. */
  readonly repoFor: (checkId: number) => MonitorRepo;
  readonly clock: () => number;
  /** Whether the `monitor` module is active (read each round, so a change in any worker counts). */
  readonly isActive: () => Promise<boolean>;
  /** A fresh checker: it picks up the stored state (open downtime, heartbeat gap) on its first tick. */
  readonly newChecker: (check: StoredCheck) => UptimeChecker;
  /** After each check's tick (certificate warnings). */
  readonly afterTick?: (check: StoredCheck, tick: TickResult) => Promise<void>;
}

export type RoundResult =
  | { readonly kind: 'paused' }
  | { readonly kind: 'checked'; readonly ticks: readonly { readonly checkId: number; readonly tick: TickResult }[] };

/**
 * Starts and stops the uptime checkers (one per check) of one process. `round()` is the
 * background job: the job runner calls it only on the process holding the jobs lease, so
 * exactly one process decides about downtimes and notifies, and a process that loses the lease
 * simply stops being called.
 */
export class MonitorRunner {
  private readonly checkers = new Map<number, { checker: UptimeChecker; signature: string }>();
  /** Whether the stored state already says "not monitoring" (so a paused round writes nothing). */
  private paused = false;

  constructor(private readonly options: MonitorRunnerOptions) {}

  async round(): Promise<RoundResult> {
    if (!(await this.options.isActive())) {
      await this.pause();
      return { kind: 'paused' };
    }
    this.paused = false;
    const checks = await this.options.checks();
    const ticks: { checkId: number; tick: TickResult }[] = [];
    for (const check of checks) {
      const signature = JSON.stringify(check);
      let entry = this.checkers.get(check.id);
      if (entry === undefined || entry.signature !== signature) {
        await entry?.checker.stop();
        entry = { checker: this.options.newChecker(check), signature };
        this.checkers.set(check.id, entry);
      }
      const tick = await entry.checker.tick();
      ticks.push({ checkId: check.id, tick });
      await this.options.afterTick?.(check, tick);
    }
    for (const [id, entry] of this.checkers) {
      if (checks.some((c) => c.id === id)) continue;
      await entry.checker.stop();
      this.checkers.delete(id);
    }
    return { kind: 'checked', ticks };
  }

  /**
   * Stops checking: open downtimes end now (nobody watches any more). The heartbeats stay, so
   * that turning the module on again later records the pause as "no data", not as uptime.
   */
  async pause(): Promise<void> {
    const checkers = [...this.checkers.values()];
    this.checkers.clear();
    for (const { checker } of checkers) await checker.stop();
    if (this.paused) return;
    this.paused = true;
    const { clock } = this.options;
    for (const check of await this.options.checks()) {
      const repo = this.options.repoFor(check.id);
      const open = await repo.openInterval();
      if (open !== null) await repo.closeInterval(open.id, clock());
    }
  }

  /** The module was turned on here: check at the next round instead of waiting for a stale schedule. */
  resume(): void {
    this.paused = false;
    this.checkers.clear();
  }
}
