import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ensureSetupToken } from '../../auth/setup-token.js';
import { safeRedirect } from './login-pages.js';

const form = (fields: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://example.org',
  body: new URLSearchParams(fields).toString(),
});

describe('first-run setup', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await createTestApp();
    token = (await ensureSetupToken(app.store))!;
  });
  afterAll(() => app.close());

  it('refuses the setup page without the token or with a wrong one', async () => {
    expect((await app.request({ path: '/setup' })).status).toBe(403);
    expect((await app.request({ path: '/setup?token=wrong' })).status).toBe(403);
    const { body, ...headers } = form({ token: 'wrong', login: 'boss', email: 'boss@example.org', password: 'long-enough-pw' });
    expect((await app.request({ method: 'POST', path: '/setup', headers, body })).status).toBe(403);
  });

  it('shows the form with the token and keeps the token when the input is bad', async () => {
    const page = await app.request({ path: `/setup?token=${token}` });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Create administrator');
    const { body, ...headers } = form({ token, login: 'boss', email: 'boss@example.org', password: 'short' });
    const bad = await app.request({ method: 'POST', path: '/setup', headers, body });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/at least 8/);
    for (const weak of ['password', '12345678', 'boss12345']) {
      const { body: weakBody, ...weakHeaders } = form({ token, login: 'boss', email: 'boss@example.org', password: weak });
      const refused = await app.request({ method: 'POST', path: '/setup', headers: weakHeaders, body: weakBody });
      expect(refused.status, weak).toBe(400);
      expect(refused.text, weak).toContain('This password is too easy to guess');
    }
  });

  it('creates the administrator, then disappears', async () => {
    const { body, ...headers } = form({ token, login: 'boss', email: 'boss@example.org', password: 'long-enough-pw' });
    const done = await app.request({ method: 'POST', path: '/setup', headers, body });
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe('/login?redirect_to=%2Fadmin%2F&setup=done');
    expect((await app.request({ path: `/setup?token=${token}` })).status).toBe(404);
    const login = await app.request({ method: 'POST', path: '/login', body: { username: 'boss', password: 'long-enough-pw' } });
    expect(login.status).toBe(200);
  });
});

