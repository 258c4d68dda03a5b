// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { SiteProvider } from '../site';
import {
  buttonNamed,
  fakeRoutes,
  fieldLabelled,
  initialState,
  moduleRecord,
  NoticeList,
  noticeTexts,
  render,
  settle,
  typeInto,
  type FakeRoute,
  type Rendered,
} from '../testing/render';
import type { MonitorCheck, MonitorCheckHistory, MonitorOverview } from '../types';
import { MonitorScreen } from './MonitorScreen';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

function check(id: number, extra: Partial<MonitorCheck> = {}): MonitorCheck {
  return {
    id,
    site: id === 1,
    url: id === 1 ? 'https://example.org/' : `https://example.org/api/${id}`,
    state: 'up',
    downSince: null,
    maintenance: false,
    expectedStatus: '',
    keyword: null,
    keywordAbsent: false,
    slowMs: null,
    lastError: null,
    lastResponseMs: 120,
    uptime: { '24h': 100, '7d': 99.5, '30d': 99.95, '365d': null },
    certificate: null,
    hosts: [],
    ...extra,
  };
}

function overview(checks: MonitorCheck[]): MonitorOverview {
  return {
    active: true,
    now: '2026-12-01T10:00:00Z',
    timeZone: 'UTC',
    checks,
    maintenance: { current: null, windows: [] },
    notifications: { administrators: null, emails: [], repeatMinutes: 0, email: false, webhook: false },
    administrators: [{ id: 1, name: 'admin' }],
  };
}

const history = (id: number): MonitorCheckHistory => ({
  check: id,
  days: 1,
  bucketSeconds: 300,
  points: [
    { at: '2026-12-01T09:00:00Z', ms: 100, checks: 1, down: 0, slow: 0 },
    { at: '2026-12-01T09:05:00Z', ms: 300, checks: 1, down: 1, slow: 0 },
  ],
  downtimes: [{ start: '2026-12-01T09:05:00Z', end: '2026-12-01T09:10:00Z', duration: 300, reason: 'HTTP 503' }],
  noData: [],
  monitoredSince: '2026-12-01T00:00:00Z',
});

async function screen(routes: Record<string, FakeRoute>, monitorOn = true) {
  const calls = fakeRoutes(routes);
  page = await render(
    <SiteProvider initial={initialState({ getModules: { monitor: moduleRecord('monitor', { activated: monitorOn }) } })}>
      <NoticeList />
      <MonitorScreen />
    </SiteProvider>,
  );
  await settle();
  const root = page.container;
  return {
    calls,
    root,
    text: () => root.textContent ?? '',
    card: (id: number) => root.querySelector(`[data-testid="monitor-check-${id}"]`),
  };
}

describe('the Monitor screen', () => {
  it('says Monitor is off and how to turn it on, without asking the API', async () => {
    const s = await screen({}, false);
    expect(s.root.querySelector('[data-testid="monitor-off"]')?.textContent).toContain('Monitor is off.');
    expect(s.calls).toEqual([]);
  });

  it('shows each check with its state, uptimes and why it is down, and the first check’s history', async () => {
    const down = check(2, { state: 'down', downSince: '2026-12-01T09:30:00Z', lastError: 'HTTP 503 at 2026-12-01T09:30:00Z' });
    const s = await screen({
      'GET /siteward/v1/monitor': () => overview([check(1), down]),
      'GET /siteward/v1/monitor/checks/1/history': () => history(1),
    });
    expect(s.card(1)?.querySelector('[data-testid="monitor-state"]')?.textContent).toBe('Up');
    expect(s.card(1)?.querySelector('[data-testid="monitor-uptime"]')?.textContent).toContain('99.95 %');
    expect(s.card(1)?.querySelector('[data-testid="monitor-uptime"]')?.textContent).toContain('—');
    expect(s.card(2)?.querySelector('[data-testid="monitor-state"]')?.textContent).toBe('Down');
    // The reason's ISO time is shown as a date, not as the wire's text.
    expect(s.card(2)?.querySelector('[data-testid="monitor-down-since"]')?.textContent).not.toContain('T09:30:00Z');
    expect(s.root.querySelector('[data-testid="monitor-chart"]')?.getAttribute('aria-label')).toBe(
      'Response time: average 200 ms, highest 300 ms, 1 failed check',
    );
    expect(s.root.querySelector('[data-testid="monitor-downtimes"]')?.textContent).toContain('HTTP 503');
  });

  it('shows another check’s history when asked', async () => {
    const s = await screen({
      'GET /siteward/v1/monitor': () => overview([check(1), check(2)]),
      'GET /siteward/v1/monitor/checks/1/history': () => history(1),
      'GET /siteward/v1/monitor/checks/2/history': () => ({ ...history(2), points: [], downtimes: [] }),
    });
    await settle(() => buttonNamed('Show history', s.card(2)!)!.click());
    expect(s.calls).toContain('GET /siteward/v1/monitor/checks/2/history?days=1');
    expect(s.root.querySelector('[data-testid="monitor-chart"]')?.textContent).toBe('No response times in this period yet.');
    expect(s.root.querySelector('[data-testid="monitor-downtimes"]')?.textContent).toBe('No downtime in this period.');
  });

  it('removes a check, says so and reads the checks again', async () => {
    let checks = [check(1), check(2)];
    const s = await screen({
      'GET /siteward/v1/monitor': () => overview(checks),
      'GET /siteward/v1/monitor/checks/1/history': () => history(1),
      'DELETE /siteward/v1/monitor/checks/2': () => {
        checks = [check(1)];
        return { deleted: true };
      },
    });
    expect(buttonNamed('Remove', s.card(1)!)).toBeUndefined();
    await settle(() => buttonNamed('Remove', s.card(2)!)!.click());
    expect(noticeTexts()).toEqual(['https://example.org/api/2 is no longer checked.']);
    expect(s.card(2)).toBeNull();
  });

  it('adds a weekly maintenance window with the fields typed', async () => {
    let posted: unknown;
    const s = await screen({
      'GET /siteward/v1/monitor': () => overview([check(1)]),
      'GET /siteward/v1/monitor/checks/1/history': () => history(1),
      'POST /siteward/v1/monitor/maintenance': (options) => {
        posted = options.data;
        return { id: 1 };
      },
    });
    typeInto(fieldLabelled('Repeats', s.root), 'weekly');
    await settle();
    typeInto(fieldLabelled('At (HH:MM)', s.root), '04:30');
    typeInto(fieldLabelled('Note', s.root), 'updates');
    await settle(() => buttonNamed('Add window', s.root)!.click());
    expect(posted).toEqual({ kind: 'weekly', note: 'updates', days: [0], time: '04:30', durationMinutes: 60 });
    expect(noticeTexts()).toEqual(['The maintenance window is saved.']);
  });
});
