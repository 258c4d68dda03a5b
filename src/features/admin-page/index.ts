/**
 * The admin page (`/admin/`): an HTML shell carrying `window.Initial_State` (docs/spec/site-management-api.md §5 rule 3;
 * docs/spec/jetpack-v4-reference.md §11), for logged-in users only, and the built React app (src/admin,
 * served from /admin/assets/) that drives the public REST API with the cookie and nonce.
 */
import { randomBytes } from 'node:crypto';
import { htmlPage, redirect, type Feature } from '../contract.js';
import { ADMIN_ASSETS_PREFIX, ADMIN_BUILD_DIR, adminBundleSource } from './admin-bundle.js';
import { adminPage, adminPageCsp } from './admin-page-html.js';
import { ENROL_PATH } from '../two-factor/enrol-page.js';

export const adminPageFeature: Feature = {
  name: 'admin-page',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const connection = ctx.need('connection');
    const twoFactor = ctx.need('twoFactor');
    const { authenticator } = ctx.auth;
    const bundle = adminBundleSource();
    // Hashed file names: a new build means new names, so a year of caching is safe.
    ctx.addAssets({ urlPrefix: ADMIN_ASSETS_PREFIX, dir: `${ADMIN_BUILD_DIR}/assets`, cacheControl: 'public, max-age=31536000, immutable' });
    ctx.addPage({ method: 'GET', path: '/admin', handle: async () => redirect('/admin/', 301) });
    ctx.addPage({
      method: 'GET',
      path: '/admin/',
      async handle(req) {
        const identity = await req.identity();
        if (identity.kind !== 'cookie') return redirect(`/login?redirect_to=${encodeURIComponent('/admin/')}`);
        // A role that must use two-factor reaches the dashboard only once enrolled.
        if (await twoFactor.mustEnrol(identity.principal.id, identity.principal.roles)) return redirect(`${ENROL_PATH}?redirect_to=${encodeURIComponent('/admin/')}`);
        const nonce = authenticator.createNonce('wp_rest', identity);
        const state = await jetpack.initialState({ user: identity.principal, nonce });
        // After a login at the account service (`/connect/callback` redirects here with a code).
        const notice = connection.noticeFor(req.query.connection);
        const cspNonce = randomBytes(16).toString('base64');
        const logoutNonce = authenticator.createNonce('log-out', identity);
        const body = adminPage({ initialState: { ...state, WP_API_root: req.restRoot }, userLogin: identity.principal.login, notice, logoutNonce, nonce: cspNonce, bundle: bundle() });
        return htmlPage(200, body, {
          'Content-Security-Policy': adminPageCsp(cspNonce),
          'X-Frame-Options': 'DENY',
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'same-origin',
        });
      },
    });
  },
};
