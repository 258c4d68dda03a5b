// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../wire/audit';
import type { AuditCheckpointStatus } from '../../wire/audit-checkpoint';
import { SiteProvider } from '../site';
import {
  buttonNamed,
  fakeRoutes,
  fieldLabelled,
  initialState,
  pageAnswer,
  refusal,
  render,
  settle,
  typeInto as type,
  type FakeRoute,
  type Rendered,
} from '../testing/render';
import { ActivityScreen } from './ActivityScreen';
import type { ForwardingSink } from './ForwardingStatus';
import { dateTime } from '../ui/format';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

function event(id: number, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id,
    time: Date.UTC(2026, 11, 1, 10, id),
    action: 'module.deactivated',
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: 'admin', credential: { type: 'session', token_hash: 'ab12' } },
    client_ip: '203.0.113.7',
    user_agent: 'Firefox',
    request_id: `req-${id}`,
    object: { type: 'module', id: 'protect', name: 'Protect' },
    host_id: 'web-1',
    changes: { active: { before: true, after: false } },
    ...extra,
  };
}

const EVENTS: AuditEvent[] = [
  event(12, {
    action: 'user.role_changed',
    object: { type: 'user', id: '7', name: 'ed' },
    changes: { role: { before: 'editor', after: 'administrator' }, user_pass: { secret: true } },
  }),
  event(11, { action: 'app_password.created', result: 'denied', object: { type: 'app_password', id: 'u-1', name: 'deploy bot' } }),
  event(10),
  event(9, { action: 'module.activated', actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name: 'ops' } } }),
];

const SIGNED: AuditCheckpointStatus = {
  checkpoint: { last_id: 10, head_hash: 'ff'.repeat(32), count: 10, time: Date.UTC(2026, 11, 1, 11) },
  signature_valid: true,
};

/** A forwarding sink as the server answers it, healthy unless `extra` says otherwise. */
function sink(extra: Partial<ForwardingSink> = {}): ForwardingSink {
  return {
    sink: 'syslog',
    kind: 'syslog-tls',
    target: 'tls://logs.example.net:6514',
    backlog: 0,
    last_delivered_id: 12,
    last_error: null,
    last_error_at: null,
    last_success_at: '2026-12-01T10:12:30.000Z',
    next_attempt_at: null,
    failing_since: null,
    holds_retention: true,
    ...extra,
  };
}

async function screen(
  checkpoint: FakeRoute = () => SIGNED,
  list: FakeRoute = () => pageAnswer(EVENTS, 4, 1),
  forwarding: FakeRoute = () => new Promise(() => undefined),
) {
  const calls = fakeRoutes({
    'GET /siteward/v1/audit': list,
    'GET /siteward/v1/audit/checkpoint': checkpoint,
    'GET /siteward/v1/audit/forwarding': forwarding,
  });
  page = await render(
    <SiteProvider initial={initialState()}>
      <ActivityScreen />
    </SiteProvider>,
  );
  await settle();
  const root = page.container;
  return {
    calls,
    rows: () => [...root.querySelectorAll('[data-testid="activity-event"] .sw-activity-sentence')].map((e) => e.textContent),
    text: () => root.textContent ?? '',
    root,
    button: (name: string) => buttonNamed(name, root),
    field: (label: string) => fieldLabelled(label, root),
  };
}

