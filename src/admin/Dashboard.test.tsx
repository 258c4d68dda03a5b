// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../wire/audit';
import { Dashboard } from './Dashboard';
import { SiteProvider } from './site';
import {
  buttonNamed,
  fakeRoutes,
  initialState,
  moduleRecord,
  pageAnswer,
  refusal,
  render,
  settle,
  type FakeRoute,
  type Rendered,
} from './testing/render';
import type { CurrentUser } from './types';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

const NO_ROUTE = () => refusal('rest_no_route', 'No route was found matching the URL and request method.', 404);

const EVENT: AuditEvent = {
  id: 41,
  time: Date.UTC(2026, 11, 1, 10),
  action: 'module.deactivated',
  result: 'ok',
  actor: { kind: 'user', user_id: 1, login: 'admin', credential: { type: 'session', token_hash: 'ab' } },
  client_ip: '',
  user_agent: '',
  request_id: '',
  object: { type: 'module', id: 'protect', name: 'Protect' },
  host_id: 'web-1',
  changes: {},
};

const ROUTES: Record<string, FakeRoute> = {
  'GET /jetpack/v4/site': () => ({ data: JSON.stringify({ plan: { product_name_short: 'Free' } }) }),
  'GET /siteward/v1/protect/history': () => ({ days: 30, timezone: 'UTC', total: 12, history: [] }),
  'GET /jetpack/v4/module/monitor/data': () => ({ date: null }),
  'GET /siteward/v1/monitor/history': () => ({
    days: 30,
    checks: [{ id: 1, site: true, url: 'https://example.org/', state: 'up', downSince: null, maintenance: false }],
    intervals: [],
    noData: [],
    monitoredSince: null,
  }),
  'GET /jetpack/v4/module/vaultpress/data': () => ({
    code: 'success',
    message: 'Your site is backed up.',
    data: { backups: { count: 3 } },
  }),
  'GET /jetpack/v4/akismet/stats/get': () => 'not_installed',
  'GET /jetpack/v4/updates/plugins': () => ({ code: 'updates-available', count: 2 }),
  'GET /siteward/v1/audit': () => pageAnswer([EVENT]),
  'GET /siteward/v1/agent-clients': () => [],
};

async function glance(routes: Record<string, FakeRoute> = {}, currentUser?: CurrentUser) {
  const calls = fakeRoutes({ ...ROUTES, ...routes });
  page = await render(
    <SiteProvider
      initial={initialState({
        getModules: { protect: moduleRecord('protect', { activated: true }), monitor: moduleRecord('monitor', { activated: true }) },
        ...(currentUser ? { userData: { currentUser } } : {}),
      })}
    >
      <Dashboard />
    </SiteProvider>,
  );
  await settle();
  const root = page.container;
  return { calls, root, card: (id: string) => root.querySelector(`#card-${id}`)?.textContent ?? null };
}

describe('At a Glance', () => {
  it('shows every card from its own answer', async () => {
    const g = await glance();
    expect(g.card('connection')).toContain('The site is connected. Plan: Free.');
    expect(g.card('protect')).toContain('12');
    expect(g.card('monitor')).toContain('Monitor is watching your site; no downtime recorded.');
    expect(g.card('backups')).toContain('Your site is backed up.');
    expect(g.card('backups')).toContain('Backups kept: 3');
    expect(g.card('spam')).toContain('no anti-spam key is set on this server');
    expect(g.card('updates')).toContain('2 plugins need updating.');
    expect(g.card('agent-clients')).toContain('No agent has signed in yet.');
  });

  it('shows the last five events as sentences linking to each, and the way to the Activity screen', async () => {
    const g = await glance();
    expect(g.calls).toContain('GET /siteward/v1/audit?per_page=5');
    const links = [...g.root.querySelectorAll('#card-activity a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['admin switched off Protect', '#/activity/41'],
      ['All activity', '#/activity'],
    ]);
  });

  it('says plainly what an older server does not offer, and shows no activity or agent card there', async () => {
    const g = await glance({
      'GET /jetpack/v4/module/vaultpress/data': NO_ROUTE,
      'GET /jetpack/v4/akismet/stats/get': NO_ROUTE,
      'GET /jetpack/v4/updates/plugins': NO_ROUTE,
      'GET /siteward/v1/audit': NO_ROUTE,
      'GET /siteward/v1/agent-clients': NO_ROUTE,
    });
    expect(g.card('backups')).toBe('BackupsBackup status is not available from this server yet.');
    expect(g.card('spam')).toBe('SpamSpam statistics are not available from this server yet.');
    expect(g.card('updates')).toBe('Plugin updatesPlugin update checks are not available from this server yet.');
    expect(g.card('activity')).toBeNull();
    expect(g.card('agent-clients')).toBeNull();
  });

  it('shows one card’s failure with Try again, leaving the others alone, and the card once it answers', async () => {
    let down = true;
    const g = await glance({
      'GET /jetpack/v4/updates/plugins': () =>
        down ? refusal('siteward_store_unavailable', 'The store is unavailable.', 503) : { code: 'success', count: 0 },
    });
    expect(g.card('updates')).toContain('The store is unavailable.');
    expect(g.card('protect')).toContain('12');
    down = false;
    await settle(() => buttonNamed('Try again', g.root.querySelector('#card-updates')!)!.click());
    expect(g.card('updates')).toContain('All plugins are up to date.');
  });

  it('offers an editor no activity or agent card, and asks for neither', async () => {
    const g = await glance(
      {},
      {
        isConnected: false,
        isMaster: false,
        username: 'ed',
        permissions: { connect: false, disconnect: false, manage_modules: false, manage_options: false },
      },
    );
    expect(g.card('activity')).toBeNull();
    expect(g.calls.filter((c) => c.includes('/audit') || c.includes('agent-clients'))).toEqual([]);
  });
});
