import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSetupToken } from '../auth/setup-token.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import { htmlPage, type Feature } from '../features/contract.js';
import { builtInFeatures } from '../features/index.js';

/** The inline scripts of a page, by hash, as a browser enforcing the CSP would check them. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
}

describe('a page whose content carries an injected inline script (an escaping mistake)', () => {
  const injected = '<script>document.title = "owned"</script>';
  let app: TestApp;
  beforeAll(async () => {
    const leaky: Feature = {
      name: 'leaky',
      register: (ctx) => ctx.addPage({ method: 'GET', path: '/leaky', handle: async () => htmlPage(200, `<p>${injected}</p>`) }),
    };
    app = await createTestApp({ features: [...builtInFeatures, leaky] });
  });
  afterAll(() => app.close());

  it('does not allow that script: the policy never comes from the rendered page', async () => {
    const res = await app.request({ path: '/leaky' });
    expect(res.text).toContain(injected);
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers['content-security-policy']!)![1]!.trim().split(/\s+/);
    expect(scriptSrc).toEqual(["'self'"]);
    expect(scriptSrc).not.toContain(inlineScriptHashes(res.text)[0]);
  });
});

describe('HTML pages', () => {
  let app: TestApp;
  let admin: LoggedIn;
  let setupToken: string;
  beforeAll(async () => {
    app = await createTestApp();
    setupToken = (await ensureSetupToken(app.store))!;
    admin = await app.loginAs('editor');
  });
  afterAll(() => app.close());

  const pages = () =>
    [
      ['/', {}],
      ['/login', {}],
      [`/setup?token=${setupToken}`, {}],
      ['/admin/', { Cookie: admin.cookie }],
    ] as const;

  it('carry nosniff, a same-origin referrer policy and no framing', async () => {
    for (const [path, headers] of pages()) {
      const res = await app.request({ path, headers });
      expect(res.status, path).toBe(200);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('same-origin');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    }
  });

  it('allow scripts from this origin only, nothing inline', async () => {
    // The admin page sets its own policy, by nonce: the next test.
    for (const [path, headers] of pages().filter(([p]) => p !== '/admin/')) {
      const res = await app.request({ path, headers });
      const csp = res.headers['content-security-policy']!;
      expect(/script-src ([^;]*)/.exec(csp)![1]!.trim(), path).toBe("'self'");
    }
  });

  it('give the admin page its inline script by a per-response nonce, and nothing inline besides', async () => {
    const res = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers['content-security-policy']!)![1]!.trim().split(/\s+/);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const nonces = scriptSrc.filter((s) => s.startsWith("'nonce-"));
    expect(scriptSrc.sort()).toEqual(["'self'", ...nonces].sort());
    expect(nonces).toHaveLength(1);
    const inline = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (m) => !/\ssrc=/.test(m[1]!) && m[2]!.trim() !== '',
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const m of inline) expect(m[1]).toContain(`nonce="${nonces[0]!.slice(7, -1)}"`);
  });
});

describe('POST /logout', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const stillLoggedIn = async (user: LoggedIn) => (await app.request({ path: '/admin/', headers: { Cookie: user.cookie } })).status === 200;
  const form = 'application/x-www-form-urlencoded';

  it('refuses a cross-site form post and keeps the session', async () => {
    const user = await app.loginAs('editor');
    const res = await app.request({
      method: 'POST',
      path: '/logout',
      headers: { Cookie: user.cookie, origin: 'https://evil.example', 'content-type': form },
      body: '',
    });
    expect(res.status).toBe(403);
    expect(await stillLoggedIn(user)).toBe(true);
  });

  it('refuses a post with neither Origin nor nonce', async () => {
    const user = await app.loginAs('editor');
    const res = await app.request({ method: 'POST', path: '/logout', headers: { Cookie: user.cookie, 'content-type': form }, body: '' });
    expect(res.status).toBe(403);
    expect(await stillLoggedIn(user)).toBe(true);
  });

  it('logs out a same-origin form post', async () => {
    const user = await app.loginAs('editor');
    const res = await app.request({
      method: 'POST',
      path: '/logout',
      headers: { Cookie: user.cookie, origin: 'http://example.org', 'content-type': form },
      body: '',
    });
    expect(res.status).toBe(302);
    expect(await stillLoggedIn(user)).toBe(false);
  });

  it('logs out with the admin page log-out form and its nonce, without Origin', async () => {
    const user = await app.loginAs('administrator');
    const page = await app.request({ path: '/admin/', headers: { Cookie: user.cookie } });
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.text)![1]!;
    const res = await app.request({
      method: 'POST',
      path: '/logout',
      headers: { Cookie: user.cookie, 'content-type': form },
      body: `_wpnonce=${nonce}`,
    });
    expect(res.status).toBe(302);
    expect(await stillLoggedIn(user)).toBe(false);
  });
});
