import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';
import { parseLoginCookie } from '../auth/login-cookie.js';
import { createNonceService } from '../auth/nonce.js';

function whoami(api: SitewardApi): void {
  api.registerRoute('auth-test/v1', '/whoami', {
    methods: ['GET', 'POST'],
    callback: (req) => ({ id: req.user.id }),
  });
  api.registerRoute('auth-test/v1', '/admin-only', {
    callback: () => 'secret',
    permissionCallback: (req) => req.user.can('manage_options'),
  });
}

let app: TestApp;
let admin: LoggedIn;
let editor: LoggedIn;

beforeAll(async () => {
  app = await createInProcessApp({ plugins: [whoami] });
  admin = await app.loginAs('administrator');
  editor = await app.loginAs('editor');
});
afterAll(() => app.close());

const tokenOf = (user: LoggedIn) => parseLoginCookie(decodeURIComponent(user.cookie.split('=')[1]!))!.token;

async function whoamiAs(headers: Record<string, string>, query = '', body?: string) {
  const res = await app.request({
    method: body === undefined ? 'GET' : 'POST',
    path: `/wp-json/auth-test/v1/whoami${query}`,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return res;
}

describe('cookie and nonce authentication (docs/spec/site-management-api.md §5)', () => {
  it('authenticates a logged-in cookie with a valid nonce in the header and sends a fresh nonce', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': admin.nonce });
    expect(res.json).toEqual({ id: admin.userId });
    expect(res.headers['x-wp-nonce']).toMatch(/^[0-9a-f]{10}$/);
    expect(res.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0');
    expect(res.headers.expires).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
  });

  it('accepts the nonce as the _wpnonce query parameter', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie }, `?_wpnonce=${admin.nonce}`);
    expect(res.json).toEqual({ id: admin.userId });
  });

  it('accepts the nonce as a _wpnonce form field', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie }, '', `_wpnonce=${admin.nonce}`);
    expect(res.json).toEqual({ id: admin.userId });
  });

  it('uses the form body’s _wpnonce over the query’s, as $_REQUEST does', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie }, '?_wpnonce=badbadbad0', `_wpnonce=${admin.nonce}`);
    expect(res.json).toEqual({ id: admin.userId });
  });

  it('uses _wpnonce over the header when both are sent', async () => {
    const good = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': 'badbadbad0' }, `?_wpnonce=${admin.nonce}`);
    expect(good.status).toBe(200);
    const bad = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': admin.nonce }, '?_wpnonce=badbadbad0');
    expect(bad.status).toBe(403);
    expect(bad.json).toEqual({ code: 'rest_cookie_invalid_nonce', message: 'Cookie nonce is invalid', data: { status: 403 } });
  });

  it('treats a logged-in cookie without nonce as anonymous, with no nonce header', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 0 });
    expect(res.headers['x-wp-nonce']).toBeUndefined();
    // WordPress sends the logged-in no-cache headers before the nonce check makes the request anonymous.
    expect(res.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0');
  });

  it('refuses an invalid nonce with 403 and no fresh nonce', async () => {
    for (const nonce of ['0000000000', 'short', '']) {
      const res = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': nonce });
      expect(res.status, nonce).toBe(403);
      expect(res.headers['x-wp-nonce']).toBeUndefined();
    }
  });

  it('refuses a bad nonce even on an unknown route and on OPTIONS', async () => {
    const unknown = await app.request({ path: '/wp-json/no/such/route', headers: { Cookie: admin.cookie, 'X-WP-Nonce': 'badbadbad0' } });
    expect(unknown.status).toBe(403);
    expect((unknown.json as { code: string }).code).toBe('rest_cookie_invalid_nonce');
    const options = await app.request({ method: 'OPTIONS', path: '/wp-json/auth-test/v1/whoami', headers: { 'X-WP-Nonce': 'badbadbad0' } });
    expect(options.status).toBe(403);
  });

  it('refuses another user’s nonce', async () => {
    const res = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': editor.nonce });
    expect(res.status).toBe(403);
  });

  it('refuses a nonce of another session of the same user', async () => {
    const again = await app.request({ method: 'POST', path: '/login', body: { username: admin.login, password: admin.password } });
    const otherNonce = (again.json as { nonce: string }).nonce;
    expect(otherNonce).not.toBe(admin.nonce);
    const res = await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': otherNonce });
    expect(res.status).toBe(403);
  });

  it('accepts a nonce from the previous 12-hour tick and refuses one two ticks old', async () => {
    const key = app.app.secrets.nonceKey;
    const at = (ms: number) => createNonceService({ key, clock: () => Date.now() - ms }).create('wp_rest', admin.userId, tokenOf(admin));
    expect((await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': at(43_200_000) })).json).toEqual({ id: admin.userId });
    expect((await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': at(2 * 43_200_000 + 1000) })).status).toBe(403);
  });

  it('refuses a nonce for another action', async () => {
    const key = app.app.secrets.nonceKey;
    const other = createNonceService({ key }).create('jetpack_activate-protect', admin.userId, tokenOf(admin));
    expect((await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': other })).status).toBe(403);
  });

  it('accepts a logged-out user’s valid user-0 nonce and sends a fresh one', async () => {
    const nonce = createNonceService({ key: app.app.secrets.nonceKey }).create('wp_rest', 0, '');
    const res = await whoamiAs({ 'X-WP-Nonce': nonce });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 0 });
    expect(res.headers['x-wp-nonce']).toMatch(/^[0-9a-f]{10}$/);
  });

  it('refuses a nonce sent without a cookie when it is not a user-0 nonce', async () => {
    expect((await whoamiAs({ 'X-WP-Nonce': admin.nonce })).status).toBe(403);
  });

  it('treats requests with neither cookie nor nonce as anonymous', async () => {
    const res = await whoamiAs({});
    expect(res.json).toEqual({ id: 0 });
    expect(res.headers['x-wp-nonce']).toBeUndefined();
  });

  it('stops accepting the cookie and its nonces after logout', async () => {
    const user = await app.loginAs('author');
    expect((await whoamiAs(app.auth(user))).json).toEqual({ id: user.userId });
    const out = await app.request({
      method: 'POST',
      path: '/logout',
      headers: { ...app.auth(user), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(out.status).toBe(200);
    const after = await whoamiAs(app.auth(user));
    expect(after.status).toBe(403);
    expect((await whoamiAs({ Cookie: user.cookie })).json).toEqual({ id: 0 });
  });

  it('answers 401 to anonymous and 403 to logged-in users without the capability', async () => {
    expect((await app.request({ path: '/wp-json/auth-test/v1/admin-only' })).status).toBe(401);
    const asEditor = await app.request({ path: '/wp-json/auth-test/v1/admin-only', headers: app.auth(editor) });
    expect(asEditor.status).toBe(403);
    expect(asEditor.json).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    expect((await app.request({ path: '/wp-json/auth-test/v1/admin-only', headers: app.auth(admin) })).json).toBe('secret');
  });
});

describe('application passwords (docs/spec/site-management-api.md §5 rule 7)', () => {
  let password: string;
  beforeAll(async () => {
    const created = await app.app.authenticator.appPasswords.create(admin.login, 'test client');
    if (!created.ok) throw new Error(created.message);
    password = created.password;
  });
  const basic = (login: string, pw: string) => `Basic ${Buffer.from(`${login}:${pw}`).toString('base64')}`;

  it('authenticates Basic credentials without cookie or nonce', async () => {
    const res = await whoamiAs({ Authorization: basic(admin.login, password) });
    expect(res.json).toEqual({ id: admin.userId });
    expect(res.headers['x-wp-nonce']).toBeUndefined();
  });

  it('ignores chunking spaces in the application password', async () => {
    const spaced = password.match(/.{1,4}/g)!.join(' ');
    expect((await whoamiAs({ Authorization: basic(admin.login, spaced) })).json).toEqual({ id: admin.userId });
  });

  it('skips the nonce check, even a bad nonce, when authenticated by application password', async () => {
    const res = await whoamiAs({ Authorization: basic(admin.login, password), 'X-WP-Nonce': 'badbadbad0' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: admin.userId });
  });

  it('uses a valid login cookie before a Basic header (e.g. an htpasswd in front of the site)', async () => {
    const res = await whoamiAs({ Authorization: basic('htuser', 'htpass'), Cookie: editor.cookie, 'X-WP-Nonce': editor.nonce });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: editor.userId });
  });

  it('falls back to the application password when the cookie is not valid', async () => {
    const res = await whoamiAs({ Authorization: basic(admin.login, password), Cookie: 'siteward_logged_in=forged%7C1%7Cx%7Cy' });
    expect(res.json).toEqual({ id: admin.userId });
  });

  it('answers an unknown user with 401 invalid_username', async () => {
    const res = await whoamiAs({ Authorization: basic('nobody', password) });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ code: 'invalid_username', message: 'Unknown username.', data: { status: 401 } });
  });

  it('answers a wrong password with 401 incorrect_password, never anonymous', async () => {
    const res = await whoamiAs({ Authorization: basic(admin.login, 'wrong-password-here') });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      code: 'incorrect_password',
      message: 'The provided password is an invalid application password.',
      data: { status: 401 },
    });
  });

  it('refuses a revoked application password', async () => {
    const created = await app.app.authenticator.appPasswords.create(editor.login, 'short-lived');
    if (!created.ok) throw new Error(created.message);
    expect((await whoamiAs({ Authorization: basic(editor.login, created.password) })).status).toBe(200);
    await app.app.authenticator.appPasswords.revoke(editor.login, created.info.uuid);
    expect((await whoamiAs({ Authorization: basic(editor.login, created.password) })).status).toBe(401);
  });
});

describe('nonce refresh endpoint', () => {
  it('returns a fresh nonce as text/plain for a logged-in cookie, without CORS headers', async () => {
    const res = await app.request({
      path: '/wp-admin/admin-ajax.php?action=rest-nonce',
      headers: { Cookie: admin.cookie, Origin: 'https://x.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^[0-9a-f]{10}$/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await whoamiAs({ Cookie: admin.cookie, 'X-WP-Nonce': res.text })).json).toEqual({ id: admin.userId });
  });

  it('refuses without a login cookie', async () => {
    expect((await app.request({ path: '/wp-admin/admin-ajax.php?action=rest-nonce' })).status).toBe(403);
  });
});
