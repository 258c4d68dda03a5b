import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, freePort, type TestApp } from '../../../test/helpers/test-app.js';
import { ensureSetupToken } from '../../auth/setup-token.js';

const FORM = 'application/x-www-form-urlencoded';
const EVIL = 'https://evil.example';

describe('page forms sent from another site (login CSRF)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: 'ann-password-1' });
  });
  afterAll(() => app.close());

  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.request({ method: 'POST', path, headers: { 'content-type': FORM, ...headers }, body: new URLSearchParams(fields).toString() });

  /** What a browser does: load the form (getting the pre-session cookie), then send it back. */
  const formOf = async (path: string) => {
    const page = await app.request({ path });
    const cookie = (page.headers['set-cookie'] ?? '').split(';')[0]!;
    const token = /name="_siteward_form" value="([^"]+)"/.exec(page.text)?.[1];
    return { cookie, token: token! };
  };

  it('refuses a login form posted with a foreign Origin, without checking the password or setting a cookie', async () => {
    const res = await post('/login', { log: 'ann', pwd: 'ann-password-1' }, { origin: EVIL });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('not sent from a page of this site');
  });

  it('refuses a JSON login with a foreign Origin too', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/login',
      headers: { origin: EVIL },
      body: { username: 'ann', password: 'ann-password-1' },
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'siteward_cross_site_form' });
  });

  it('refuses a form without Origin that lacks the form token, or carries one of another cookie', async () => {
    expect((await post('/login', { log: 'ann', pwd: 'ann-password-1' })).status).toBe(403);
    const mine = await formOf('/login');
    const theirs = await formOf('/login');
    expect(mine.cookie).toMatch(/^siteward_form=/);
    const crossed = await post('/login', { log: 'ann', pwd: 'ann-password-1', _siteward_form: theirs.token }, { cookie: mine.cookie });
    expect(crossed.status).toBe(403);
    expect((await post('/login', { log: 'ann', pwd: 'ann-password-1', _siteward_form: mine.token }, { origin: 'null' })).status).toBe(403);
  });

  it('accepts a form without Origin that sends back its page’s token with its cookie', async () => {
    const { cookie, token } = await formOf('/login');
    const res = await post('/login', { log: 'ann', pwd: 'ann-password-1', _siteward_form: token }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers['set-cookie']).toMatch(/siteward_logged_in=/);
  });

  it('accepts a same-origin form and a JSON login without Origin (scripts, curl)', async () => {
    expect((await post('/login', { log: 'ann', pwd: 'ann-password-1' }, { origin: 'http://example.org' })).status).toBe(302);
    expect((await app.request({ method: 'POST', path: '/login', body: { username: 'ann', password: 'ann-password-1' } })).status).toBe(200);
  });

  it('refuses foreign forms on /setup and the password-reset forms before they act', async () => {
    const token = (await ensureSetupToken(app.store))!;
    const setup = await post(
      '/setup',
      { token, login: 'mallory', email: 'm@example.org', password: 'correct horse battery staple' },
      { origin: EVIL },
    );
    expect(setup.status).toBe(403);
    expect(await app.store.users.byLogin('mallory')).toBeUndefined();
    expect((await post('/login/lost-password', { user_login: 'ann' }, { origin: EVIL })).status).toBe(403);
    expect(
      (await post('/login/reset-password', { login: 'ann', key: 'x', password: 'correct horse battery staple' }, { origin: EVIL })).status,
    ).toBe(403);
  });
});

describe('an Origin on another port is another site', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    app = await createTestApp({ port, env: { SITEWARD_HOME_URL: `http://127.0.0.1:${port}` } });
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: 'ann-password-1' });
  });
  afterAll(() => app.close());

  const login = (origin: string, host?: string) =>
    app.request({
      method: 'POST',
      path: '/login',
      headers: { 'content-type': FORM, origin, ...(host === undefined ? {} : { host }) },
      body: new URLSearchParams({ log: 'ann', pwd: 'ann-password-1' }).toString(),
    });

  it('refuses a login form from the same host on the next port, and from https on the same port', async () => {
    for (const origin of [`http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, 'http://127.0.0.1']) {
      const res = await login(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers['set-cookie'], origin).toBeUndefined();
    }
  });

  it('accepts the form from its own origin', async () => {
    const res = await login(`http://127.0.0.1:${port}`);
    expect(res.status).toBe(302);
    expect(res.headers['set-cookie']).toMatch(/siteward_logged_in=/);
  });

  it('compares the port the request was sent to when it is not the home URL’s, the default port being implied', async () => {
    // Reached by another name (Host: localhost:<port>): that name with its port is this site too.
    expect((await login(`http://localhost:${port}`, `localhost:${port}`)).status).toBe(302);
    expect((await login(`http://localhost:${port + 1}`, `localhost:${port}`)).status).toBe(403);
    expect((await login('http://localhost', `localhost:${port}`)).status).toBe(403);
    // A Host without a port is port 80 for http, so Origin http://localhost:80 is the same site.
    expect((await login('http://localhost:80', 'localhost')).status).toBe(302);
    expect((await login('http://localhost:8080', 'localhost')).status).toBe(403);
  });
});
