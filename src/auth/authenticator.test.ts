import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import type { Store } from '../store/types.js';
import { createAuthenticator, parseBasicAuthorization, type SitewardAuthenticator } from './authenticator.js';
import { LOGIN_COOKIE_NAME } from './login-cookie.js';
import { Secrets } from './secrets.js';
import { createUserService } from './user-service.js';

const secrets = new Secrets(Buffer.alloc(32, 5));
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const cookieHeader = (value: string) => `${LOGIN_COOKIE_NAME}=${encodeURIComponent(value)}`;

describe.each(testStores())('the authenticator on $name', (backend) => {
  let store: Store;
  let auth: SitewardAuthenticator;
  let dev = false;
  let now = 1_700_000_000_000;
  let cookie: string;
  let appPassword: string;

  beforeAll(async () => {
    store = await backend.open();
    await createUserService(store).create({
      login: 'admin',
      email: 'admin@example.com',
      password: 'admin password',
      role: 'administrator',
    });
    await createUserService(store).create({ login: 'sub', email: 'sub@example.com', password: 'sub password', role: 'subscriber' });
    auth = createAuthenticator({ store, secrets, devMode: () => dev, clock: () => now });
    const login = await auth.sessions.login('admin', 'admin password');
    if (!login.ok) throw new Error('login failed');
    cookie = login.cookie;
    const app = await auth.appPasswords.create('sub', 'reader');
    if (!app.ok) throw new Error(app.message);
    appPassword = app.password;
  });
  afterAll(() => backend.cleanup());

  it('is anonymous without credentials', async () => {
    expect(await auth.identify({})).toEqual({ kind: 'anonymous' });
    expect(await auth.identify({ cookie: 'theme=dark' })).toEqual({ kind: 'anonymous' });
  });

  it('identifies a valid login cookie with its session token', async () => {
    const identity = await auth.identify({ cookie: `a=b; ${cookieHeader(cookie)}` });
    if (identity.kind !== 'cookie') throw new Error(identity.kind);
    expect(identity.principal.login).toBe('admin');
    expect(identity.principal.can('manage_options')).toBe(true);
    expect(identity.sessionToken).toBe(cookie.split('|')[2]);
  });

  it('treats a malformed, tampered or expired cookie as anonymous', async () => {
    // The last HMAC digit is changed to a different one (replacing it with a fixed digit failed 1 time in 16).
    const tampered = `${cookie.slice(0, -1)}${cookie.endsWith('0') ? '1' : '0'}`;
    for (const value of ['nonsense', cookie.replace('admin|', 'sub|'), tampered]) {
      expect(await auth.identify({ cookie: cookieHeader(value) })).toEqual({ kind: 'anonymous' });
    }
    const later = createAuthenticator({ store, secrets, devMode: () => false, clock: () => now + 3 * 86_400_000 });
    expect(await later.identify({ cookie: cookieHeader(cookie) })).toEqual({ kind: 'anonymous' });
  });

  it('identifies an application password over Basic as "other" when no valid cookie is sent', async () => {
    const identity = await auth.identify({ authorization: basic('sub', appPassword), cookie: 'siteward_logged_in=garbage' });
    if (identity.kind !== 'other') throw new Error(identity.kind);
    expect(identity.principal.login).toBe('sub');
    expect(identity.principal.can('read')).toBe(true);
    expect(identity.principal.can('manage_options')).toBe(false);
  });

  it('takes a valid login cookie before any Basic header, as WordPress does', async () => {
    const identity = await auth.identify({ authorization: basic('sub', 'wrong'), cookie: cookieHeader(cookie) });
    expect(identity.kind).toBe('cookie');
  });

  it('answers errors for wrong Basic credentials', async () => {
    const unknown = await auth.identify({ authorization: basic('nobody', appPassword) });
    expect(unknown.kind === 'error' && unknown.error.code).toBe('invalid_username');
    const wrong = await auth.identify({ authorization: basic('sub', 'sub password') });
    expect(wrong.kind === 'error' && wrong.error.code).toBe('incorrect_password');
    expect(wrong.kind === 'error' && wrong.error.status).toBe(401);
  });

  it('ignores other authorization schemes', async () => {
    expect(await auth.identify({ authorization: 'Bearer abc' })).toEqual({ kind: 'anonymous' });
    expect(parseBasicAuthorization('Basic bm9jb2xvbg==')).toBeNull(); // "nocolon"
    expect(parseBasicAuthorization(basic('a', 'b:c'))).toEqual({ login: 'a', password: 'b:c' });
  });

  it('ties nonces to the user and session of the identity', async () => {
    const identity = await auth.identify({ cookie: cookieHeader(cookie) });
    const nonce = auth.createNonce('wp_rest', identity);
    expect(auth.verifyNonce(nonce, 'wp_rest', identity)).toBe(1);
    expect(auth.verifyNonce(nonce, 'other', identity)).toBe(false);
    expect(auth.verifyNonce(nonce, 'wp_rest', { kind: 'anonymous' })).toBe(false);

    const second = await auth.sessions.login('admin', 'admin password');
    if (!second.ok) throw new Error('login failed');
    const otherSession = await auth.identify({ cookie: cookieHeader(second.cookie) });
    expect(auth.verifyNonce(nonce, 'wp_rest', otherSession)).toBe(false);
  });

  it('makes nonces for the logged-out user with uid 0 and no token', () => {
    const nonce = auth.createNonce('wp_rest', { kind: 'anonymous' });
    expect(auth.verifyNonce(nonce, 'wp_rest', { kind: 'anonymous' })).toBe(1);
    now += 43_200_000;
    expect(auth.verifyNonce(nonce, 'wp_rest', { kind: 'anonymous' })).toBe(2);
    now += 43_200_000;
    expect(auth.verifyNonce(nonce, 'wp_rest', { kind: 'anonymous' })).toBe(false);
  });

  it('refuses the nonce of a session that logged out: the request is anonymous again', async () => {
    const login = await auth.sessions.login('admin', 'admin password');
    if (!login.ok) throw new Error('login failed');
    const identity = await auth.identify({ cookie: cookieHeader(login.cookie) });
    const nonce = auth.createNonce('wp_rest', identity);
    await auth.sessions.logout(login.cookie);
    const after = await auth.identify({ cookie: cookieHeader(login.cookie) });
    expect(after).toEqual({ kind: 'anonymous' });
    expect(auth.verifyNonce(nonce, 'wp_rest', after)).toBe(false);
  });

  it('applies dev mode to the meta capabilities of identified users', async () => {
    const identity = await auth.identify({ authorization: basic('sub', appPassword) });
    if (identity.kind !== 'other') throw new Error(identity.kind);
    dev = false;
    expect(identity.principal.can('jetpack_admin_page')).toBe(true);
    dev = true;
    expect(identity.principal.can('jetpack_admin_page')).toBe(false);
    dev = false;
  });

  it('logs in with the identity of the new session, whose nonces verify after identify', async () => {
    const result = await auth.login('admin', 'admin password', { remember: true });
    if (!result.ok) throw new Error('login failed');
    expect(result.identity.principal.can('manage_options')).toBe(true);
    const nonce = auth.createNonce('wp_rest', result.identity);
    const identified = await auth.identify({ cookie: cookieHeader(result.cookie) });
    expect(auth.verifyNonce(nonce, 'wp_rest', identified)).toBe(1);
    expect(await auth.logout(result.cookie)).toBe(true);
    expect(await auth.identify({ cookie: cookieHeader(result.cookie) })).toEqual({ kind: 'anonymous' });
    expect(await auth.login('admin', 'nope')).toEqual({ ok: false, error: 'invalid_credentials' });
  });

  it('has an anonymous principal with id 0', () => {
    expect(auth.anonymous().id).toBe(0);
    expect(auth.anonymous().can('read')).toBe(false);
  });

  it('sees a role change at once after forgetUser', async () => {
    const login = await auth.sessions.login('sub', 'sub password');
    if (!login.ok) throw new Error('login failed');
    const before = await auth.identify({ cookie: cookieHeader(login.cookie) });
    expect(before.kind === 'cookie' && before.principal.can('edit_posts')).toBe(false);
    await store.users.setRoles(login.user.id, ['editor']);
    auth.forgetUser(login.user.id);
    const after = await auth.identify({ cookie: cookieHeader(login.cookie) });
    expect(after.kind === 'cookie' && after.principal.can('edit_posts')).toBe(true);
  });
});
