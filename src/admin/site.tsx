/**
 * The page's shared state: modules, connection, user, dismissed notices and the Jump Start
 * offer, first from Initial_State (no request), then kept in step with what the API answers.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { __, sprintf } from '@wordpress/i18n';
import { api, ApiError, jp, toApiError } from './api';
import type { ConnectionStatus, InitialState, ModuleMap, UserData } from './types';

export interface PageNotice {
  id: number;
  status: 'success' | 'error' | 'info' | 'warning';
  text: string;
  actions?: { label: string; onClick: () => void }[];
}

interface SiteValue {
  initial: InitialState;
  modules: ModuleMap;
  connection: ConnectionStatus;
  user: UserData;
  dismissed: Record<string, boolean>;
  showJumpstart: boolean;
  notices: PageNotice[];
  busy: ReadonlySet<string>;
  notify(notice: Omit<PageNotice, 'id'>): number;
  removeNotice(id: number): void;
  /** Optimistic: flips at once, rolls back with the API's message on failure. Resolves true on success. */
  toggleModule(slug: string, active: boolean): Promise<boolean>;
  setModules(update: (modules: ModuleMap) => ModuleMap): void;
  setDismissed(map: Record<string, boolean>): void;
  setShowJumpstart(show: boolean): void;
  /** Reads modules, connection and user again from the API. */
  refresh(): Promise<void>;
}

const SiteContext = createContext<SiteValue | null>(null);

export function useSite(): SiteValue {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite outside SiteProvider');
  return site;
}

const truthy = (v: unknown) => v === true || v === '1' || v === 1;

export function dismissedMap(value: unknown): Record<string, boolean> {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, boolean>) } : {};
}

export function errorText(error: unknown): string {
  return (error instanceof ApiError ? error : toApiError(error)).message;
}

export function SiteProvider({ initial, children }: { initial: InitialState; children: ReactNode }) {
  const [modules, setModulesState] = useState<ModuleMap>(initial.getModules ?? {});
  const [connection, setConnection] = useState<ConnectionStatus>(initial.connectionStatus);
  const [user, setUser] = useState<UserData>(initial.userData);
  const [dismissed, setDismissed] = useState<Record<string, boolean>>(dismissedMap(initial.dismissedNotices));
  const [showJumpstart, setShowJumpstart] = useState(truthy(initial.showJumpstart));
  const [notices, setNotices] = useState<PageNotice[]>([]);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const nextId = useRef(1);

  const notify = useCallback((notice: Omit<PageNotice, 'id'>) => {
    const id = nextId.current++;
    setNotices((list) => [...list.slice(-3), { ...notice, id }]);
    return id;
  }, []);
  const removeNotice = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  const setModules = useCallback((update: (m: ModuleMap) => ModuleMap) => setModulesState(update), []);

  const toggleModule = useCallback(
    async (slug: string, active: boolean) => {
      setBusy((b) => new Set(b).add(slug));
      setModulesState((m) => (m[slug] ? { ...m, [slug]: { ...m[slug], activated: active } } : m));
      try {
        await api(jp(`module/${slug}/active`), { method: 'PUT', data: { active } });
        return true;
      } catch (error) {
        setModulesState((m) => (m[slug] ? { ...m, [slug]: { ...m[slug], activated: !active } } : m));
        const name = modules[slug]?.name ?? slug;
        // translators: 1: a module's name, 2: why the server refused.
        const text = active ? __('%1$s could not be turned on: %2$s', 'siteward') : __('%1$s could not be turned off: %2$s', 'siteward');
        notify({ status: 'error', text: sprintf(text, name, errorText(error)) });
        return false;
      } finally {
        setBusy((b) => {
          const next = new Set(b);
          next.delete(slug);
          return next;
        });
      }
    },
    [modules, notify],
  );

  const refresh = useCallback(async () => {
    const [status, all, userData] = await Promise.all([
      api<ConnectionStatus>(jp('connection')),
      api<ModuleMap>(jp('module/all')),
      api<UserData>(jp('connection/data')).catch(() => null),
    ]);
    setConnection((c) => ({ ...c, ...status }));
    setModulesState(all);
    if (userData) setUser(userData);
  }, []);

  const value = useMemo<SiteValue>(
    () => ({ initial, modules, connection, user, dismissed, showJumpstart, notices, busy, notify, removeNotice, toggleModule, setModules, setDismissed, setShowJumpstart, refresh }),
    [initial, modules, connection, user, dismissed, showJumpstart, notices, busy, notify, removeNotice, toggleModule, setModules, refresh],
  );
  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}
