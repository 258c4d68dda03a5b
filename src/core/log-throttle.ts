/**
 * Rate limit for repeated identical log lines: a failing disk or database makes every request
 * fail the same way, and a stack per request buries everything else (disk full once wrote
 * 48,339 stack lines in 15 s). The first occurrence of a key is logged, then at most one per
 * window, carrying how many were left out in between.
 */
export class LogThrottle {
  private readonly seen = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = 1000,
  ) {}

  /** Whether to log this occurrence now, and how many of the key were suppressed before it. */
  admit(key: string): { log: true; suppressed: number } | { log: false } {
    const now = this.clock();
    const entry = this.seen.get(key);
    if (entry && now < entry.until) {
      entry.suppressed += 1;
      return { log: false };
    }
    if (!entry && this.seen.size >= this.maxKeys) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, { until: now + this.windowMs, suppressed: 0 });
    return { log: true, suppressed: entry?.suppressed ?? 0 };
  }
}

/** The key of an error for throttling: its kind, code and message (not its stack). */
export function errorKey(context: string, error: unknown): string {
  if (!(error instanceof Error)) return `${context}|${String(error)}`;
  const code = (error as { code?: unknown }).code;
  return `${context}|${error.name}|${typeof code === 'string' ? code : ''}|${error.message}`;
}
