/** What the primary does when a worker exits. */
export type RestartDecision = { readonly kind: 'restart'; readonly afterMs: number } | { readonly kind: 'stop'; readonly reason: string };

export interface RestartPolicy {
  /** Wait before replacing a worker that had served. */
  readonly firstDelayMs: number;
  /** Longest wait between attempts while replacements keep failing to start. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 500, maxDelayMs: 30_000 };

/**
 * The primary's restart rules. A worker that fails before the server ever served is a
 * start-up error (bad configuration, unreachable database at launch): retrying would loop, so
 * the server stops with it. Once the server has served, a replacement that cannot start is an
 * outage (the database went away): the primary keeps trying, doubling the wait up to
 * `maxDelayMs`, and the first worker that serves again resets the wait.
 */
export class WorkerRestarts {
  private servedOnce = false;
  private failures = 0;

  constructor(private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY) {}

  /** A worker started serving. */
  listening(): void {
    this.servedOnce = true;
    this.failures = 0;
  }

  /** A worker exited; `hadListened` tells whether that worker had served. */
  exited(hadListened: boolean): RestartDecision {
    if (hadListened) return { kind: 'restart', afterMs: this.policy.firstDelayMs };
    if (!this.servedOnce) return { kind: 'stop', reason: 'a worker could not start' };
    this.failures += 1;
    return { kind: 'restart', afterMs: Math.min(this.policy.maxDelayMs, this.policy.firstDelayMs * 2 ** this.failures) };
  }
}
