// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ModulesScreen } from './Modules';
import { SiteProvider } from './site';
import {
  buttonNamed,
  fakeRoutes,
  fieldLabelled,
  initialState,
  moduleRecord,
  NoticeList,
  noticeTexts,
  refusal,
  render,
  settle,
  typeInto,
  type FakeRoute,
  type Rendered,
} from './testing/render';
import type { ModuleMap } from './types';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

const MODULES: ModuleMap = {
  protect: moduleRecord('protect', { activated: true, module_tags: ['Security'], description: 'Blocks login guessing.' }),
  monitor: moduleRecord('monitor', { module_tags: ['Security'], description: 'Checks the site is up.' }),
  sharedaddy: moduleRecord('sharedaddy', {
    name: 'Sharing',
    activated: true,
    module_tags: ['Social'],
    description: 'Sharing buttons.',
    options: {
      'sharing-label': { description: 'sharing-label', type: 'string', default: 'Share this:', current_value: 'Share this:' },
      'jetpack-twitter-cards-site-tag': { description: 'tag', type: 'string', default: '', current_value: '' },
    },
    option_texts: {
      'sharing-label': { label: 'Label above the buttons', help: '', rule: 'Any text.' },
      'jetpack-twitter-cards-site-tag': { label: 'X username of the site', help: '', rule: 'A username: letters, digits and _.' },
    },
  }),
  videopress: moduleRecord('videopress', {
    available: false,
    unavailable_reason: { code: 'not_configured', message: 'Set SITEWARD_VIDEO_URL to use it.', settings: ['SITEWARD_VIDEO_URL'] },
  }),
};

async function screen(routes: Record<string, FakeRoute> = {}, slug?: string) {
  const calls = fakeRoutes(routes);
  page = await render(
    <SiteProvider initial={initialState({ getModules: MODULES })}>
      <NoticeList />
      <ModulesScreen slug={slug} />
    </SiteProvider>,
  );
  await settle();
  const root = page.container;
  return {
    calls,
    root,
    names: () => [...root.querySelectorAll('.sw-module-name')].map((h) => h.firstChild?.textContent?.trim()),
    toggle: (slug: string) =>
      root.querySelector<HTMLInputElement>(`[data-testid="toggle-${slug}"] input, input[data-testid="toggle-${slug}"]`)!,
  };
}

describe('the Modules screen', () => {
  it('lists every module and narrows the list by search and by tag', async () => {
    const s = await screen();
    expect(s.names()).toEqual(['Protect', 'Monitor', 'Sharing', 'Videopress']);
    typeInto(s.root.querySelector('input[type="search"]')!, 'guessing');
    await settle();
    expect(s.names()).toEqual(['Protect']);
    expect(s.root.textContent).toContain('1 of 4 modules');
    typeInto(s.root.querySelector('input[type="search"]')!, '');
    typeInto(fieldLabelled('Tag', s.root), 'Social');
    await settle();
    expect(s.names()).toEqual(['Sharing']);
  });

  it('turns a module on at once and keeps it on when the API agrees', async () => {
    const s = await screen({ 'PUT /jetpack/v4/module/monitor/active': () => ({ code: 'success' }) });
    await settle(() => s.toggle('monitor').click());
    expect(s.calls).toContain('PUT /jetpack/v4/module/monitor/active');
    expect(s.toggle('monitor').checked).toBe(true);
    expect(noticeTexts()).toEqual([]);
  });

  it('puts the switch back and says why when the API refuses', async () => {
    const s = await screen({
      'PUT /jetpack/v4/module/protect/active': () => refusal('siteward_store_unavailable', 'The store is unavailable.', 503),
    });
    await settle(() => s.toggle('protect').click());
    expect(s.toggle('protect').checked).toBe(true);
    expect(noticeTexts()).toEqual(['Protect could not be turned off: The store is unavailable.']);
  });

  it('offers no switch that cannot work: an unavailable module’s is disabled, with the reason', async () => {
    const s = await screen();
    expect(s.toggle('videopress').disabled).toBe(true);
    expect(s.root.querySelector('[data-testid="module-videopress"]')?.textContent).toContain(
      'Unavailable: Set SITEWARD_VIDEO_URL to use it.',
    );
  });

  it('saves only the options changed, and shows a refused option’s rule under its field', async () => {
    let sent: unknown;
    const s = await screen(
      {
        'PUT /jetpack/v4/module/sharedaddy': (options) => {
          sent = options.data;
          return refusal('rest_invalid_param', 'Invalid parameter(s): jetpack-twitter-cards-site-tag', 400).catch((e: { data: object }) =>
            Promise.reject({
              ...e,
              data: { ...e.data, params: { 'jetpack-twitter-cards-site-tag': 'jetpack-twitter-cards-site-tag must be…' } },
            }),
          );
        },
      },
      'sharedaddy',
    );
    typeInto(fieldLabelled('X username of the site', s.root), 'not a name!');
    await settle(() => buttonNamed('Save settings', s.root)!.click());
    expect(sent).toEqual({ 'jetpack-twitter-cards-site-tag': 'not a name!' });
    expect(s.root.textContent).toContain('A username: letters, digits and _.');
    expect(s.root.textContent).not.toContain('must be…');
  });
});
