// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from './Dashboard';
import type * as siteModule from './site';
import { SiteProvider, useModuleActions, useNotices, useNotify, type ModuleActions, type NoticeActions } from './site';
import { fakeApi, initialState, moduleRecord, render, settle, type Rendered } from './testing/render';

/**
 * Which components render, counted where they read the page's state: every read of a data
 * context is one render of a component (a card, or the notice list). React's Profiler does not
 * report renders started by a context deep in its tree, so it cannot be the counter.
 */
const reads = vi.hoisted(() => new Map<string, number>());
vi.mock('./site', async (original) => {
  const site = await original<typeof siteModule>();
  const counted =
    <T,>(name: string, hook: () => T) =>
    () => {
      reads.set(name, (reads.get(name) ?? 0) + 1);
      return hook();
    };
  return {
    ...site,
    useModules: counted('modules', site.useModules),
    useConnection: counted('connection', site.useConnection),
    usePageChoices: counted('choices', site.usePageChoices),
    useNotices: counted('notices', site.useNotices),
  };
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
    handles.notices = useNotify();
    handles.modules = useModuleActions();
    return null;
  }
  function NoticeList() {
    return (
      <ul data-testid="notices">
        {useNotices().map((n) => (
          <li key={n.id}>{n.text}</li>
        ))}
      </ul>
    );
  }
  page = await render(
    <SiteProvider initial={initialState()}>
      <Handles />
      <NoticeList />
      <Dashboard />
    </SiteProvider>,
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
});
