import { LRUCache } from 'lru-cache';

/** What a load gives: a value to cache, or why there is none. */
export type Loaded<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** `cached`: answered from the cache; `stale`: an expired cached answer, because the load failed. */
export type CachedResult<T, E> =
  { readonly ok: true; readonly value: T; readonly cached: boolean; readonly stale: boolean } | { readonly ok: false; readonly error: E };

/** A failed load on lru-cache's rejection path, which is what lets the stale value answer instead. */
class LoadFailure<E> extends Error {
  constructor(readonly failure: E) {
    super('load failed');
  }
}

type Load<T, E> = () => Promise<Loaded<T, E>>;

export interface StaleOnErrorCacheOptions<E> {
  /** Entries kept (fresh or stale); the least recently used go first. */
  readonly max: number;
  readonly ttlMs: number;
  /** ms since the epoch (tests move it). */
  readonly clock: () => number;
  /** Whether an old value may answer for this failure; default: always. A failure that is itself an answer (a refused key) should not hide behind one. */
  readonly serveStaleOn?: (error: E) => boolean;
}

/**
 * lru-cache with its `fetchMethod`: an answer is fresh for `ttlMs`; an expired one stays (until
 * `max` pushes it out) and is served, marked stale, when reloading fails
 * (`allowStaleOnFetchRejection`). Concurrent loads of one key share one request.
 */
export class StaleOnErrorCache<T extends NonNullable<unknown>, E> {
  private readonly lru: LRUCache<string, T, Load<T, E>>;

  constructor(options: StaleOnErrorCacheOptions<E>) {
    const serveStale = options.serveStaleOn ?? (() => true);
    this.lru = new LRUCache<string, T, Load<T, E>>({
      max: options.max,
      // lru-cache calls an entry stale once more than `ttl` ms have passed; ours is stale at `ttlMs`.
      ttl: options.ttlMs - 1,
      // No cached "now": the injected clock is read at every call.
      ttlResolution: 0,
      perf: { now: options.clock },
      allowStaleOnFetchRejection: true,
      fetchMethod: async (_key, _stale, { options: fetchOptions, context }) => {
        const loaded = await context();
        if (loaded.ok) return loaded.value;
        if (!serveStale(loaded.error)) fetchOptions.allowStaleOnFetchRejection = false;
        throw new LoadFailure(loaded.error);
      },
    });
  }

  /** The cached value of `key`, or `load`'s when there is none or it has expired. */
  async get(key: string, load: Load<T, E>): Promise<CachedResult<T, E>> {
    const status: LRUCache.Status<string, T, Load<T, E>> = {};
    let value: T | undefined;
    try {
      value = await this.lru.fetch(key, { context: load, status });
    } catch (error) {
      // Thrown when no stale value may answer (`serveStaleOn` said no).
      if (error instanceof LoadFailure) return { ok: false, error: (error as LoadFailure<E>).failure };
      throw error;
    }
    if (value !== undefined) {
      const stale = status.returnedStale === true;
      return { ok: true, value, cached: stale || status.fetch === 'hit', stale };
    }
    // A failed load with nothing stale to serve resolves undefined, its error in the status.
    if (status.fetchError instanceof LoadFailure) return { ok: false, error: (status.fetchError as LoadFailure<E>).failure };
    throw status.fetchError ?? new Error(`no value for ${key}`);
  }
}