describe('login and logout pages', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Failures here are about the answers; the challenge after a few of them has its own tests.
    app = await createTestApp({ env: { SITEWARD_PROTECT_CHALLENGE_AFTER: '0' } });
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: 'ann-password-1' });
  });
  afterAll(() => app.close());

  it('shows a login form with WordPress field names', async () => {
    const res = await app.request({ path: '/login?redirect_to=/admin/' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="log"');
    expect(res.text).toContain('name="pwd"');
    expect(res.text).toContain('name="rememberme"');
  });

  it('logs in from the form and redirects to redirect_to on the same site', async () => {
    const { body, ...headers } = form({ log: 'ann', pwd: 'ann-password-1', redirect_to: '/admin/?x=1' });
    const res = await app.request({ method: 'POST', path: '/login', headers, body });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/admin/?x=1');
    const cookie = res.headers['set-cookie']!;
    expect(cookie).toMatch(/^siteward_logged_in=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
    expect(cookie).not.toContain('Expires');
  });

  it('never redirects off-site', async () => {
    const { body, ...headers } = form({ log: 'ann', pwd: 'ann-password-1', redirect_to: 'https://evil.example/' });
    const res = await app.request({ method: 'POST', path: '/login', headers, body });
    expect(res.headers.location).toBe('/admin/');
    expect(safeRedirect('//evil.example/x', 'http://example.org')).toBeNull();
    expect(safeRedirect('http://example.org/admin/?a=1', 'http://example.org')).toBe('/admin/?a=1');
  });

  it('keeps a remembered login for 14 days', async () => {
    const { body, ...headers } = form({ log: 'ann', pwd: 'ann-password-1', rememberme: 'forever' });
    const res = await app.request({ method: 'POST', path: '/login', headers, body });
    const expires = /Expires=([^;]+)/.exec(res.headers['set-cookie']!)![1]!;
    const days = (Date.parse(expires) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
  });

  it('answers wrong credentials with 401 and one generic message, as form or JSON', async () => {
    for (const [user, pw] of [
      ['ann', 'wrong'],
      ['nobody', 'ann-password-1'],
    ]) {
      const json = await app.request({ method: 'POST', path: '/login', body: { username: user, password: pw } });
      expect(json.status).toBe(401);
      expect(json.json).toEqual({ code: 'invalid_login', message: 'Unknown username or incorrect password.', data: { status: 401 } });
      const { body, ...headers } = form({ log: user!, pwd: pw! });
      const page = await app.request({ method: 'POST', path: '/login', headers, body });
      expect(page.status).toBe(401);
      expect(page.text).toContain('Unknown username or incorrect password.');
      // At most the form's pre-session cookie (its anti-CSRF token's), never a login.
      expect(page.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');
    }
  });

  it('marks the cookie Secure under https (trusted proxy)', async () => {
    const proxied = await createTestApp({ env: { SITEWARD_TRUST_PROXY: '1' } });
    try {
      await proxied.app.users.create({ login: 'sec', email: 'sec@example.org', role: 'subscriber', password: 'sec-password-1' });
      const res = await proxied.request({
        method: 'POST',
        path: '/login',
        headers: { 'X-Forwarded-Proto': 'https' },
        body: { username: 'sec', password: 'sec-password-1' },
      });
      expect(res.headers['set-cookie']).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });

  it('logs out: destroys the session and clears the cookie', async () => {
    const user = await app.loginAs('subscriber');
    const out = await app.request({ method: 'POST', path: '/logout', headers: { Cookie: user.cookie, Origin: 'http://example.org' } });
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/login?loggedout=true');
    expect(out.headers['set-cookie']).toContain('Expires=Thu, 01 Jan 1970');
    const admin = await app.request({ path: '/admin/', headers: { Cookie: user.cookie } });
    expect(admin.status).toBe(302);
  });

  it('shows the admin page with Initial_State to a logged-in user', async () => {
    const user = await app.loginAs('administrator');
    const res = await app.request({ path: '/admin/', headers: { Cookie: user.cookie } });
    expect(res.status).toBe(200);
    const state = JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(res.text)![1]!);
    expect(state.WP_API_root).toBe('http://example.org/wp-json/');
    expect(state.WP_API_nonce).toMatch(/^[0-9a-f]{10}$/);
    const call = await app.request({
      path: '/wp-json/jetpack/v4/settings',
      headers: { Cookie: user.cookie, 'X-WP-Nonce': state.WP_API_nonce },
    });
    expect(call.status).toBe(200);
  });

  it('never sends CORS headers on login, setup, admin or logout pages', async () => {
    for (const [method, p] of [
      ['GET', '/login'],
      ['POST', '/login'],
      ['GET', '/setup'],
      ['GET', '/admin/'],
      ['POST', '/logout'],
    ] as const) {
      const res = await app.request({ method, path: p, headers: { Origin: 'https://evil.example' } });
      expect(res.headers['access-control-allow-origin'], `${method} ${p}`).toBeUndefined();
    }
  });
});

describe('a restart', () => {
  it('keeps users, sessions and options', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-restart-'));
    try {
      const first = await createTestApp({ dataDir });
      const user = await first.loginAs('administrator');
      const toggled = await first.request({
        method: 'POST',
        path: '/wp-json/jetpack/v4/module/markdown/active',
        headers: first.auth(user),
        body: { active: true },
      });
      expect(toggled.status).toBe(200);
      await first.close();

      const second = await createTestApp({ dataDir });
      try {
        const res = await second.request({ path: '/wp-json/jetpack/v4/module/markdown', headers: second.auth(user) });
        expect(res.status).toBe(200);
        const all = await second.request({ path: '/wp-json/jetpack/v4/module/all', headers: second.auth(user) });
        expect((all.json as Record<string, { activated: boolean }>).markdown!.activated).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
