/**
 * The page's shared state: modules, connection and user (held in the REST store, the admin
 * app's one data layer), dismissed notices and the Jump Start offer, first from Initial_State
 * (no request), then kept in step with what the API answers.
 *
 * One context per kind of change, so a component re-renders only for what it reads: a notice
 * re-renders the notice area, not every card. The action contexts hold functions that never
 * change identity, so a component that only acts (notifies, toggles, refreshes) never
 * re-renders for the page's data. The provider holds the REST store's registry (data/rest-store.ts):
 * one per page, one per unit test.
 */
import { __, sprintf } from '@wordpress/i18n';
import { RegistryProvider, useRegistry, useSelect } from '@wordpress/data';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, ApiError, jp, toApiError } from './api';
import { newRegistry, putAnswer, restStore } from './data/rest-store';
import type { ConnectionStatus, InitialState, ModuleMap, UserData } from './types';

export interface PageNotice {
  id: number;
  status: 'success' | 'error' | 'info' | 'warning';
  text: string;
  actions?: { label: string; onClick: () => void }[];
  /** Notices of one topic replace each other (e.g. `connection`): an older one stops being true. */
  topic?: string;
}

export interface NoticeActions {
  /** Shows a notice; one with a `topic` replaces the notices of that topic. */
  notify(notice: Omit<PageNotice, 'id'>): number;
  removeNotice(id: number): void;
}

export interface ModulesValue {
  modules: ModuleMap;
  /** Slugs whose toggle is on its way to the API. */
  busy: ReadonlySet<string>;
}

export interface ModuleActions {
  /** Optimistic: flips at once, rolls back with the API's message on failure. Resolves true on success. */
  toggleModule(slug: string, active: boolean): Promise<boolean>;
  setModules(update: (modules: ModuleMap) => ModuleMap): void;
}

export interface ConnectionValue {
  connection: ConnectionStatus;
  user: UserData;
  /** False when no account service is configured (SITEWARD_ACCOUNTS_ISSUER): connecting cannot work. */
  accountService: boolean;
}

export interface PageChoices {
  dismissed: Record<string, boolean>;
  showJumpstart: boolean;
}

export interface SiteActions {
  /** Reads modules, connection and user again from the API. */
  refresh(): Promise<void>;
  setDismissed(map: Record<string, boolean>): void;
  setShowJumpstart(show: boolean): void;
}

const NoticeListContext = createContext<readonly PageNotice[] | null>(null);
const NoticeActionsContext = createContext<NoticeActions | null>(null);
const ModulesContext = createContext<ModulesValue | null>(null);
const ModuleActionsContext = createContext<ModuleActions | null>(null);
const ConnectionContext = createContext<ConnectionValue | null>(null);
const ChoicesContext = createContext<PageChoices | null>(null);
const SiteActionsContext = createContext<SiteActions | null>(null);

function provided<T>(value: T | null, name: string): T {
  if (value === null) throw new Error(`${name} outside SiteProvider`);
  return value;
}

/** The notices shown at the top of the page (only the notice area reads them). */
export const useNotices = () => provided(useContext(NoticeListContext), 'useNotices');
export const useNotify = () => provided(useContext(NoticeActionsContext), 'useNotify');
export const useModules = () => provided(useContext(ModulesContext), 'useModules');
export const useModuleActions = () => provided(useContext(ModuleActionsContext), 'useModuleActions');
export const useConnection = () => provided(useContext(ConnectionContext), 'useConnection');
export const usePageChoices = () => provided(useContext(ChoicesContext), 'usePageChoices');
export const useSiteActions = () => provided(useContext(SiteActionsContext), 'useSiteActions');

const truthy = (v: unknown) => v === true || v === '1' || v === 1;

export function dismissedMap(value: unknown): Record<string, boolean> {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, boolean>) } : {};
}

export function errorText(error: unknown): string {
  return (error instanceof ApiError ? error : toApiError(error)).message;
}

/** Where the page's modules, connection and user live in the REST store (data/rest-store.ts). */
const MODULES = jp('module/all');
const CONNECTION = jp('connection');
const USER = jp('connection/data');

/**
 * `serverNotice`: what the server said after a round trip to the account service (`?connection=`),
 * shown as the first notice of its topic, so that a later connection notice replaces it.
 *
 * Modules, connection and user are answers of the REST store like any screen's: seeded from
 * Initial_State (so nothing is asked at start), changed through it (an optimistic toggle puts the
 * flipped list, a refresh puts what the API answered), and read from it. A screen that reads
 * `module/all` itself sees the same list. The contexts below only carry them to the cards, one
 * context per kind of change.
 */
