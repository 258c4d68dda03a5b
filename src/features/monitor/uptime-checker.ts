import { httpProbe, type Probe, type ProbeResult } from './http-probe.js';
import type { DowntimeInterval, MonitorRepo } from './monitor-repo.js';
import { DAY_MS } from '../../core/time.js';

/** Timer functions, injectable so tests decide when the loop runs. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UptimeCheckerOptions {
  readonly url: string;
  readonly repo: MonitorRepo;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Seconds between checks, at least 10; default 60. */
  readonly intervalSeconds?: number;
  /** Per-check timeout in milliseconds; default 10 000. */
  readonly timeoutMs?: number;
  readonly probe?: Probe;
  readonly timers?: Timers;
  /** Called on each confirmed change; must not block (the notifier only queues). */
  readonly onTransition?: (event: MonitorTransition) => void;
  /** Called when a check could not be stored (the loop keeps going). */
  readonly onError?: (error: unknown) => void;
  /** Whether a maintenance window is in force at a time: checks run, but no downtime is counted or notified. */
  readonly inMaintenance?: (at: number) => Promise<boolean>;
  /** Milliseconds between repeated "still down" notifications; 0 (the default) sends none. Asked at each check. */
  readonly repeatMs?: () => Promise<number>;
}

/** A change to tell people about. `reason` is why the downtime started; `lastError` the latest failure seen. */
export type MonitorTransition =
  | {
      readonly kind: 'down';
      readonly url: string;
      readonly at: number;
      readonly since: number;
      readonly reason: string;
      readonly lastError: string;
    }
  | {
      readonly kind: 'still-down';
      readonly url: string;
      readonly at: number;
      readonly since: number;
      readonly reason: string;
      readonly lastError: string;
    }
  | {
      readonly kind: 'up';
      readonly url: string;
      readonly at: number;
      readonly since: number;
      readonly downtimeSeconds: number;
      readonly reason: string;
      readonly lastError: string;
    };

export type TickResult =
  | { readonly kind: 'idle'; readonly nextCheckAt: number }
  | { readonly kind: 'up' }
  | { readonly kind: 'suspect'; readonly reason: string; readonly retryAt: number }
  | { readonly kind: 'down'; readonly reason: string; readonly since: number }
  | { readonly kind: 'still-down' }
  | { readonly kind: 'maintenance' }
  | { readonly kind: 'recovered'; readonly downtimeSeconds: number };

export interface DowntimeEntry {
  readonly start: number;
  readonly end: number | null;
  readonly durationSeconds: number;
}

type Phase =
  | { readonly name: 'up' }
  | { readonly name: 'suspect'; readonly since: number; readonly reason: string }
  | { readonly name: 'down'; readonly interval: DowntimeInterval; readonly lastError: string; readonly notifiedAt: number };

export const MIN_INTERVAL_SECONDS = 10;

/**
 * Checks the site every interval. A failed check (connection error, timeout, 5xx) is
 * confirmed by one retry after min(10 s, interval) before the site counts as down; the
 * downtime then starts at the first failed check. The first good check ends it.
 *
 * `tick()` runs a check when one is due and is all the loop does: `start()` only schedules
 * ticks with the injected timers, and tests call `tick()` themselves under a fake clock.
 */
export class UptimeChecker {
  readonly intervalMs: number;
  readonly retryDelayMs: number;
  readonly timeoutMs: number;
  private readonly probe: Probe;
  private readonly timers: Timers;
  private phase: Phase = { name: 'up' };
  private nextCheckAt = 0;
  private initialized: Promise<void> | undefined;
  private running: Promise<TickResult> | undefined;
  private timer: unknown;
  private stopped = true;