describe('the Activity screen', () => {
  it('says each event as a sentence from its action, actor and object, with refusals marked', async () => {
    const s = await screen();
    expect(s.rows()).toEqual([
      'admin changed the role of ed',
      'admin created the application password deploy bot',
      'admin switched off Protect',
      'the command line switched on Protect',
    ]);
    expect(s.root.querySelectorAll('.sw-badge-down')).toHaveLength(1);
    expect(s.text()).toContain('4 events');
  });

  it('says how many more times an agent ran a readonly ability when its repeats were collapsed into one event', async () => {
    const run = (id: number, extra: Partial<AuditEvent> = {}) =>
      event(id, {
        action: 'ability.run',
        object: { type: 'ability', id: 'siteward/list-modules', name: 'siteward/list-modules' },
        changes: { input: { before: null, after: null }, via: { before: null, after: 'mcp' } },
        ...extra,
      });
    const s = await screen(undefined, () =>
      pageAnswer(
        [
          run(3, { count: 41, first_time: Date.UTC(2026, 11, 1, 10, 1), last_time: Date.UTC(2026, 11, 1, 10, 2) }),
          run(2, { count: 1 }),
          run(1),
        ],
        3,
        1,
      ),
    );
    expect(s.rows()).toEqual([
      'admin ran the ability siteward/list-modules 41 more times',
      'admin ran the ability siteward/list-modules 1 more time',
      'admin ran the ability siteward/list-modules',
    ]);
  });

  it('shows before and after of each field on demand, a secret only as "changed"', async () => {
    const s = await screen();
    await settle(() => s.button('Details')!.click());
    const rows = [...s.root.querySelectorAll('.sw-activity-changes tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['role', 'editor', 'administrator'],
      ['user_pass', 'changed (a secret: its values are never recorded)'],
    ]);
    expect(s.root.querySelector('[data-testid="activity-details"]')?.textContent).toContain('admin, with login session');
    expect(s.button('Hide details')!.getAttribute('aria-expanded')).toBe('true');
  });

  it('marks where the signed checkpoint starts in the list and says the signature holds', async () => {
    const s = await screen();
    const items = [...s.root.querySelectorAll('[data-testid="activity-list"] > li')].map((li) => li.getAttribute('data-testid'));
    expect(items).toEqual(['activity-event', 'activity-event', 'activity-signed-mark', 'activity-event', 'activity-event']);
    expect(s.root.querySelector('[data-testid="activity-checkpoint"]')?.textContent).toContain('Signed up to event #10');
  });

  it('warns, and marks nothing as signed, when the newest checkpoint’s signature does not hold', async () => {
    const s = await screen(() => ({ ...SIGNED, signature_valid: false }));
    expect(s.root.querySelector('[role="alert"]')?.textContent).toContain('does not carry this server’s signature');
    expect(s.root.querySelector('[data-testid="activity-signed-mark"]')).toBeNull();
  });

  it('shows the list without a mark on a server that has no checkpoint route', async () => {
    const s = await screen(() => refusal('rest_no_route', 'No route was found matching the URL and request method.', 404));
    expect(s.rows()).toHaveLength(4);
    expect(s.root.querySelector('[data-testid="activity-checkpoint"]')).toBeNull();
  });

  it('asks the API with the chosen filters: an action prefix, user, object, result, days and text', async () => {
    const s = await screen();
    type(s.field('Action'), 'user.');
    type(s.field('Result'), 'denied');
    type(s.field('User id'), '1');
    type(s.field('Object type (module, user…)'), 'user');
    type(s.field('Object id'), '7');
    type(s.field('Text in the event'), 'role');
    type(s.field('From (day)'), '2026-12-01');
    await settle(() => s.button('Filter')!.click());
    const asked = s.calls.filter((c) => c.startsWith('GET /siteward/v1/audit?')).at(-1)!;
    const query = new URLSearchParams(asked.split('?')[1]);
    expect(Object.fromEntries([...query].filter(([k]) => k !== 'after'))).toEqual({
      action: 'user.',
      actor: '1',
      object_type: 'user',
      object_id: '7',
      result: 'denied',
      search: 'role',
      page: '1',
      per_page: '20',
    });
    expect(new Date(query.get('after')!).getDate()).toBe(1);
  });

  it('says when no event matches, and shows the API’s refusal with Try again', async () => {
    const s = await screen(undefined, (_, q) =>
      q.get('search') === 'nothing' ? pageAnswer([], 0, 0) : refusal('rest_forbidden', 'Sorry, you are not allowed to do that.', 403),
    );
    expect(s.root.querySelector('[role="alert"]')?.textContent).toContain('Sorry, you are not allowed to do that.');
    type(s.field('Text in the event'), 'nothing');
    await settle(() => s.button('Filter')!.click());
    expect(s.text()).toContain('No event matches these filters.');
  });

  it('shows no forwarding card when no sink is configured, nor on a server without the forwarding route', async () => {
    const none = await screen(undefined, undefined, () => []);
    expect(none.calls).toContain('GET /siteward/v1/audit/forwarding');
    expect(none.rows()).toHaveLength(4);
    expect(none.root.querySelector('[data-testid="activity-forwarding"]')).toBeNull();
    await page?.unmount();
    const older = await screen(undefined, undefined, () =>
      refusal('rest_no_route', 'No route was found matching the URL and request method.', 404),
    );
    expect(older.rows()).toHaveLength(4);
    expect(older.root.querySelector('[data-testid="activity-forwarding"]')).toBeNull();
    expect(older.root.querySelector('[role="alert"]')).toBeNull();
  });

  it('shows a healthy sink: its kind, target, nothing waiting and when it last sent', async () => {
    const s = await screen(undefined, undefined, () => [sink()]);
    const card = s.root.querySelector('[data-testid="activity-forwarding"]')!;
    expect(card.querySelector('h2')?.textContent).toBe('Forwarding');
    const row = card.querySelector('[data-testid="activity-forwarding-sink"]')!;
    expect(row.querySelector('h3')?.textContent).toBe('Syslog over TLS');
    expect(row.querySelector('code')?.textContent).toBe('tls://logs.example.net:6514');
    expect(row.querySelector('.sw-badge')?.textContent).toBe('Working');
    expect(row.querySelector('.sw-badge-down')).toBeNull();
    expect(facts(row)).toEqual([
      ['Waiting to be sent', 'Nothing: every event has been sent'],
      ['Last sent', dateTime('2026-12-01T10:12:30.000Z')],
    ]);
  });

  it('shows a failing sink with its backlog, its last error and time, and the next try', async () => {
    const s = await screen(undefined, undefined, () => [
      sink(),
      sink({
        sink: 'webhook',
        kind: 'webhook-slack',
        target: 'https://hooks.slack.example/services/…',
        backlog: 37,
        last_delivered_id: 4,
        last_error: 'HTTP 503 Service Unavailable',
        last_error_at: '2026-12-01T10:20:00.000Z',
        last_success_at: null,
        next_attempt_at: '2026-12-01T10:20:40.000Z',
        failing_since: '2026-12-01T09:00:00.000Z',
      }),
    ]);
    const rows = [...s.root.querySelectorAll('[data-testid="activity-forwarding-sink"]')];
    expect(rows.map((r) => r.querySelector('h3')?.textContent)).toEqual(['Syslog over TLS', 'Slack webhook']);
    const failing = rows[1]!;
    expect(failing.querySelector('.sw-badge-down')?.textContent).toBe('Failing');
    expect(facts(failing)).toEqual([
      ['Waiting to be sent', '37 events'],
      ['Last sent', 'Never yet'],
      ['Last error', `HTTP 503 Service Unavailable (${dateTime('2026-12-01T10:20:00.000Z')})`],
      ['Next try', dateTime('2026-12-01T10:20:40.000Z')],
      ['Failing since', dateTime('2026-12-01T09:00:00.000Z')],
      ['Old events', 'Kept until this receiver has taken them'],
    ]);
  });

  it('says when a sink has failed too long for the retention to wait for it', async () => {
    const s = await screen(undefined, undefined, () => [
      sink({
        backlog: 900,
        last_error: 'connect ECONNREFUSED',
        last_error_at: '2026-12-01T10:20:00.000Z',
        next_attempt_at: '2026-12-01T10:30:00.000Z',
        failing_since: '2026-10-01T09:00:00.000Z',
        holds_retention: false,
      }),
    ]);
    const [row] = [...s.root.querySelectorAll('[data-testid="activity-forwarding-sink"]')];
    expect(facts(row!).slice(-2)).toEqual([
      ['Failing since', dateTime('2026-10-01T09:00:00.000Z')],
      ['Old events', 'No longer kept for this receiver: it has failed too long, events past the retention are purged'],
    ]);
  });
});

/** A definition list's terms and descriptions, in order. */
function facts(within: Element): [string | null, string | null][] {
  return [...within.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? null]);
}
