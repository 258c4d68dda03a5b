/**
 * Cookie login for people: `/login` (form and JSON; the form's proof-of-work challenge after a
 * few failures and its two-factor second step), `/logout`, the first-run `/setup`, the nonce
 * refresh @wordpress/api-fetch calls (`/wp-admin/admin-ajax.php?action=rest-nonce`), and the
 * WordPress paths people type or bookmark (`/wp-admin/`, `/wp-login.php`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { UserRecord } from '../../store/types.js';
import { redirect, type Feature, type PageRequest, type PageResponse } from '../contract.js';
import { featureDb } from '../db/feature-db.js';
import { loginChallenge } from './challenge.js';
import { ALTCHA_ASSETS_PREFIX, ALTCHA_WORKERS_PREFIX, CHALLENGE_SCRIPT, CHALLENGE_SCRIPT_PATH } from './login-page-html.js';
import { loginPages } from './login-pages.js';
import { pendingLogins } from './pending-login.js';
import { USED_TOKENS_MIGRATION_NAME, UsedTokens, usedTokensMigration, type UsedTokensTables } from './used-tokens.js';

/** The widget package's `dist/external` (no bundled workers, styles as a file: what a strict CSP needs). */
const ALTCHA_EXTERNAL_DIR = dirname(createRequire(import.meta.url).resolve('altcha/altcha.css'));

/**
 * Another way to log in, offered under the login form (e.g. "Log in with <provider>" of the
 * `sso` feature): already-escaped HTML, or null when it is not offered for this request.
 */
export type SignInOption = (request: PageRequest, redirectTo: string) => Promise<string | null>;

/** What the login feature offers features registered after it. */
export interface LoginHandle {
  addSignInOption(option: SignInOption): void;
  /**
   * Ends a login whose first factor was checked elsewhere (the `sso` feature, once the account
   * service vouched for the user): the site's own second step as after a password (the code
   * page when the user has two-factor; enrolment first when their role requires it), then the
   * session and the same-site `redirectTo`.
   */
  finishLogin(request: PageRequest, user: UserRecord, options: { redirectTo: string; remember?: boolean }): Promise<PageResponse>;
}

declare module '../contract.js' {
  interface FeatureServices {
    login: LoginHandle;
  }
}

export const loginFeature: Feature = {
  name: 'login',
  migrations: { [USED_TOKENS_MIGRATION_NAME]: usedTokensMigration },
  register(ctx) {
    const used = new UsedTokens(featureDb<UsedTokensTables>(ctx.store));
    const keys = { encryptionKey: ctx.secrets.encryptionKey, used, clock: ctx.clock };
    const signInOptions: SignInOption[] = [];
    const pages = loginPages({
      homeUrl: ctx.site.homeUrl,
      store: ctx.store,
      authenticator: ctx.auth.authenticator,
      signInOptions,
      mailConfigured: Boolean(ctx.config.smtpUrl),
      twoFactor: ctx.need('twoFactor'),
      challenge: loginChallenge(keys),
      pending: pendingLogins(keys),
    });
    ctx.provide('login', { addSignInOption: (option) => void signInOptions.push(option), finishLogin: pages.finishLogin });
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
      ctx.addPage({
        method,
        path: '/wp-login.php',
        crossSiteCheck: 'page',
        handle: async (req) => redirect(`/login${req.search}`, method === 'POST' ? 307 : 302),
      });
    }
    // The challenge widget, from this origin (no third-party request; the login page's CSP allows only 'self' scripts and workers).
    ctx.addAssets({ urlPrefix: ALTCHA_ASSETS_PREFIX, dir: ALTCHA_EXTERNAL_DIR });
    ctx.addAssets({ urlPrefix: ALTCHA_WORKERS_PREFIX, dir: join(ALTCHA_EXTERNAL_DIR, '..', 'workers') });
    ctx.addPage({
      method: 'GET',
      path: CHALLENGE_SCRIPT_PATH,
      handle: async () => ({
        status: 200,
        headers: { 'Content-Type': 'text/javascript; charset=UTF-8', 'Cache-Control': 'public, max-age=3600' },
        body: CHALLENGE_SCRIPT,
      }),
    });
    ctx.addJob({ name: 'login-used-tokens-purge', everyMs: 3_600_000, run: async () => void (await used.purge(ctx.clock())) });
  },
};
