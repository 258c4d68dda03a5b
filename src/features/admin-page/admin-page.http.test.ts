/**
 * The admin page's HTML and assets over HTTP (no browser): its security headers, the one
 * inline script (Initial_State) carrying the CSP nonce, what the HTML holds, and the built
 * assets' caching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { readAdminBundle } from './admin-bundle.js';
import { stateKeys } from '../jetpack/index.js';

/** The page's Initial_State, CSP nonce, script nonce, logout nonce and shown login. */
function pageParts(res: { text: string; headers: Record<string, string | undefined> }) {
  const state = JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(res.text)![1]!) as Record<string, unknown> & {
    getModules: Record<string, { activated: boolean; activate_nonce: string }>;
    userData: { currentUser: { username: string } };
  };
  return {
    state,
    csp: /'nonce-([^']+)'/.exec(res.headers['content-security-policy'] ?? '')?.[1],
    scriptNonce: /<script nonce="([^"]+)">/.exec(res.text)?.[1],
    logoutNonce: /name="_wpnonce" value="([^"]+)"/.exec(res.text)?.[1],
    shownLogin: /<span>([^<]*)<\/span> <button/.exec(res.text)?.[1],
  };
}

let app: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  app = await createTestApp();
  admin = await app.loginAs('administrator');
});
afterAll(() => app.close());

describe('/admin/', () => {
  it('sends a strict CSP whose nonce is on the Initial_State script only, and refuses framing', async () => {
    const res = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'] ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    expect(nonce).not.toBe('');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    const inline = scripts.filter((attrs) => !attrs.includes('src='));
    expect(inline).toEqual([` nonce="${nonce}"`]);
    expect(res.text).toMatch(new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">var Initial_State = `));
    // A new nonce each time.
    const again = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(again.headers['content-security-policy']).not.toContain(nonce);
  });

  it('shows a change of the stored state or of the user on the very next request', async () => {
    const page = async () => pageParts(await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } }));
    const before = await page();
    expect(before.state.getModules.markdown!.activated).toBe(false);
    // Through the REST API (an option write).
    const on = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/markdown/active',
      headers: { ...app.auth(admin), 'Content-Type': 'application/json' },
      body: JSON.stringify({ active: true }),
    });
    expect(on.status).toBe(200);
    const after = await page();
    expect(after.state.getModules.markdown!.activated).toBe(true);
    // Straight into the store (as another worker or the CLI would).
    await app.store.options.set(stateKeys.jumpstart, 'jumpstart_dismissed');
    expect((await page()).state.showJumpstart).toBe('');
    await app.store.options.set(stateKeys.jumpstart, 'new_connection');
    expect((await page()).state.showJumpstart).toBe('1');
    // The user's roles (the credentials version): an editor may not manage modules.
    const editor = await app.loginAs('administrator', { login: 'soon-editor' });
    const asAdmin = pageParts(await app.request({ path: '/admin/', headers: { Cookie: editor.cookie } }));
    expect(
      (asAdmin.state.userData as unknown as { currentUser: { permissions: { manage_options: boolean } } }).currentUser.permissions
        .manage_options,
    ).toBe(true);
    await app.store.users.setRoles(editor.userId, ['editor']);
    const asEditor = pageParts(await app.request({ path: '/admin/', headers: { Cookie: editor.cookie } }));
    expect(
      (asEditor.state.userData as unknown as { currentUser: { permissions: { manage_options: boolean } } }).currentUser.permissions
        .manage_options,
    ).toBe(false);
  });

  it('gives each user their own login, nonces and module list, and each response its own CSP nonce', async () => {
    const other = await app.loginAs('administrator', { login: 'second-admin' });
    const mine = pageParts(await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } }));
    const theirs = pageParts(await app.request({ path: '/admin/', headers: { Cookie: other.cookie } }));
    const mineAgain = pageParts(await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } }));
    expect(mine.shownLogin).toBe(admin.login);
    expect(theirs.shownLogin).toBe('second-admin');
    expect(mine.state.userData.currentUser.username).toBe(admin.login);
    expect(theirs.state.userData.currentUser.username).toBe('second-admin');
    expect(mine.state.WP_API_nonce).toBe(admin.nonce);
    expect(theirs.state.WP_API_nonce).toBe(other.nonce);
    expect(mine.logoutNonce).not.toBe(theirs.logoutNonce);
    expect(mine.logoutNonce).toBe(mineAgain.logoutNonce);
    expect(mine.state.getModules.markdown!.activate_nonce).not.toBe(theirs.state.getModules.markdown!.activate_nonce);
    for (const p of [mine, theirs, mineAgain]) expect(p.scriptNonce).toBe(p.csp);
    expect(new Set([mine.csp, theirs.csp, mineAgain.csp]).size).toBe(3);
    // A per-request part: the ?connection= notice shows only where asked for.
    const noticed = await app.request({ path: '/admin/?connection=access_denied', headers: { Cookie: admin.cookie } });
    expect(noticed.text).toContain('id="connection-notice"');
    expect((await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } })).text).not.toContain('id="connection-notice"');
  });

  it('holds no secret beyond the REST nonce', async () => {
    const res = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    const state = JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(res.text)![1]!) as Record<string, unknown>;
    const text = res.text.toLowerCase();
    for (const word of [
      'test-secret',
      admin.password.toLowerCase(),
      'client_secret',
      'access_token',
      'refresh_token',
      admin.cookie.split('=')[1]!.toLowerCase(),
    ])
      expect(text).not.toContain(word);
    expect(state.WP_API_nonce).toMatch(/^[0-9a-f]{10}$/);
  });

  it('links the built app with hashed names, served for a year and immutable', async () => {
    const bundle = readAdminBundle();
    expect(bundle, 'npm run build makes dist/admin').not.toBeNull();
    const res = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
    expect(res.text).toContain(`<script type="module" src="${bundle!.script}"></script>`);
    for (const file of [bundle!.script, ...bundle!.styles]) {
      expect(file).toMatch(/^\/admin\/assets\/[\w.-]+-[\w-]{8}\.(js|css)$/);
      const asset = await app.request({ path: file });
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await app.request({ path: '/admin/assets/..%2Fmanifest.json' })).status).toBe(404);
    expect((await app.request({ path: '/admin/assets/nothing-here.js' })).status).toBe(404);
  });

  it('keeps the ?connection= notice in the HTML, for the app to take over', async () => {
    const res = await app.request({ path: '/admin/?connection=access_denied', headers: { Cookie: admin.cookie } });
    expect(res.text).toMatch(/<div id="connection-notice" class="notice notice-error" role="status">/);
  });

  it('sends a visitor without a login to the login page', async () => {
    const res = await app.request({ path: '/admin/' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?redirect_to=%2Fadmin%2F');
  });
});
