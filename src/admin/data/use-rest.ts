/**
 * Reading REST answers through the store (rest-store.ts): `useRest(path)` is the one way a screen
 * loads something. It answers `loading`, `ok` with the data, or `error` with an ApiError; `reload`
 * asks again. The last answer stays on screen while a quiet refresh runs.
 */
import { useRegistry, useSelect } from '@wordpress/data';
import { useCallback, useEffect } from 'react';
import { ApiError, toApiError } from '../api';
import { restStore, SELECTOR, splitKey, type Kind } from './rest-store';

export type Load<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; error: ApiError };
export type Loading<T> = Load<T> & { reload: () => void };

/** How often a live read asks again while its tab is visible (a tab that comes back asks at once). */
export const LIVE_REFRESH_MS = 30_000;
/** An answer older than this is asked again when a component that shows it mounts (shown meanwhile). */
export const FRESH_MS = 5_000;

interface Resolution {
  readonly status?: 'resolving' | 'finished' | 'error';
  readonly error?: unknown;
}

/** The store's selectors as this module uses them (the package's types do not follow thunk resolvers). */
interface RestSelectors {
  getAnswer(path: string): unknown;
  getPage(path: string): unknown;
  receivedAt(kind: Kind, path: string): number | undefined;
  cachedPaths(): string[];
  getResolutionState(selector: string, args: unknown[]): Resolution | undefined;
}
interface RestActions {
  invalidateResolution(selector: string, args: unknown[]): void;
}

const LOADING: Load<never> = { state: 'loading' };

/**
 * The answer at `path` (null: nothing now). `page`: a paged collection (`CollectionPage`). `live`:
 * asked again every LIVE_REFRESH_MS while the tab is visible and when it is seen again, so a card
 * opened before something happened elsewhere (an address blocked, a site down) does not keep saying
 * the old thing.
 */
export function useRest<T>(path: string | null, options: { live?: boolean; page?: boolean } = {}): Loading<T> {
  const kind: Kind = options.page === true ? 'page' : 'json';
  const selector = SELECTOR[kind];
  const registry = useRegistry();
  const load = useSelect(
    (select) => {
      if (path === null) return LOADING;
      const store = select(restStore) as unknown as RestSelectors;
      const value = store[selector](path);
      const resolution = store.getResolutionState(selector, [path]);
      if (resolution?.status === 'error') {
        const error = resolution.error instanceof ApiError ? resolution.error : toApiError(resolution.error);
        return { state: 'error', error } as Load<T>;
      }
      return value === undefined ? LOADING : ({ state: 'ok', data: value as T } as Load<T>);
    },
    [path, selector],
  );
  const reload = useCallback(() => {
    if (path !== null) (registry.dispatch(restStore) as unknown as RestActions).invalidateResolution(selector, [path]);
  }, [registry, path, selector]);

  // Shown from the cache at once, and asked again when that answer is not fresh.
  useEffect(() => {
    if (path === null) return;
    const at = (registry.select(restStore) as unknown as RestSelectors).receivedAt(kind, path);
    if (at !== undefined && Date.now() - at > FRESH_MS) reload();
  }, [registry, kind, path, reload]);

  const wantsLive = options.live === true && path !== null;
  useEffect(() => {
    if (!wantsLive) return;
    const seen = () => {
      if (document.visibilityState === 'visible') reload();
    };
    const timer = window.setInterval(seen, LIVE_REFRESH_MS);
    document.addEventListener('visibilitychange', seen);
    window.addEventListener('focus', seen);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', seen);
      window.removeEventListener('focus', seen);
    };
  }, [wantsLive, reload]);
  return { ...load, reload };
}

/**
 * After a write: every cached answer whose path starts with one of `prefixes` is asked again
 * (those on screen at once, the others when next shown; each keeps showing its last answer meanwhile).
 */
export function useInvalidate(): (...prefixes: string[]) => void {
  const registry = useRegistry();
  return useCallback(
    (...prefixes: string[]) => {
      const select = registry.select(restStore) as unknown as RestSelectors;
      const dispatch = registry.dispatch(restStore) as unknown as RestActions;
      for (const key of select.cachedPaths()) {
        const { kind, path } = splitKey(key);
        if (prefixes.some((prefix) => path.startsWith(prefix))) dispatch.invalidateResolution(SELECTOR[kind], [path]);
      }
    },
    [registry],
  );
}

/** Two reads shown as one: loading while either is, failed when either failed (its error), else both answers. */
export function joined<A, B>(a: Loading<A>, b: Loading<B>): Loading<[A, B]> {
  const reload = () => {
    a.reload();
    b.reload();
  };
  if (a.state === 'error') return { state: 'error', error: a.error, reload };
  if (b.state === 'error') return { state: 'error', error: b.error, reload };
  if (a.state === 'loading' || b.state === 'loading') return { state: 'loading', reload };
  return { state: 'ok', data: [a.data, b.data], reload };
}