export function SiteProvider({
  initial,
  serverNotice = null,
  children,
}: {
  initial: InitialState;
  serverNotice?: Omit<PageNotice, 'id'> | null;
  children: ReactNode;
}) {
  const [registry] = useState(() => {
    const fresh = newRegistry();
    putAnswer(fresh, MODULES, initial.getModules);
    putAnswer(fresh, CONNECTION, initial.connectionStatus);
    putAnswer(fresh, USER, initial.userData);
    return fresh;
  });
  return (
    <RegistryProvider value={registry}>
      <SiteState initial={initial} serverNotice={serverNotice}>
        {children}
      </SiteState>
    </RegistryProvider>
  );
}

interface SiteSelectors {
  getAnswer(path: string): unknown;
}

function SiteState({
  initial,
  serverNotice,
  children,
}: {
  initial: InitialState;
  serverNotice: Omit<PageNotice, 'id'> | null;
  children: ReactNode;
}) {
  const registry = useRegistry();
  const { modules, connection, user } = useSelect((select) => {
    const store = select(restStore) as unknown as SiteSelectors;
    return {
      modules: store.getAnswer(MODULES) as ModuleMap,
      connection: store.getAnswer(CONNECTION) as ConnectionStatus,
      user: store.getAnswer(USER) as UserData,
    };
  }, []);
  const [dismissed, setDismissed] = useState<Record<string, boolean>>(dismissedMap(initial.dismissedNotices));
  const [showJumpstart, setShowJumpstart] = useState(truthy(initial.showJumpstart));
  const [notices, setNotices] = useState<readonly PageNotice[]>(serverNotice ? [{ ...serverNotice, id: 0 }] : []);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const nextId = useRef(1);

  /** The module list as the store holds it now, changed by `update` (the store keeps one list). */
  const updateModules = useCallback(
    (update: (modules: ModuleMap) => ModuleMap) => {
      const now = (registry.select(restStore) as unknown as SiteSelectors).getAnswer(MODULES) as ModuleMap;
      putAnswer(registry, MODULES, update(now));
    },
    [registry],
  );

  const noticeActions = useMemo<NoticeActions>(
    () => ({
      notify(notice) {
        const id = nextId.current++;
        setNotices((list) => [...list.filter((n) => notice.topic === undefined || n.topic !== notice.topic).slice(-3), { ...notice, id }]);
        return id;
      },
      removeNotice: (id) => setNotices((list) => list.filter((n) => n.id !== id)),
    }),
    [],
  );
  const { notify } = noticeActions;

  const toggleModule = useCallback(
    async (slug: string, active: boolean) => {
      setBusy((b) => new Set(b).add(slug));
      updateModules((m) => (m[slug] ? { ...m, [slug]: { ...m[slug], activated: active } } : m));
      try {
        await api(jp(`module/${slug}/active`), { method: 'PUT', data: { active } });
        return true;
      } catch (error) {
        let name = slug;
        updateModules((m) => {
          name = m[slug]?.name ?? slug;
          return m[slug] ? { ...m, [slug]: { ...m[slug], activated: !active } } : m;
        });
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
    [notify, updateModules],
  );
  const moduleActions = useMemo<ModuleActions>(() => ({ toggleModule, setModules: updateModules }), [toggleModule, updateModules]);

  const siteActions = useMemo<SiteActions>(
    () => ({
      async refresh() {
        const [status, all, userData] = await Promise.all([
          api<ConnectionStatus>(CONNECTION),
          api<ModuleMap>(MODULES),
          api<UserData>(USER).catch(() => null),
        ]);
        const select = registry.select(restStore) as unknown as SiteSelectors;
        putAnswer(registry, CONNECTION, { ...(select.getAnswer(CONNECTION) as ConnectionStatus), ...status });
        putAnswer(registry, MODULES, all);
        if (userData) putAnswer(registry, USER, userData);
      },
      setDismissed,
      setShowJumpstart,
    }),
    [registry],
  );

  const modulesValue = useMemo<ModulesValue>(() => ({ modules, busy }), [modules, busy]);
  // Initial_State prints booleans as PHP's wp_localize_script does ("1" / ""); absent (another server): assumed configured.
  const accountService = initial.accountServiceConfigured === undefined || truthy(initial.accountServiceConfigured);
  const connectionValue = useMemo<ConnectionValue>(() => ({ connection, user, accountService }), [connection, user, accountService]);
  const choices = useMemo<PageChoices>(() => ({ dismissed, showJumpstart }), [dismissed, showJumpstart]);

  return (
    <NoticeActionsContext.Provider value={noticeActions}>
      <ModuleActionsContext.Provider value={moduleActions}>
        <SiteActionsContext.Provider value={siteActions}>
          <ConnectionContext.Provider value={connectionValue}>
            <ModulesContext.Provider value={modulesValue}>
              <ChoicesContext.Provider value={choices}>
                <NoticeListContext.Provider value={notices}>{children}</NoticeListContext.Provider>
              </ChoicesContext.Provider>
            </ModulesContext.Provider>
          </ConnectionContext.Provider>
        </SiteActionsContext.Provider>
      </ModuleActionsContext.Provider>
    </NoticeActionsContext.Provider>
  );
}
