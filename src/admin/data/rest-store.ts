/**
 * The admin page's one data layer: a `@wordpress/data` store of REST answers with core-data-style
 * resolvers (docs/architecture.md "The admin page's data"). Selecting `getAnswer(path)` (a JSON
 * answer) or `getPage(path)` (a paged collection with its X-WP-Total headers) fetches it the first
 * time through `api()`; every component that selects the same path shares the one request and the
 * one cached answer. A failed fetch is the resolution's error (`getResolutionState`). Invalidating
 * a resolution asks again while the last answer stays on screen.
 */
import { createReduxStore, createRegistry } from '@wordpress/data';
import { api, apiPage } from '../api';

/** What the store holds for one path: the answer and when it came (for revalidation on mount). */
export interface Answer {
  readonly value: unknown;
  readonly at: number;
}

export interface RestState {
  /** `json:<path>` or `page:<path>` → answer. */
  readonly answers: Readonly<Record<string, Answer>>;
}

export type Kind = 'json' | 'page';
export const SELECTOR: Record<Kind, 'getAnswer' | 'getPage'> = { json: 'getAnswer', page: 'getPage' };

const keyOf = (kind: Kind, path: string) => `${kind}:${path}`;

interface Receive {
  readonly type: 'RECEIVE';
  readonly key: string;
  readonly value: unknown;
  readonly at: number;
}

const actions = {
  receive: (kind: Kind, path: string, value: unknown, at: number): Receive => ({ type: 'RECEIVE', key: keyOf(kind, path), value, at }),
};

function reducer(state: RestState = { answers: {} }, action: Receive | { type: string }): RestState {
  if (action.type !== 'RECEIVE') return state;
  const { key, value, at } = action as Receive;
  return { answers: { ...state.answers, [key]: { value, at } } };
}

const selectors = {
  getAnswer: (state: RestState, path: string): unknown => state.answers[keyOf('json', path)]?.value,
  getPage: (state: RestState, path: string): unknown => state.answers[keyOf('page', path)]?.value,
  /** When the answer at `path` came (ms), or undefined. */
  receivedAt: (state: RestState, kind: Kind, path: string): number | undefined => state.answers[keyOf(kind, path)]?.at,
  /** The paths with an answer, per kind (what `invalidate(prefix)` walks). */
  cachedPaths: (state: RestState): string[] => Object.keys(state.answers),
};

type Thunk = (args: { dispatch: { receive: typeof actions.receive } }) => Promise<void>;

const resolvers = {
  getAnswer:
    (path: string): Thunk =>
    async ({ dispatch }) => {
      dispatch.receive('json', path, await api<unknown>(path), Date.now());
    },
  getPage:
    (path: string): Thunk =>
    async ({ dispatch }) => {
      dispatch.receive('page', path, await apiPage<unknown>(path), Date.now());
    },
};

export const restStore = createReduxStore('siteward/rest', { reducer, actions, selectors, resolvers });

/** A registry holding a fresh REST store: one per page (and one per unit test, so no answer leaks between tests). */
export function newRegistry(): ReturnType<typeof createRegistry> {
  const registry = createRegistry({});
  registry.register(restStore);
  return registry;
}

interface SeedActions {
  receive: typeof actions.receive;
  finishResolution(selector: string, args: unknown[]): void;
}

/**
 * Puts a JSON answer into the store as if it had been fetched: from the page's Initial_State
 * (no request at start) or after a local change the server has confirmed or is confirming
 * (an optimistic toggle). Marked resolved, so selecting it asks the API nothing until invalidated.
 */
export function putAnswer(registry: ReturnType<typeof createRegistry>, path: string, value: unknown): void {
  const dispatch = registry.dispatch(restStore) as unknown as SeedActions;
  dispatch.receive('json', path, value, Date.now());
  dispatch.finishResolution('getAnswer', [path]);
}

/** Splits a cached key back into its kind and path. */
export function splitKey(key: string): { kind: Kind; path: string } {
  const colon = key.indexOf(':');
  return { kind: key.slice(0, colon) as Kind, path: key.slice(colon + 1) };
}
