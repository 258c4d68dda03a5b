/**
 * The admin page (`/admin/`): an HTML shell carrying `window.Initial_State` (docs/spec/site-management-api.md §5 rule 3;
 * docs/spec/jetpack-v4-reference.md §11), for logged-in users only. It drives the public REST API.
 */
import { htmlPage, redirect, type Feature } from '../contract.js';
import { adminPage } from './admin-page-html.js';

export const adminPageFeature: Feature = {
  name: 'admin-page',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const connection = ctx.need('connection');
    const { authenticator } = ctx.auth;
    ctx.addPage({ method: 'GET', path: '/admin', handle: async () => redirect('/admin/', 301) });
    ctx.addPage({
      method: 'GET',
      path: '/admin/',
      async handle(req) {
        const identity = await req.identity();
        if (identity.kind !== 'cookie') return redirect(`/login?redirect_to=${encodeURIComponent('/admin/')}`);
        const nonce = authenticator.createNonce('wp_rest', identity);
        const state = await jetpack.initialState({ user: identity.principal, nonce });
        // After a login at the account service (`/connect/callback` redirects here with a code).
        const notice = connection.noticeFor(req.query.connection);
        const logoutNonce = authenticator.createNonce('log-out', identity);
        const body = adminPage({ initialState: { ...state, WP_API_root: req.restRoot }, userLogin: identity.principal.login, logoutNonce, notice });
        return htmlPage(200, body);
      },
    });
  },
};
