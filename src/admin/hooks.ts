import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'dashboard' }
  | { screen: 'modules'; slug?: string }
  | { screen: 'settings' }
  | { screen: 'monitor' }
  | { screen: 'backups' }
  | { screen: 'protect' }
  | { screen: 'two-factor' }
  | { screen: 'activity'; id?: number };

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'modules') return parts[1] ? { screen: 'modules', slug: decodeURIComponent(parts[1]) } : { screen: 'modules' };
  if (parts[0] === 'settings') return { screen: 'settings' };
  if (parts[0] === 'monitor') return { screen: 'monitor' };
  if (parts[0] === 'backups') return { screen: 'backups' };
  if (parts[0] === 'protect') return { screen: 'protect' };
  if (parts[0] === 'two-factor') return { screen: 'two-factor' };
  if (parts[0] === 'activity')
    return parts[1] && /^\d+$/.test(parts[1]) ? { screen: 'activity', id: Number(parts[1]) } : { screen: 'activity' };
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
