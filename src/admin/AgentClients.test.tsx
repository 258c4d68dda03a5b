// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { AgentClientsCard, type AgentClient } from './AgentClients';
import { SiteProvider } from './site';
import {
  buttonNamed,
  fakeRoutes,
  initialState,
  NoticeList,
  noticeTexts,
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

const CLAUDE: AgentClient = {
  client_id: 'c-claude',
  client_name: 'Claude',
  user_id: 1,
  user_login: 'admin',
  first_used: '2026-11-30T08:00:00Z',
  last_used: '2026-12-01T09:30:00Z',
  revoked: false,
};
const NAMELESS: AgentClient = { ...CLAUDE, client_id: 'c-0042', client_name: null, user_login: 'ed', revoked: true };
const EDITOR: CurrentUser = {
  isConnected: false,
  isMaster: false,
  username: 'ed',
  permissions: { connect: false, disconnect: false, manage_modules: false, manage_options: false },
};

async function card(routes: Record<string, FakeRoute>, currentUser?: CurrentUser) {
  const calls = fakeRoutes(routes);
  page = await render(
    <SiteProvider initial={initialState(currentUser ? { userData: { currentUser } } : {})}>
      <NoticeList />
      <AgentClientsCard />
    </SiteProvider>,
  );
  await settle();
  return {
    calls,
    card: () => page!.container.querySelector('#card-agent-clients'),
    rows: () => [...page!.container.querySelectorAll('[data-testid="agent-client"]')].map((li) => li.textContent ?? ''),
    notices: noticeTexts,
    button: buttonNamed,
    dialog: () => document.body.querySelector('[role="dialog"]'),
  };
}

describe('the agent clients card', () => {
  it('lists each client with its name (or id), the user it acts as and its last use; a revoked one has no Revoke button', async () => {
    const c = await card({ 'GET /siteward/v1/agent-clients': () => [CLAUDE, NAMELESS] });
    const [claude, nameless] = c.rows();
    expect(claude).toContain('Claude');
    expect(claude).toContain('c-claude');
    expect(claude).toContain('admin');
    expect(claude).toContain('Revoke');
    expect(nameless).toContain('c-0042');
    expect(nameless).toContain('Revoked');
    expect(c.card()!.querySelectorAll('button')).toHaveLength(1);
  });

  it('revokes a client only after the confirmation dialog, then reads the list again', async () => {
    let revoked = false;
    const c = await card({
      'GET /siteward/v1/agent-clients': () => [{ ...CLAUDE, revoked }],
      'DELETE /siteward/v1/agent-clients/c-claude': () => {
        revoked = true;
        return { deleted: true, previous: CLAUDE };
      },
    });
    await settle(() => c.button('Revoke')!.click());
    expect(c.dialog()?.textContent).toContain('Revoke Claude?');
    await settle(() => c.button('Cancel')!.click());
    expect(c.calls).not.toContain('DELETE /siteward/v1/agent-clients/c-claude');
    await settle(() => c.button('Revoke')!.click());
    await settle(() => c.button('Revoke', c.dialog()!)!.click());
    expect(c.calls).toContain('DELETE /siteward/v1/agent-clients/c-claude');
    expect(c.notices()).toEqual(['Claude is revoked.']);
    expect(c.dialog()).toBeNull();
    expect(c.rows()[0]).toContain('Revoked');
  });

  it('says a client the server no longer knows is gone, and reads the list again', async () => {
    let listed = [CLAUDE];
    const c = await card({
      'GET /siteward/v1/agent-clients': () => listed,
      'DELETE /siteward/v1/agent-clients/c-claude': () => {
        listed = [];
        return refusal('siteward_agent_client_not_found', 'No agent client has that id.', 404);
      },
    });
    await settle(() => c.button('Revoke')!.click());
    await settle(() => c.button('Revoke', c.dialog()!)!.click());
    expect(c.notices()).toEqual(['Claude is no longer known to this site: the list is read again.']);
    expect(c.card()?.textContent).toContain('No agent has signed in yet.');
  });

  it('shows nothing at all on an older server without the route', async () => {
    const c = await card({
      'GET /siteward/v1/agent-clients': () => refusal('rest_no_route', 'No route was found matching the URL and request method.', 404),
    });
    expect(c.card()).toBeNull();
  });

  it('is not shown to a user who is not an administrator, and asks nothing', async () => {
    const c = await card({ 'GET /siteward/v1/agent-clients': () => [CLAUDE] }, EDITOR);
    expect(c.card()).toBeNull();
    expect(c.calls.filter((call) => call.includes('agent-clients'))).toEqual([]);
  });
});
