/**
 * Rendering the admin app's pieces in a happy-dom unit test: a root in a fresh container, React's
 * act() environment, and api-fetch answered by a function instead of the network.
 */
import apiFetch, { type APIFetchOptions } from '@wordpress/api-fetch';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { vi } from 'vitest';
import { useNotices } from '../site';
import type { InitialState, ModuleRecord } from '../types';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What the fake API answers: a value, or a thrown `{code, message, data}` like api-fetch rejects with. */
export type FakeApi = (options: APIFetchOptions) => Promise<unknown>;

/** Every api-fetch call goes to `handler` (default: an answer that never comes, so cards stay loading). */
export function fakeApi(handler: FakeApi = () => new Promise(() => undefined)): void {
  apiFetch.setFetchHandler(handler);
}

export interface Rendered {
  container: HTMLElement;
  root: Root;
  unmount(): Promise<void>;
}

export async function render(node: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(node));
  for (let i = 0; i < 3; i++) await turn();
  return {
    container,
    root,
    async unmount() {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

const realSetTimeout = globalThis.setTimeout;

/**
 * One turn of the event loop inside act(): the REST store's resolvers start on a zero timeout. A
 * test that fakes timers should fake only the intervals (`toFake: ['setInterval', 'clearInterval']`):
 * fake-timers delays a zero timeout set while it ticks by 1 ms, which would move the clock.
 */
async function turn(): Promise<void> {
  await act(async () => {
    if (globalThis.setTimeout !== realSetTimeout) await vi.advanceTimersByTimeAsync(0);
    else await new Promise((resolve) => realSetTimeout(resolve, 0));
  });
}

/** Runs `action` inside act() and lets the effects, fetches and state updates it causes settle. */
export async function settle(action: () => unknown = () => undefined): Promise<void> {
  await act(async () => {
    await action();
  });
  for (let i = 0; i < 3; i++) await turn();
}

/** A module record with the fields the page reads. */
export function moduleRecord(slug: string, extra: Partial<ModuleRecord> = {}): ModuleRecord {
  return {
    module: slug,
    name: slug.charAt(0).toUpperCase() + slug.slice(1),
    description: `What ${slug} does.`,
    jumpstart_desc: '',
    sort: 1,
    recommendation_order: 1,
    introduced: '1.0',
    changed: '',
    deactivate: true,
    free: true,
    requires_connection: false,
    auto_activate: 'No',
    module_tags: [],
    feature: [],
    additional_search_queries: '',
    activated: false,
    deactivate_nonce: '',
    activate_nonce: '',
    available: true,
    short_description: `What ${slug} does.`,
    configure_url: `#/modules/${slug}`,
    learn_more_button: '',
    long_description: '',
    search_terms: '',
    configurable: false,
    options: null,
    runtime: 'siteward',
    unavailable_reason: null,
    option_texts: null,
    ...extra,
  };
}

/** An Initial_State of a connected site seen by an administrator (override what a test is about). */
export function initialState(extra: Partial<InitialState> = {}): InitialState {
  return {
    WP_API_root: '/wp-json/',
    WP_API_nonce: 'nonce',
    connectionStatus: { isActive: true, isStaging: false, devMode: { isActive: false, constant: false, url: false, filter: false } },
    dismissedNotices: [],
    getModules: { protect: moduleRecord('protect'), monitor: moduleRecord('monitor') },
    showJumpstart: false,
    userData: {
      currentUser: {
        isConnected: true,
        isMaster: true,
        username: 'admin',
        wpcomUser: { login: 'admin' },
        permissions: { connect: true, disconnect: true, manage_modules: true, manage_options: true },
      },
    },
    ...extra,
  };
}

/** An answer of the fake API: a value, or a rejection like api-fetch's (`{code, message, data}`). */
export type FakeRoute = (options: APIFetchOptions, query: URLSearchParams) => unknown;

/**
 * The API answers from `routes`, keyed `METHOD /path` (the path without its query, which the
 * route gets); anything else never answers. Returns the calls made, as `METHOD /path?query`.
 */
export function fakeRoutes(routes: Record<string, FakeRoute>): string[] {
  const calls: string[] = [];
  fakeApi(async (options) => {
    const full = (options.path ?? '').replace(/[?&]_locale=user/, '');
    const [path = '', search = ''] = full.split('?');
    // api-fetch sends PUT and DELETE as POST with X-HTTP-Method-Override (its httpV1 middleware).
    const override = (options.headers as Record<string, string> | undefined)?.['X-HTTP-Method-Override'];
    const method = override ?? options.method ?? 'GET';
    const key = `${method} ${path}`;
    calls.push(`${method} ${full}`);
    const route = routes[key];
    if (!route) return new Promise(() => undefined);
    return route(options, new URLSearchParams(search));
  });
  return calls;
}

/** A paged collection's answer as api-fetch gives it unparsed (apiPage reads X-WP-Total and X-WP-TotalPages). */
export function pageAnswer(items: unknown[], total = items.length, totalPages = 1): Response {
  return new Response(JSON.stringify(items), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) },
  });
}

/** A refusal as api-fetch rejects with it. */
export function refusal(code: string, message: string, status: number): Promise<never> {
  return Promise.reject({ code, message, data: { status } });
}

/** The first button whose text starts with `name` (a hidden suffix may follow), anywhere in the page or `within`. */
export function buttonNamed(name: string, within: ParentNode = document.body): HTMLButtonElement | undefined {
  return [...within.querySelectorAll('button')].find((b) => b.textContent?.startsWith(name));
}

/** The control whose label says `label`. */
export function fieldLabelled(label: string, within: ParentNode = document.body): HTMLInputElement | HTMLSelectElement {
  const l = [...within.querySelectorAll('label')].find((x) => x.textContent === label);
  if (!l) throw new Error(`no field labelled “${label}”`);
  return document.getElementById(l.htmlFor) as HTMLInputElement | HTMLSelectElement;
}

/** Sets a controlled field the way typing or choosing does (React listens to input/change events). */
export function typeInto(field: HTMLInputElement | HTMLSelectElement, value: string): void {
  const proto = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** The texts of the page's notices, as a list (render it beside the component under test). */
export function NoticeList() {
  return (
    <ul data-testid="notices">
      {useNotices().map((n) => (
        <li key={n.id}>{n.text}</li>
      ))}
    </ul>
  );
}

export const noticeTexts = (): (string | null)[] =>
  [...document.querySelectorAll('[data-testid="notices"] li')].map((li) => li.textContent);
