/**
 * The admin page (`/admin/`): an HTML shell carrying `window.Initial_State` (docs/spec/site-management-api.md §5 rule 3;
 * docs/spec/jetpack-v4-reference.md §11), for logged-in users only, and the built React app (src/admin,
 * served from /admin/assets/) that drives the public REST API with the cookie and nonce.
 */
import { htmlPage, redirect, type Feature } from '../contract.js';
import { ADMIN_ASSETS_PREFIX, ADMIN_BUILD_DIR, adminBundleSource } from './admin-bundle.js';
import { adminPageCsp, adminPageTemplate } from './admin-page-html.js';
import { createAdminPageCache } from './admin-page-cache.js';
import { cspNonce as newCspNonce } from './csp-nonce.js';
import { ENROL_PATH } from '../two-factor/index.js';

export const adminPageFeature: Feature = {
  name: 'admin-page',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const connection = ctx.need('connection');
    const twoFactor = ctx.need('twoFactor');
    const { authenticator } = ctx.auth;
    const bundle = adminBundleSource();
    const pages = createAdminPageCache();
    const store = ctx.store;
    // Hashed file names: a new build means new names, so a year of caching is safe.
    ctx.addAssets({
      urlPrefix: ADMIN_ASSETS_PREFIX,
      dir: `${ADMIN_BUILD_DIR}/assets`,
      cacheControl: 'public, max-age=31536000, immutable',
    });
    ctx.addPage({ method: 'GET', path: '/admin', handle: async () => redirect('/admin/', 301) });
    ctx.addPage({
      method: 'GET',
      path: '/admin/',
      async handle(req) {
        const identity = await req.identity();
        if (identity.kind !== 'cookie') return redirect(`/login?redirect_to=${encodeURIComponent('/admin/')}`);
        // A role that must use two-factor reaches the dashboard only once enrolled.
        if (await twoFactor.mustEnrol(identity.principal.id, identity.principal.roles))
          return redirect(`${ENROL_PATH}?redirect_to=${encodeURIComponent('/admin/')}`);
        const user = identity.principal;
        const built = bundle();
        // Everything the page shows besides the per-response parts (see admin-page-cache.ts); the tick sample is the one GET /module/all uses.
        const tick = authenticator.nonces.create('jetpack_activate-list', user.id, '');
        const key = `${await store.options.version()}|${await store.sessions.credentialsVersion()}|${tick}|${req.restRoot}|${user.login}|${user.email}|${user.roles.join(',')}`;
        const template = await pages.get(user.id, key, built, async () => {
          const state = await jetpack.initialState({ user, nonce: '' });
          return adminPageTemplate({ initialState: { ...state, WP_API_root: req.restRoot }, userLogin: user.login, bundle: built });
        });
        // After a login at the account service (`/connect/callback` redirects here with a code).
        const notice = connection.noticeFor(req.query.connection);
        const cspNonce = newCspNonce();
        const body = template.fill({
          restNonce: authenticator.createNonce('wp_rest', identity),
          logoutNonce: authenticator.createNonce('log-out', identity),
          cspNonce,
          notice,
        });
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
