/**
 * At most `limit` of the tasks given to `run` are running at once; the others wait in arrival
 * order (FIFO) and start as running ones settle, whether they fulfil or reject.
 *
 * @example
 * const oneAtATime = concurrencyLimit(1);
 * const digest = await oneAtATime.run(() => expensiveHash(input));
 */
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks started and not yet settled. */
  readonly running: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

export function concurrencyLimit(limit: number): ConcurrencyLimit {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer (got ${limit})`);
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      // A freed slot passes straight to the next waiter, so `running` never dips and lets a
      // newcomer overtake the queue.
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