  constructor(private readonly options: UptimeCheckerOptions) {
    const seconds = options.intervalSeconds ?? 60;
    if (!Number.isFinite(seconds) || seconds < MIN_INTERVAL_SECONDS) {
      throw new RangeError(`monitor interval must be at least ${MIN_INTERVAL_SECONDS} s, got ${seconds}`);
    }
    this.intervalMs = seconds * 1000;
    this.retryDelayMs = Math.min(10_000, this.intervalMs);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.probe = options.probe ?? httpProbe;
    this.timers = options.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) };
  }

  /**
   * Picks up where the previous checker left off: an open downtime stays open until a good
   * check, and a heartbeat older than two intervals means nothing checked (Siteward was stopped,
   * or the module off): that gap is recorded as "no data", which is neither up nor down, since
   * Siteward's own downtime says nothing of the site's.
   */
  init(): Promise<void> {
    this.initialized ??= (async () => {
      const { repo, clock } = this.options;
      const now = clock();
      const open = await repo.openInterval();
      if (open !== null) {
        this.phase = { name: 'down', interval: open, lastError: open.reason, notifiedAt: now };
      } else {
        const last = await repo.heartbeat();
        if (last !== null && now - last > 2 * this.intervalMs) await repo.addNoData(last, now);
      }
      await repo.setHeartbeat(now);
      this.nextCheckAt = now;
    })();
    return this.initialized;
  }

  /** Runs the check when due; concurrent calls share the check in progress. */
  tick(): Promise<TickResult> {
    this.running ??= this.checkIfDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Starts the timer loop (after init). */
  async start(): Promise<void> {
    await this.init();
    this.stopped = false;
    this.schedule();
  }

  /** Stops the loop and waits for a check in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** The downtime that started last (possibly still open), or null. */
  lastDowntime(): Promise<DowntimeInterval | null> {
    return this.options.repo.latest();
  }

  /** Downtimes of the last `days` days, newest first; an open one lasts until now. */
  async history(days: number): Promise<DowntimeEntry[]> {
    const now = this.options.clock();
    const intervals = await this.options.repo.since(now - days * DAY_MS);
    return intervals.map((i) => ({ start: i.start, end: i.end, durationSeconds: Math.round(((i.end ?? now) - i.start) / 1000) }));
  }

  private schedule(): void {
    if (this.stopped) return;
    const delay = Math.max(0, this.nextCheckAt - this.options.clock());
    this.timer = this.timers.setTimeout(() => {
      this.tick()
        .catch((error: unknown) => {
          this.options.onError?.(error);
          // A store outage must not make the loop spin: try again one interval later.
          this.nextCheckAt = this.options.clock() + this.intervalMs;
        })
        .finally(() => this.schedule());
    }, delay);
  }

  private async checkIfDue(): Promise<TickResult> {
    await this.init();
    const { clock, repo, url } = this.options;
    const now = clock();
    if (now < this.nextCheckAt) return { kind: 'idle', nextCheckAt: this.nextCheckAt };
    const result: ProbeResult = await this.probe(url, this.timeoutMs);
    await repo.setHeartbeat(clock());
    this.nextCheckAt = now + this.intervalMs;
    const phase = this.phase;
    if (this.options.inMaintenance !== undefined && (await this.options.inMaintenance(now))) {
      // No downtime is counted in a window: one that was open ends at the window's first check, silently.
      if (phase.name === 'down') await repo.closeInterval(phase.interval.id, now);
      this.phase = { name: 'up' };
      return { kind: 'maintenance' };
    }
    if (result.up) {
      if (phase.name !== 'down') {
        this.phase = { name: 'up' };
        return { kind: 'up' };
      }
      await repo.closeInterval(phase.interval.id, now);
      this.phase = { name: 'up' };
      const downtimeSeconds = Math.round((now - phase.interval.start) / 1000);
      this.emit({
        kind: 'up',
        url,
        at: now,
        since: phase.interval.start,
        downtimeSeconds,
        reason: phase.interval.reason,
        lastError: phase.lastError,
      });
      return { kind: 'recovered', downtimeSeconds };
    }

    switch (phase.name) {
      case 'up':
        this.phase = { name: 'suspect', since: now, reason: result.reason };
        this.nextCheckAt = now + this.retryDelayMs;
        return { kind: 'suspect', reason: result.reason, retryAt: this.nextCheckAt };
      case 'suspect': {
        const id = await repo.startInterval(phase.since, phase.reason);
        this.phase = {
          name: 'down',
          interval: { id, start: phase.since, end: null, reason: phase.reason },
          lastError: result.reason,
          notifiedAt: now,
        };
        this.emit({ kind: 'down', url, at: now, since: phase.since, reason: phase.reason, lastError: result.reason });
        return { kind: 'down', reason: phase.reason, since: phase.since };
      }
      case 'down': {
        const repeatMs = (await this.options.repeatMs?.()) ?? 0;
        const repeat = repeatMs > 0 && now - phase.notifiedAt >= repeatMs;
        this.phase = { ...phase, lastError: result.reason, notifiedAt: repeat ? now : phase.notifiedAt };
        if (repeat)
          this.emit({
            kind: 'still-down',
            url,
            at: now,
            since: phase.interval.start,
            reason: phase.interval.reason,
            lastError: result.reason,
          });
        return { kind: 'still-down' };
      }
    }
  }

  private emit(event: MonitorTransition): void {
    try {
      this.options.onTransition?.(event);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
