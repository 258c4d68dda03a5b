// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from './Dashboard';
import { ProtectScreen } from './Protect';
import { SiteProvider } from './site';
import {
  buttonNamed,
  fakeRoutes,
  initialState,
  moduleRecord,
  NoticeList,
  noticeTexts,
  pageAnswer,
  refusal,
  render,
  settle,
  type FakeRoute,
  type Rendered,
} from './testing/render';
import type { ProtectAttempt, ProtectBlock, ProtectNotificationsAnswer } from './types';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

function block(address: string, extra: Partial<ProtectBlock> = {}): ProtectBlock {
  return {
    address,
    last_address: address,
    active: true,
    level: 1,
    failures: 3,
    blocked_attempts: 0,
    usernames: ['admin'],
    first_attempt: '2026-12-01T09:00:00Z',
    last_attempt: '2026-12-01T09:01:00Z',
    blocked_at: '2026-12-01T09:01:00Z',
    blocked_until: '2026-12-01T10:01:00Z',
    lifted_at: null,
    lifted_by: null,
    ...extra,
  };
}

const NOTIFICATIONS: ProtectNotificationsAnswer = {
  administrators: [1],
  webhook: false,
  choices: [
    { id: 1, name: 'admin' },
    { id: 2, name: 'ops' },
  ],
  mail_configured: false,
  webhook_configured: false,
};

const ATTEMPTS: ProtectAttempt[] = [
  { at: '2026-12-01T09:00:00Z', address: '198.51.100.4', key: null, login: 'admin', outcome: 'failed', failure: 'password' },
  { at: '2026-12-01T09:01:00Z', address: '198.51.100.4', key: null, login: '', outcome: 'refused', failure: null },
];

async function screen(routes: Record<string, FakeRoute>, withGlance = false) {
  const calls = fakeRoutes({
    'GET /siteward/v1/protect/notifications': () => NOTIFICATIONS,
    'GET /siteward/v1/protect/attempts': () => pageAnswer(ATTEMPTS),
    ...routes,
  });
  page = await render(
    <SiteProvider initial={initialState({ getModules: { protect: moduleRecord('protect', { activated: true }) } })}>
      <NoticeList />
      <ProtectScreen />
      {withGlance && <Dashboard />}
    </SiteProvider>,
  );
  await settle();
  const root = page.container;
  return {
    calls,
    root,
    blocks: () => [...root.querySelectorAll('[data-testid="protect-block"]')].map((li) => li.textContent ?? ''),
    summary: () => root.querySelector('[data-testid="protect-summary"]')?.textContent,
  };
}

describe('the Protect screen', () => {
  it('lists the blocked addresses with failures, usernames tried and escalation', async () => {
    const s = await screen({
      'GET /siteward/v1/protect/blocks': () =>
        pageAnswer([block('203.0.113.9', { level: 2, blocked_attempts: 4 }), block('2001:db8:1:2::/64', { usernames: [] })]),
    });
    expect(s.summary()).toBe('2 addresses are blocked.');
    expect(s.blocks()[0]).toContain('Escalated');
    expect(s.blocks()[0]).toContain('3, then 4 attempts refused');
    expect(s.blocks()[1]).toContain('2001:db8:1:2::/64');
    expect(buttonNamed('Unblock all', s.root)).toBeDefined();
  });

  it('unblocks one address, says so, and the list and At a Glance’s figure follow', async () => {
    let blocked = [block('203.0.113.9')];
    let total = 7;
    const s = await screen(
      {
        'GET /siteward/v1/protect/blocks': () => pageAnswer(blocked),
        'DELETE /siteward/v1/protect/blocks/203.0.113.9': () => {
          blocked = [];
          total = 0;
          return { unblocked: ['203.0.113.9'] };
        },
        'GET /siteward/v1/protect/history': () => ({ days: 30, timezone: 'UTC', total, history: [] }),
      },
      true,
    );
    expect(s.root.querySelector('[data-testid="protect-total"]')?.textContent).toBe('7');
    await settle(() => buttonNamed('Unblock', s.root.querySelector('[data-testid="protect-block"]')!)!.click());
    expect(noticeTexts()).toEqual(['203.0.113.9 is unblocked: it may log in again.']);
    expect(s.summary()).toBe('No address is blocked.');
    expect(s.root.querySelector('[data-testid="protect-total"]')?.textContent).toBe('0');
  });

  it('shows recent blocks on demand, asking the API without the active filter', async () => {
    const s = await screen({
      'GET /siteward/v1/protect/blocks': (_, q) =>
        pageAnswer(
          q.get('active') === 'true' ? [] : [block('203.0.113.9', { active: false, lifted_at: '2026-12-01T09:30:00Z', lifted_by: 'cli' })],
        ),
    });
    expect(s.summary()).toBe('No address is blocked.');
    await settle(() => (s.root.querySelector('input[type="checkbox"]') as HTMLInputElement).click());
    expect(s.summary()).toBe('1 block, current or recent.');
    expect(s.blocks()[0]).toContain('by the command line');
  });

  it('names what each failed login got wrong', async () => {
    const s = await screen({ 'GET /siteward/v1/protect/blocks': () => pageAnswer([]) });
    const attempts = s.root.querySelector('[data-testid="protect-attempts"]')?.textContent ?? '';
    expect(attempts).toContain('wrong password');
    expect(attempts).toContain('refused: blocked');
  });

  it('shows the API’s refusal with Try again, and the list once it answers', async () => {
    let fail = true;
    const s = await screen({
      'GET /siteward/v1/protect/blocks': () =>
        fail ? refusal('siteward_store_unavailable', 'The store is unavailable.', 503) : pageAnswer([block('203.0.113.9')]),
    });
    expect(s.root.querySelector('[data-testid="protect-blocks"] [role="alert"]')?.textContent).toContain('The store is unavailable.');
    fail = false;
    await settle(() => buttonNamed('Try again', s.root.querySelector('[data-testid="protect-blocks"]')!)!.click());
    expect(s.summary()).toBe('1 address is blocked.');
  });
});
