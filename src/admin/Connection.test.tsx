// @vitest-environment happy-dom
import type { APIFetchOptions } from '@wordpress/api-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionCard } from './Connection';
import { SiteProvider, useNotices, type PageNotice } from './site';
import { fakeApi, initialState, render, settle, type Rendered } from './testing/render';
import type { CurrentUser, InitialState, UserData } from './types';

let page: Rendered | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
  vi.unstubAllGlobals();
});

const EDITOR: CurrentUser = {
  isConnected: false,
  isMaster: false,
  username: 'ed',
  permissions: { connect: false, disconnect: false, manage_modules: false, manage_options: false, admin_page: true },
};
const ADMIN: CurrentUser = {
  isConnected: true,
  isMaster: false,
  username: 'second',
  wpcomUser: { login: 'second' },
  permissions: { connect: true, disconnect: true, manage_modules: true, manage_options: true },
};
const MASTER: CurrentUser = { ...ADMIN, isMaster: true, username: 'boss', wpcomUser: { login: 'boss' } };
const CONNECTED = { isActive: true, isStaging: false, devMode: { isActive: false, constant: false, url: false, filter: false } };

type Route = (options: APIFetchOptions) => unknown;

/** The card beside the notice list; the API answers from `routes` (`METHOD path` → answer or thrown error). */
async function card(state: Partial<InitialState>, routes: Record<string, Route> = {}, serverNotice: Omit<PageNotice, 'id'> | null = null) {
  const calls: string[] = [];
  fakeApi(async (options) => {
    const key = `${options.method ?? 'GET'} ${(options.path ?? '').replace(/[?&]_locale=user/, '')}`;
    calls.push(key);
    const route = routes[key];
    if (!route) return new Promise(() => undefined);
    return route(options);
  });
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
    <SiteProvider initial={initialState(state)} serverNotice={serverNotice}>
      <NoticeList />
      <ConnectionCard />
    </SiteProvider>,
  );
  const body = document.body;
  return {
    calls,
    text: () => page!.container.querySelector('#card-connection')?.textContent ?? '',
    notices: () => [...page!.container.querySelectorAll('[data-testid="notices"] li')].map((li) => li.textContent),
    button: (name: string) => [...body.querySelectorAll('button')].find((b) => b.textContent === name),
    dialog: () => body.querySelector('[role="dialog"]'),
  };
}

const userData = (currentUser: CurrentUser): UserData => ({ currentUser });
const refreshed = (currentUser: CurrentUser): Record<string, Route> => ({
  'GET /jetpack/v4/connection': () => CONNECTED,
  'GET /jetpack/v4/module/all': () => ({}),
  'GET /jetpack/v4/connection/data': () => userData(currentUser),
});

describe('the Connection card', () => {
  it('offers an editor on a connected site to link their own account, saying anyone may (no dead end)', async () => {
    const c = await card({ userData: userData(EDITOR) });
    expect(c.text()).toContain('Your account is not linked. Any user of the site can link their own account');
    expect(c.button('Link your account')).toBeDefined();
    expect(c.button('Disconnect the site')).toBeUndefined();
  });

  it('tells an editor on a site that is not connected that an administrator connects it, and what comes after', async () => {
    const c = await card({ connectionStatus: { ...CONNECTED, isActive: false }, userData: userData(EDITOR) });
    expect(c.text()).toContain(
      'Only an administrator can connect the site. Ask one of the site’s administrators to connect it; then you can link your own account here.',
    );
    expect(c.button('Connect to the account service')).toBeUndefined();
  });

  it('says up front that no account service is configured, naming SITEWARD_ACCOUNTS_ISSUER, and offers no Connect button', async () => {
    const c = await card({
      connectionStatus: { ...CONNECTED, isActive: false },
      userData: userData({ ...ADMIN, isConnected: false }),
      accountServiceConfigured: false,
    });
    expect(c.text()).toContain('no account service is configured. Set SITEWARD_ACCOUNTS_ISSUER');
    expect(c.button('Connect to the account service')).toBeUndefined();
  });

  it('tells the master user why their account cannot be unlinked and that disconnecting the site is the way', async () => {
    const c = await card({ userData: userData(MASTER) });
    expect(c.text()).toContain('You are linked as boss — the master user.');
    expect(c.text()).toContain('cannot be unlinked on its own. To unlink it, disconnect the site.');
    expect(c.button('Unlink your account')).toBeUndefined();
  });

  it('replaces "…is linked" with "Your account is unlinked." after unlinking: never both', async () => {
    const c = await card(
      { userData: userData(ADMIN) },
      { 'POST /jetpack/v4/connection/user': () => ({ code: 'success' }), ...refreshed({ ...ADMIN, isConnected: false }) },
      { status: 'success', text: 'Your account is linked.', topic: 'connection' },
    );
    expect(c.notices()).toEqual(['Your account is linked.']);
    await settle(() => c.button('Unlink your account')!.click());
    expect(c.calls).toContain('POST /jetpack/v4/connection/user');
    expect(c.notices()).toEqual(['Your account is unlinked.']);
    expect(c.button('Link your account')).toBeDefined();
  });

  it('says the master user cannot be unlinked, and what to do, where the API answers "Please try again."', async () => {
    const refusal = { code: 'unlink_user_failed', message: 'Was not able to unlink the user.  Please try again.', data: { status: 400 } };
    // A page opened before this account became the master's offers Unlink; the API refuses.
    const c = await card(
      { userData: userData(ADMIN) },
      {
        'POST /jetpack/v4/connection/user': () => Promise.reject(refusal),
        ...refreshed(MASTER),
      },
    );
    await settle(() => c.button('Unlink your account')!.click());
    expect(c.notices()).toEqual([
      'Your account was not unlinked: it is the master user’s, and the site’s connection goes through it. To unlink it, disconnect the site.',
    ]);
    expect(c.notices().join()).not.toContain('try again');
    expect(c.text()).toContain('To unlink it, disconnect the site.');
    expect(c.button('Unlink your account')).toBeUndefined();
  });

  it('asks before disconnecting with the page’s dialog, never window.confirm, and disconnects only on yes', async () => {
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    window.confirm = confirm;
    const c = await card(
      { userData: userData(MASTER) },
      { 'POST /jetpack/v4/connection': () => ({ code: 'success' }), ...refreshed({ ...MASTER, isConnected: false, isMaster: false }) },
    );
    await settle(() => c.button('Disconnect the site')!.click());
    expect(c.dialog()?.textContent).toContain('Disconnect the site?');
    await settle(() => c.button('Cancel')!.click());
    expect(c.dialog()).toBeNull();
    expect(c.calls).not.toContain('POST /jetpack/v4/connection');
    await settle(() => c.button('Disconnect the site')!.click());
    const confirmButton = [...c.dialog()!.querySelectorAll('button')].find((b) => b.textContent === 'Disconnect the site')!;
    await settle(() => confirmButton.click());
    expect(c.calls).toContain('POST /jetpack/v4/connection');
    expect(c.notices()).toEqual(['The site is disconnected.']);
    expect(confirm).not.toHaveBeenCalled();
  });
});
