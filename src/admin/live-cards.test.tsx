// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dashboard } from './Dashboard';
import { LIVE_REFRESH_MS } from './data/use-rest';
import { SiteProvider } from './site';
import { fakeApi, initialState, moduleRecord, render, settle, type Rendered } from './testing/render';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
  vi.useRealTimers();
});

/** At a Glance with Protect on, over an API whose blocked total is whatever `total.value` is when asked. */
async function glanceWithProtect(total: { value: number }) {
  const asked: string[] = [];
  fakeApi(async (options) => {
    const path = String(options.path ?? '');
    asked.push(path);
    if (path.startsWith('/siteward/v1/protect/history')) return { days: 30, timezone: 'UTC', total: total.value, history: [] };
    return new Promise(() => undefined);
  });
  page = await render(
    <SiteProvider initial={initialState({ getModules: { protect: moduleRecord('protect', { activated: true }) } })}>
      <Dashboard />
    </SiteProvider>,
  );
  await settle();
  const shown = () => page?.container.querySelector('[data-testid="protect-total"]')?.textContent;
  return { shown, asked };
}

describe('At a Glance’s cards follow what happens after the page opened', () => {
  it('shows the new blocked total when the tab is seen again, without a reload', async () => {
    const total = { value: 0 };
    const { shown } = await glanceWithProtect(total);
    expect(shown()).toBe('0');
    total.value = 9; // blocks happened meanwhile, elsewhere
    await settle(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(shown()).toBe('9');
  });

  it('asks again on its own while the tab stays visible, keeping the old figure on screen meanwhile', async () => {
    // Only the intervals: the store's resolvers start on a zero timeout (testing/render.tsx).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const total = { value: 3 };
    const { shown, asked } = await glanceWithProtect(total);
    expect(shown()).toBe('3');
    const before = asked.filter((p) => p.includes('protect/history')).length;
    total.value = 4;
    await settle(() => vi.advanceTimersByTime(LIVE_REFRESH_MS - 1));
    expect(shown()).toBe('3');
    await settle(() => vi.advanceTimersByTime(1));
    expect(asked.filter((p) => p.includes('protect/history')).length).toBe(before + 1);
    expect(shown()).toBe('4');
  });
});
