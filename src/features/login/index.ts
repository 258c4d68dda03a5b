/**
 * Cookie login for people: `/login` (form and JSON), `/logout`, the first-run `/setup`, the
 * nonce refresh @wordpress/api-fetch calls (`/wp-admin/admin-ajax.php?action=rest-nonce`), and
 * the WordPress paths people type or bookmark (`/wp-admin/`, `/wp-login.php`).
 */
import { redirect, type Feature, type PageRequest } from '../contract.js';
import { loginPages } from './login-pages.js';

/**
 * Another way to log in, offered under the login form (e.g. "Log in with <provider>" of the
 * `sso` feature): already-escaped HTML, or null when it is not offered for this request.
 */
export type SignInOption = (request: PageRequest, redirectTo: string) => Promise<string | null>;

/** What the login feature offers features registered after it. */
export interface LoginHandle {
  addSignInOption(option: SignInOption): void;
}

declare module '../contract.js' {
  interface FeatureServices {
    login: LoginHandle;
  }
}

export const loginFeature: Feature = {
  name: 'login',
  register(ctx) {
    const signInOptions: SignInOption[] = [];
    const pages = loginPages({ homeUrl: ctx.site.homeUrl, store: ctx.store, authenticator: ctx.auth.authenticator, signInOptions, mailConfigured: Boolean(ctx.config.smtpUrl) });
    ctx.provide('login', { addSignInOption: (option) => void signInOptions.push(option) });
    ctx.addPage({ method: 'GET', path: '/login', handle: pages.showLogin });
    ctx.addPage({ method: 'POST', path: '/login', handle: pages.submitLogin });
    // Logout checks its own nonce when no Origin says where it came from.
    ctx.addPage({ method: 'POST', path: '/logout', crossSiteCheck: 'page', handle: pages.logout });
    ctx.addPage({ method: 'GET', path: '/setup', handle: pages.showSetup });
    ctx.addPage({ method: 'POST', path: '/setup', handle: pages.submitSetup });
    ctx.addPage({ method: 'GET', path: '/wp-admin/admin-ajax.php', handle: pages.nonceRefresh });
    for (const path of ['/wp-admin', '/wp-admin/']) ctx.addPage({ method: 'GET', path, handle: async () => redirect('/admin/') });
    // 307 keeps a POSTed login form a POST.
    for (const method of ['GET', 'POST'] as const) {
      ctx.addPage({ method, path: '/wp-login.php', crossSiteCheck: 'page', handle: async (req) => redirect(`/login${req.search}`, method === 'POST' ? 307 : 302) });
    }
  },
};
