/**
 * One read query shared by concurrent callers (speed: one round trip instead of one each), but
 * never a query that was sent before the caller asked: a caller arriving while one is in flight
 * waits for the next one, so a write committed before the call is always seen.
 */
export class SharedQuery<T> {
  private inFlight: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  constructor(private readonly query: () => Promise<T>) {}

  run(): Promise<T> {
    if (!this.inFlight) {
      const current = this.query().finally(() => {
        if (this.inFlight === current) this.inFlight = null;
      });
      this.inFlight = current;
      return current;
    }
    if (!this.queued) {
      const after = this.inFlight.then(
        () => undefined,
        () => undefined,
      );
      this.queued = after.then(() => {
        this.queued = null;
        return this.run();
      });
    }
    return this.queued;
  }
}
