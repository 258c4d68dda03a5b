/** Bounded polling for tests of real processes (their own clocks): no fixed sleeps, a clear failure when it takes too long. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` (bounded); returns the value and the time it took. */
export async function within<T>(
  ms: number,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<{ value: T; took: number }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return { value, took: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await pause(20);
  }
}
