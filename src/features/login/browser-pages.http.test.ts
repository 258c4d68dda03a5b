import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSetupToken } from '../../auth/setup-token.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/** What a browser sends when it navigates. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('paths a browser visits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { SITEWARD_SITE_NAME: 'Acme Widgets', SITEWARD_SITE_DESCRIPTION: 'Fine widgets since 1999' } });
  });
  afterAll(() => app.close());

  it('sends /wp-admin/ to the dashboard and /wp-login.php to the login page', async () => {
    for (const path of ['/wp-admin/', '/wp-admin']) {
      const res = await app.request({ path, headers: BROWSER });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/admin/');
    }
    const login = await app.request({ path: '/wp-login.php?redirect_to=%2Fadmin%2F', headers: BROWSER });
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('/login?redirect_to=%2Fadmin%2F');
  });

  it('serves a favicon', async () => {
    const res = await app.request({ path: '/favicon.ico', headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(22);
  });

  it('answers an unknown page with an HTML 404 in the site style, and API clients still with JSON', async () => {
    const page = await app.request({ path: '/no/such/page', headers: BROWSER });
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Page not found');
    const api = await app.request({ path: '/no/such/page', headers: { accept: 'application/json' } });
    expect(api.json).toMatchObject({ code: 'rest_not_found' });
  });

  it('styles every page from one cacheable stylesheet, with no inline style the CSP would have to allow', async () => {
    const pages = ['/', '/login', '/login/lost-password', '/no/such/page'];
    let href = '';
    for (const path of pages) {
      const res = await app.request({ path, headers: BROWSER });
      expect(res.headers['content-security-policy']).toContain("style-src 'self';");
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.text).not.toMatch(/<style|\sstyle=/i);
      const link = /<link rel="stylesheet" href="(\/assets\/siteward-[0-9a-f]{12}\.css)">/.exec(res.text);
      expect(link, path).not.toBeNull();
      href ||= link![1]!;
      expect(link![1]).toBe(href);
      expect(res.text).toContain('<header class="sw-page-brand">');
      // The features' pages too: the HTTP adapter fills in the name simplePage leaves for it.
      expect(res.text).toContain('Acme Widgets</span>');
      expect(res.text).not.toContain('sw-site-default');
    }
    const css = await app.request({ path: href, headers: { accept: 'text/css' } });
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.text).toContain('--sw-accent: #2271b1');
    expect(css.text).toContain('@media (prefers-color-scheme: dark)');
    expect((await app.request({ path: '/assets/siteward-000000000000.css', headers: { accept: 'text/css' } })).status).toBe(404);
  });

  it('shows the site name, tagline and links to log in and to the dashboard on the home page', async () => {
    const res = await app.request({ path: '/', headers: BROWSER });
    expect(res.text).toContain('<h1>Acme Widgets</h1>');
    expect(res.text).toContain('Fine widgets since 1999');
    expect(res.text).toContain('href="/login"');
    expect(res.text).toContain('href="/admin/"');
  });

  it('says a used setup link is used, in a page, and the login page after setup says the administrator exists', async () => {
    const token = (await ensureSetupToken(app.store))!;
    const body = new URLSearchParams({ token, login: 'boss', email: 'boss@example.org', password: 'long-enough-pw' }).toString();
    const done = await app.request({
      method: 'POST',
      path: '/setup',
      headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
      body,
    });
    expect(done.status).toBe(302);
    const login = await app.request({ path: done.headers.location!, headers: BROWSER });
    expect(login.text).toContain('The administrator account was created');
    const used = await app.request({ path: `/setup?token=${token}`, headers: BROWSER });
    expect(used.status).toBe(404);
    expect(used.headers['content-type']).toMatch(/^text\/html/);
    expect(used.text).toContain('already set up');
  });
});
