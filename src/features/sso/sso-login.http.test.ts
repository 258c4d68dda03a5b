import { generate } from 'otplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { TestBrowser, loginAndConsent } from '../../accounts/testing/browser.js';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { ANN, startProvider } from '../connection/testing/connection-kit.js';
import { link, sitePath, visit } from '../connection/testing/connection-http-kit.js';

/** The test app's home URL is http://example.org: the provider sends the browser back there. */
const SSO_CALLBACK = 'http://example.org/login/sso/callback';
const CAROL = { login: 'carol', email: 'Carol@Example.org', name: 'Carol', password: 'carol password', emailVerified: true };
const DAVE = { login: 'dave', email: 'dave@example.org', name: 'Dave', password: 'dave password' };
const ERIN = { login: 'erin', email: 'erin@example.org', name: 'Erin', password: 'erin password', emailVerified: true };

describe('logging in through the connection (the sso module), over HTTP with the local account service', () => {
  let provider: AccountsService;
  let site: TestApp;
  let admin: LoggedIn;
  let dir = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'siteward-sso-'));
    provider = await startProvider(join(dir, 'accounts.sqlite'));
    for (const account of [CAROL, DAVE, ERIN]) await provider.addUser(account);
    site = await createTestApp({
      env: {
        SITEWARD_ACCOUNTS_ISSUER: provider.issuer,
        SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken,
        SITEWARD_ACCOUNTS_NAME: 'Example ID',
        SITEWARD_ACCOUNTS_TIMEOUT_MS: '1500',
        SITEWARD_TRUST_PROXY: '1',
      },
    });
    admin = await site.loginAs('administrator', { login: 'admin' });
    // Site users carol and dave exist (e-mail <login>@example.org); erin has no account here.
    for (const login of ['carol', 'dave']) {
      const made = await site.app.users.create({ login, email: `${login}@example.org`, role: 'editor', password: `pw-${login}-secret` });
      if (!made.ok) throw new Error(made.error.message);
    }
    expect((await link(site, admin, ANN)).headers.location).toBe('/admin/?connection=connected');
  });
  afterAll(async () => {
    await site?.close();
    await provider?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Each test comes from its own address (trusted proxy): its failures must not block the next test.
  let address = 0;
  beforeEach(() => void (address += 1));
  const from = () => ({ 'X-Forwarded-For': `203.0.113.${address}` });
  const get = (path: string, headers: Record<string, string> = {}) => site.request({ path, headers: { ...from(), ...headers } });

  const settings = (body: Record<string, boolean>) => call(site, 'POST', '/settings', { as: admin, body });

  /** /login/sso → the provider's login (and consent, the first time) → the callback URL, not yet visited. */
  async function atProvider(
    account: { login: string; password: string },
    query = '',
  ): Promise<{ callback: string; cookie: string; start: TestResponse }> {
    const start = await get(`/login/sso${query}`);
    expect(start.status, start.text).toBe(302);
    const cookie = (start.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    const callback = await loginAndConsent(new TestBrowser(), start.headers.location ?? '', account, SSO_CALLBACK);
    return { callback, cookie, start };
  }

  async function signIn(account: { login: string; password: string }, query = ''): Promise<TestResponse> {
    const { callback, cookie } = await atProvider(account, query);
    return get(sitePath(callback), { Cookie: cookie });
  }

  /** The session behind a login cookie: a fresh REST nonce, then who `users/me` says it is. */
  async function whoIs(setCookie: string | undefined): Promise<string> {
    const cookie = (setCookie ?? '').split(';')[0] ?? '';
    const nonce = await get('/wp-admin/admin-ajax.php?action=rest-nonce', { Cookie: cookie });
    expect(nonce.status).toBe(200);
    const me = await get('/wp-json/wp/v2/users/me', { Cookie: cookie, 'X-WP-Nonce': nonce.text });
    expect(me.status, me.text).toBe(200);
    return (me.json as { slug: string }).slug;
  }

  it('registers the sign-in callback beside the connection callback', async () => {
    const registration = (await site.store.options.get('connection_registration')) as { redirectUris?: string[] };
    expect(registration.redirectUris).toEqual(['http://example.org/connect/callback', SSO_CALLBACK]);
  });

  it('offers nothing while the module is off: no link on /login, and the sign-in pages say it is off', async () => {
    expect((await get('/login')).text).not.toContain('Log in with');
    const start = await get('/login/sso');
    expect(start.status).toBe(404);
    expect(start.text).toContain('Single sign-on is off');
    expect((await get('/login/sso/callback?code=x&state=y')).status).toBe(404);
  });

  it('logs a linked user in: "Log in with Example ID" on /login, the provider, then a normal session and redirect_to', async () => {
    expect((await settings({ sso: true })).status).toBe(200);
    const page = await get('/login?redirect_to=%2Fadmin%2F%23%2Fmodules');
    expect(page.text).toContain('<a href="/login/sso?redirect_to=%2Fadmin%2F%23%2Fmodules" id="sso-login">Log in with Example ID</a>');

    const { callback, cookie, start } = await atProvider(ANN, '?redirect_to=%2Fadmin%2F%23%2Fmodules');
    const url = new URL(start.headers.location ?? '');
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(SSO_CALLBACK);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('nonce')).toMatch(/.{20,}/);
    expect(start.headers['set-cookie']).toMatch(/^siteward_sso=[\w-]{43}; Path=\/login\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/);

    const done = await get(sitePath(callback), { Cookie: cookie });
    expect(done.status, done.text).toBe(302);
    expect(done.headers.location).toBe('/admin/#/modules');
    // The password login's cookie: HttpOnly, Lax, whole site, a browser-session cookie.
    expect(done.headers['set-cookie']).toMatch(/^siteward_logged_in=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await whoIs(done.headers['set-cookie'])).toBe('admin');

    // The same answer again: single-use state.
    const replay = await get(sitePath(callback), { Cookie: cookie });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used once');
    expect(replay.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');
  });

  it('refuses an answer that comes back to another browser (no or another sign-in cookie), and a forged state', async () => {
    const { callback } = await atProvider(ANN);
    for (const headers of [{}, { Cookie: 'siteward_sso=someone-elses-key' }] as Record<string, string>[]) {
      const refused = await get(sitePath(callback), headers);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('does not belong to a login started in this browser');
    }
    expect((await get('/login/sso/callback?code=abc&state=forged')).status).toBe(400);
  });

  it('never sends the browser off-site after logging in', async () => {
    const done = await signIn(ANN, `?redirect_to=${encodeURIComponent('https://evil.example/')}`);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe('/admin/');
  });

  it('with matching by e-mail off, an account nobody here is linked to gets a page, not a session or an account', async () => {
    const users = (await site.app.users.list()).length;
    for (const account of [DAVE, CAROL, ERIN]) {
      const refused = await signIn(account);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('No account here is linked to yours');
      expect(refused.text).toContain(`Example ID account: ${account.login}`);
      expect(refused.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');
    }
    expect((await site.app.users.list()).length).toBe(users);
    const carol = await site.store.users.byLogin('carol');
    expect(await site.store.userMeta.get(carol!.id, 'connection_account')).toBeUndefined();
  });

  it('with matching by e-mail on, links a verified address on first use, never an unverified one, and creates nobody', async () => {
    expect((await settings({ jetpack_sso_match_by_email: true })).status).toBe(200);
    const unverified = await signIn(DAVE);
    expect(unverified.status).toBe(403);
    expect(unverified.text).toContain('Your e-mail address is not verified');

    const users = (await site.app.users.list()).length;
    const nobody = await signIn(ERIN);
    expect(nobody.status).toBe(403);
    expect(nobody.text).toContain('No account here has your e-mail address');
    expect((await site.app.users.list()).length).toBe(users);

    const matched = await signIn(CAROL);
    expect(matched.status, matched.text).toBe(302);
    expect(await whoIs(matched.headers['set-cookie'])).toBe('carol');
    const carol = await site.store.users.byLogin('carol');
    expect(await site.store.userMeta.get(carol!.id, 'connection_account')).toMatchObject({
      subject: expect.any(String),
      userinfo: { preferred_username: 'carol' },
    });

    // Linked now: matching may be turned off again and carol still gets in.
    expect((await settings({ jetpack_sso_match_by_email: false })).status).toBe(200);
    expect(await whoIs((await signIn(CAROL)).headers['set-cookie'])).toBe('carol');
  });

  it('refuses, rather than guesses, when the e-mail’s user is linked to another account or two users share one account', async () => {
    const other = { login: 'carol2', email: 'carol@example.org', password: 'carol2 password', emailVerified: true };
    await provider.addUser(other);
    expect((await settings({ jetpack_sso_match_by_email: true })).status).toBe(200);
    const elsewhere = await signIn(other);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.text).toContain('That account is linked to someone else');
    expect((await settings({ jetpack_sso_match_by_email: false })).status).toBe(200);

    const second = await site.loginAs('administrator', { login: 'second' });
    expect((await link(site, second, ANN)).headers.location).toBe('/admin/?connection=linked');
    const ambiguous = await signIn(ANN);
    expect(ambiguous.status).toBe(403);
    expect(ambiguous.text).toContain('Several accounts here are linked to yours');
    expect(await call(site, 'PUT', '/unlink', { as: second })).toMatchObject({ status: 200 });
    expect(await whoIs((await signIn(ANN)).headers['set-cookie'])).toBe('admin');
  });

  it('is a first factor only: a user with two-factor gets the code page, a role that must use it goes to enrolment', async () => {
    // carol (linked above) enrols with a first code; her recovery codes finish the SSO login.
    const carol = await site.request({ method: 'POST', path: '/login', body: { username: 'carol', password: 'pw-carol-secret' } });
    const carolAuth = {
      Cookie: (carol.headers['set-cookie'] ?? '').split(';')[0] ?? '',
      'X-WP-Nonce': (carol.json as { nonce: string }).nonce,
    };
    const started = await site.request({ method: 'POST', path: '/wp-json/siteward/v1/two-factor/enrol', headers: carolAuth });
    const { secret } = started.json as { secret: string };
    const confirmed = await site.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/two-factor/confirm',
      headers: carolAuth,
      body: { code: await generate({ secret }) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const [recovery] = (confirmed.json as { recovery_codes: string[] }).recovery_codes;

    const first = await signIn(CAROL);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');
    const token = /name="two_factor_token" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org', ...from() };
    const wrong = await site.request({
      method: 'POST',
      path: '/login',
      headers: form,
      body: new URLSearchParams({ two_factor_token: token, two_factor_code: '000000' }).toString(),
    });
    expect(wrong.status).toBe(401);
    const done = await site.request({
      method: 'POST',
      path: '/login',
      headers: form,
      body: new URLSearchParams({ two_factor_token: token, two_factor_code: recovery ?? '' }).toString(),
    });
    expect(done.status, done.text).toBe(302);
    expect(await whoIs(done.headers['set-cookie'])).toBe('carol');

    // jetpack_sso_require_two_step: administrators must use the site's two-factor, after SSO too.
    expect((await settings({ jetpack_sso_require_two_step: true })).status).toBe(200);
    try {
      const gated = await signIn(ANN, '?redirect_to=%2Fadmin%2F');
      expect(gated.status).toBe(302);
      expect(gated.headers.location).toBe('/login/two-factor/setup?redirect_to=%2Fadmin%2F');
    } finally {
      expect((await settings({ jetpack_sso_require_two_step: false })).status).toBe(200);
    }
  });

  it('keeps a sign-in state out of the connection callback', async () => {
    const { callback } = await atProvider(ANN);
    const linking = await visit(site, `/connect/callback${new URL(callback).search}`, admin);
    expect(linking.status).toBe(400);
    expect(linking.text).toContain('forged or foreign state');
  });

  it('says so when the registration predates sign-in (no button, a page naming the fix)', async () => {
    const stored = (await site.store.options.get('connection_registration')) as Record<string, unknown>;
    const { redirectUris: _dropped, ...old } = stored;
    await site.store.options.set('connection_registration', old as never);
    try {
      expect((await get('/login')).text).not.toContain('Log in with');
      const start = await get('/login/sso');
      expect(start.status).toBe(503);
      expect(start.text).toContain('sign-in address is not registered');
      const status = await site.request({ path: '/wp-json/siteward/v1/sso', headers: site.auth(admin) });
      expect(status.json).toMatchObject({ ready: false, redirectUri: SSO_CALLBACK, provider: 'Example ID' });
    } finally {
      await site.store.options.set('connection_registration', stored as never);
    }
    expect((await get('/login')).text).toContain('Log in with Example ID');
  });

  it('counts failed callbacks for Protect: after 5 the address gets the 429 page, at the callback, at the start and at the password form', async () => {
    const attacker = { 'X-Forwarded-For': '192.0.2.77' };
    for (let i = 0; i < 5; i += 1) {
      expect((await site.request({ path: `/login/sso/callback?code=c&state=forged-${i}`, headers: attacker })).status).toBe(400);
    }
    const blocked = await site.request({ path: '/login/sso/callback?code=c&state=forged-6', headers: attacker });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain('Too many failed logins');
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect((await site.request({ path: '/login/sso', headers: attacker })).status).toBe(429);
    const password = await site.request({
      method: 'POST',
      path: '/login',
      headers: attacker,
      body: { username: 'admin', password: admin.password },
    });
    expect(password.status).toBe(429);
  });

  it('shows a clear page within the time bound when the provider is down or silent', async () => {
    // Codes the provider issued, exchanged only once it is gone.
    const refused = await atProvider(ANN);
    const silent = await atProvider(ANN);
    const port = Number(new URL(provider.issuer).port);
    await provider.close();

    const down = await get(sitePath(refused.callback), { Cookie: refused.cookie });
    expect(down.status).toBe(502);
    expect(down.text).toContain('Example ID cannot be reached');

    // Accepts connections on the provider's port and never answers.
    const sockets: Socket[] = [];
    const blackHole = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(port, '127.0.0.1', resolve));
    try {
      const slow = await get(sitePath(silent.callback), { Cookie: silent.cookie });
      expect(slow.status).toBe(504);
      expect(slow.text).toContain('Example ID is too slow');
      // A process that has not discovered the provider yet: the start page itself says so.
      const fresh = await createTestApp({
        env: { SITEWARD_ACCOUNTS_ISSUER: provider.issuer, SITEWARD_ACCOUNTS_NAME: 'Example ID', SITEWARD_ACCOUNTS_TIMEOUT_MS: '1500' },
        dataDir: site.app.config.dataDir,
      });
      try {
        const start = await fresh.request({ path: '/login/sso' });
        expect(start.status).toBe(504);
        expect(start.text).toContain('did not answer in time');
      } finally {
        await fresh.close();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    }
    // Back up on the same port and data: sign-in works again.
    provider = await startProvider(join(dir, 'accounts.sqlite'), port);
    expect(await whoIs((await signIn(ANN)).headers['set-cookie'])).toBe('admin');
  });
});
