import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, toApiError } from './api';

export type Load<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; error: ApiError };

/** How often a live card asks again while its tab is visible (a tab that comes back asks at once). */
export const LIVE_REFRESH_MS = 30_000;

/**
 * Loads something when `key` changes (null: not now); `reload` asks again. With `live`, it also
 * asks again when the tab is seen again and every LIVE_REFRESH_MS while it is visible, keeping
 * the last answer on screen meanwhile: a card opened before something happened elsewhere (an
 * address blocked, a site down) must not keep saying the old thing until a reload.
 */
export function useLoad<T>(key: string | null, load: () => Promise<T>, options: { live?: boolean } = {}): Load<T> & { reload: () => void } {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  const shownKey = useRef<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    // A quiet refresh of the same thing keeps what is shown; a new key starts from "loading".
    if (shownKey.current !== key) setResult({ state: 'loading' });
    loader.current().then(
      (data) => {
        if (!live) return;
        shownKey.current = key;
        setResult({ state: 'ok', data });
      },
      (error: unknown) => live && setResult({ state: 'error', error: error instanceof ApiError ? error : toApiError(error) }),
    );
    return () => {
      live = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const wantsLive = options.live === true && key !== null;
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
  return { ...result, reload };
}

export type Route =
  | { screen: 'dashboard' }
  | { screen: 'modules'; slug?: string }
  | { screen: 'settings' }
  | { screen: 'monitor' }
  | { screen: 'backups' }
  | { screen: 'protect' }
  | { screen: 'two-factor' };

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'modules') return parts[1] ? { screen: 'modules', slug: decodeURIComponent(parts[1]) } : { screen: 'modules' };
  if (parts[0] === 'settings') return { screen: 'settings' };
  if (parts[0] === 'monitor') return { screen: 'monitor' };
  if (parts[0] === 'backups') return { screen: 'backups' };
  if (parts[0] === 'protect') return { screen: 'protect' };
  if (parts[0] === 'two-factor') return { screen: 'two-factor' };
  return { screen: 'dashboard' };
}

/** The hash route; follows back/forward and links. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
