// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as dashboardModule from './Dashboard';
import type * as siteModule from './site';
import type { ModuleActions, NoticeActions } from './site';
import { useRest } from './data/use-rest';
import { fakeApi, fakeRoutes, initialState, moduleRecord, render, settle, type Rendered } from './testing/render';
import type { ModuleMap } from './types';

/**
 * Which components render, counted where they read the page's state: every read of a data
 * context is one render of a component (a card, or the notice list). React's Profiler does not
 * report renders started by a context deep in its tree, so it cannot be the counter.
 * The unit project shares modules between files (`isolate: false`): the counting `./site` is
 * imported fresh here (vi.resetModules + doMock), and the shared one is put back afterwards.
 */
const reads = new Map<string, number>();
let site: typeof siteModule;
let Dashboard: typeof dashboardModule.Dashboard;

beforeAll(async () => {
  vi.resetModules();
  vi.doMock('./site', async (original) => {
    const real = await original<typeof siteModule>();
    const counted =
      <T,>(name: string, hook: () => T) =>
      () => {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return hook();
      };
    return {
      ...real,
      useModules: counted('modules', real.useModules),
      useConnection: counted('connection', real.useConnection),
      usePageChoices: counted('choices', real.usePageChoices),
      useNotices: counted('notices', real.useNotices),
    };
  });
  site = await import('./site');
  ({ Dashboard } = await import('./Dashboard'));
});
afterAll(() => {
  vi.doUnmock('./site');
  vi.resetModules();
});

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

/** Renders At a Glance beside a notice list, counting the commits of the cards. */
async function glance() {
  fakeApi();
  const handles: { notices?: NoticeActions; modules?: ModuleActions } = {};
  function Handles() {
    handles.notices = site.useNotify();
    handles.modules = site.useModuleActions();
    return null;
  }
  function NoticeList() {
    return (
      <ul data-testid="notices">
        {site.useNotices().map((n) => (
          <li key={n.id}>{n.text}</li>
        ))}
      </ul>
    );
  }
  page = await render(
    <site.SiteProvider initial={initialState()}>
      <Handles />
      <NoticeList />
      <Dashboard />
    </site.SiteProvider>,
  );
  return { notices: handles.notices!, modules: handles.modules!, container: page.container };
}

describe('the admin page’s shared state', () => {
  it('shows a notice without re-rendering any card of At a Glance', async () => {
    const { notices, container } = await glance();
    expect(container.querySelector('#card-connection')).not.toBeNull();
    expect(reads.get('modules')).toBeGreaterThan(0);
    reads.clear();
    await settle(() => notices.notify({ status: 'success', text: 'Saved.' }));
    await settle(() => notices.notify({ status: 'error', text: 'Not saved.' }));
    expect(container.querySelector('[data-testid="notices"]')?.textContent).toBe('Saved.Not saved.');
    // The notice list rendered twice; no card did.
    expect(Object.fromEntries(reads)).toEqual({ notices: 2 });
  });

  it('re-renders the cards that read modules when modules change (the counter counts)', async () => {
    const { modules, container } = await glance();
    reads.clear();
    await settle(() => modules.setModules((m) => ({ ...m, protect: moduleRecord('protect', { available: false }) })));
    expect(reads.get('modules')).toBeGreaterThan(0);
    expect(container.querySelector('#card-protect')?.textContent).toContain('Needs a connection');
  });

  it('lets a notice of a topic replace the older one of the same topic, and keeps the others', async () => {
    const { notices, container } = await glance();
    await settle(() => notices.notify({ status: 'success', text: 'Saved.' }));
    await settle(() => notices.notify({ status: 'success', text: 'Your account is linked.', topic: 'connection' }));
    await settle(() => notices.notify({ status: 'success', text: 'Your account is unlinked.', topic: 'connection' }));
    expect(container.querySelector('[data-testid="notices"]')?.textContent).toBe('Saved.Your account is unlinked.');
  });

  it('keeps modules in the REST store: a screen reading module/all sees Initial_State without a request, and a toggle at once', async () => {
    const calls = fakeRoutes({ 'PUT /jetpack/v4/module/protect/active': () => ({ code: 'success' }) });
    const handles: { modules?: ModuleActions } = {};
    function Handles() {
      handles.modules = site.useModuleActions();
      return null;
    }
    function ProtectState() {
      const all = useRest<ModuleMap>('/jetpack/v4/module/all');
      return <p data-testid="protect">{all.state === 'ok' ? String(all.data.protect?.activated) : all.state}</p>;
    }
    page = await render(
      <site.SiteProvider initial={initialState({ getModules: { protect: moduleRecord('protect', { activated: false }) } })}>
        <Handles />
        <ProtectState />
      </site.SiteProvider>,
    );
    const shown = () => page!.container.querySelector('[data-testid="protect"]')?.textContent;
    expect(shown()).toBe('false');
    await settle(() => handles.modules!.toggleModule('protect', true));
    expect(shown()).toBe('true');
    // Seeded from Initial_State, changed in place: module/all itself was never asked for.
    expect(calls).toEqual(['PUT /jetpack/v4/module/protect/active']);
  });
});
