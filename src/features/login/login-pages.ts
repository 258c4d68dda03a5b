/**
 * `/login`, `/logout`, `/setup` and the nonce refresh of @wordpress/api-fetch, as pages on
 * the feature contract: each handler takes a framework-free `PageRequest` and returns a
 * `PageResponse`. The login form uses WordPress's field names (`log`, `pwd`, `rememberme`,
 * `redirect_to`); a JSON body (`username`, `password`, `remember`) gets a JSON answer.
 */
import { refusalError, type SitewardAuthenticator } from '../../auth/authenticator.js';
import { authError } from '../../auth/errors.js';
import { clearLoginCookieHeader, LOGIN_COOKIE_NAME, loginCookieHeader, readCookie } from '../../auth/login-cookie.js';
import { newPasswordProblem } from '../../auth/password-strength.js';
import { checkSetupToken, completeSetup, setupNeeded } from '../../auth/setup-token.js';
import { escapeHtml } from '../../core/html.js';
import { phpTruthy } from '../../core/php.js';
import { simplePage } from '../../core/simple-page.js';
import { errorHeaders, errorResponse } from '../../rest/error-response.js';
import { restError } from '../../rest/errors.js';
import { mediaType } from '../../rest/request-body.js';
import { isSameOrigin } from '../../rest/same-origin.js';
import type { Identity } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { formTokenInput, htmlPage, jsonPage, notFound, redirect, type PageRequest, type PageResponse } from '../contract.js';
import { keyOf } from '../protect/protect-policy.js';
import { unlockOffer } from '../protect/unlock-html.js';
import { loginPage, setupPage } from './login-page-html.js';

export interface LoginPageDeps {
  readonly homeUrl: string;
  readonly store: Store;
  readonly authenticator: SitewardAuthenticator;
  /** Other ways to log in, shown under the form (index.ts `SignInOption`); read per request. */
  readonly signInOptions?: readonly ((request: PageRequest, redirectTo: string) => Promise<string | null>)[];
  /** SMTP is configured: a blocked person may ask for an unlock link. */
  readonly mailConfigured: boolean;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function wantsJson(req: PageRequest): boolean {
  return mediaType(req.headers['content-type']) === 'application/json';
}

/**
 * Only same-origin redirect targets. The decision is made on what a browser will do with the
 * Location header: the WHATWG parser drops tabs and newlines and treats `\\` like `/`, so
 * `/\t/evil.com` or `/.//evil.com` would leave the site if checked as strings. The answer is
 * re-serialized from the parsed URL and parsed once more, so what is sent is what was checked.
 */
export function safeRedirect(target: string, homeUrl: string): string | null {
  if (target === '') return null;
  const base = new URL(homeUrl);
  const sameOrigin = (value: string): URL | null => {
    try {
      const url = new URL(value, base);
      return url.origin === base.origin ? url : null;
    } catch {
      return null;
    }
  };
  const parsed = sameOrigin(target);
  if (!parsed) return null;
  const path = parsed.pathname + parsed.search + parsed.hash;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return sameOrigin(path) ? path : null;
}


const SETUP_LINK_NEEDED = 'This page needs the setup link printed by <code>siteward start</code>.';

/** The pages' handlers, by method and path. */
export function loginPages(deps: LoginPageDeps) {
  const { homeUrl, store, authenticator } = deps;

  /** The HTML of the other ways to log in that apply to this request. */
  const alternatives = async (req: PageRequest, redirectTo: string): Promise<string[]> => {
    const shown = await Promise.all((deps.signInOptions ?? []).map((option) => option(req, redirectTo)));
    return shown.filter((html): html is string => html !== null);
  };

  const showLogin = async (req: PageRequest): Promise<PageResponse> => {
    const q = req.query;
    const notice = q.loggedout ? 'You are now logged out.' : q.setup === 'done' ? 'The administrator account was created. Log in with it to continue.' : q.password_reset === 'done' ? 'Your password has been reset. Log in with the new one.' : undefined;
    const redirectTo = str(q.redirect_to);
    return htmlPage(200, loginPage({ formField: formTokenInput(req), redirectTo, notice, alternatives: await alternatives(req, redirectTo) }));
  };

  const submitLogin = async (req: PageRequest): Promise<PageResponse> => {
    const body = req.body;
    const json = wantsJson(req);
    const login = str(json ? body.username : body.log).trim();
    const password = str(json ? body.password : body.pwd);
    const remember = phpTruthy(json ? body.remember : body.rememberme);
    const result = await authenticator.login(login, password, { remember, userAgent: str(req.headers['user-agent']), ip: req.ip, via: json ? 'login-json' : 'login-form' });
    if (!result.ok) {
      const error = result.error === 'refused' ? refusalError(result.refusal) : authError('invalid_login');
      if (json) return errorResponse(error);
      const redirectTo = str(body.redirect_to);
      // A blocked address gets its way back on the 429 page.
      const after = error.status === 429 ? unlockOffer({ formField: formTokenInput(req), mail: deps.mailConfigured, address: keyOf(req.ip), login }) : undefined;
      return htmlPage(error.status, loginPage({ formField: formTokenInput(req), redirectTo, error: error.message, login, alternatives: await alternatives(req, redirectTo), after }), errorHeaders(error));
    }
    const cookie = { 'Set-Cookie': loginCookieHeader(result.cookie, { expiresAt: result.expiresAt, remember, secure: req.origin.secure }) };
    if (json) {
      const nonce = authenticator.createNonce('wp_rest', result.identity);
      return jsonPage(200, { id: result.user.id, login: result.user.login, nonce, restRoot: req.restRoot }, cookie);
    }
    const to = redirect(safeRedirect(str(body.redirect_to), homeUrl) ?? '/admin/');
    return { ...to, headers: { ...to.headers, ...cookie } };
  };

  /**
   * No cross-site logout: a browser sends `Origin` with every POST, so a same-origin one is
   * enough; without it (older clients, scripts) a `log-out` nonce (`_wpnonce`, as WordPress's
   * logout link) or the REST nonce (`X-WP-Nonce`) proves the request came from a page of ours.
   */
  const logoutAllowed = (req: PageRequest, identity: Identity): boolean => {
    if (identity.kind !== 'cookie') return true;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') return isSameOrigin(origin, req.origin, homeUrl);
    const formNonce = str(req.body._wpnonce) || str(req.query._wpnonce);
    if (formNonce && authenticator.verifyNonce(formNonce, 'log-out', identity) !== false) return true;
    const restNonce = str(req.headers['x-wp-nonce']);
    return restNonce !== '' && authenticator.verifyNonce(restNonce, 'wp_rest', identity) !== false;
  };

  const logout = async (req: PageRequest): Promise<PageResponse> => {
    const value = readCookie(req.headers.cookie, LOGIN_COOKIE_NAME);
    if (value) {
      const identity = await authenticator.identify(req.headers);
      if (!logoutAllowed(req, identity)) {
        if (wantsJson(req)) return errorResponse(restError('rest_cookie_invalid_nonce'));
        return htmlPage(403, simplePage('Log out', '<p>This log-out request did not come from this site. <a href="/admin/">Back to the dashboard</a>.</p>'));
      }
      await authenticator.logout(value);
    }
    const cookie = { 'Set-Cookie': clearLoginCookieHeader({ secure: req.origin.secure }) };
    if (wantsJson(req)) return jsonPage(200, { loggedOut: true }, cookie);
    const to = redirect('/login?loggedout=true');
    return { ...to, headers: { ...to.headers, ...cookie } };
  };

  // @wordpress/api-fetch refreshes its nonce here; cookie login only, never with CORS headers.
  const nonceRefresh = async (req: PageRequest): Promise<PageResponse> => {
    const identity = await authenticator.identify(req.headers);
    const plain = { 'Content-Type': 'text/plain; charset=UTF-8' };
    if (req.query.action !== 'rest-nonce' || identity.kind !== 'cookie') {
      return { status: req.query.action === 'rest-nonce' ? 403 : 400, headers: plain, body: '0' };
    }
    return { status: 200, headers: { ...plain, 'Cache-Control': 'no-store' }, body: authenticator.createNonce('wp_rest', identity) };
  };

  /** A setup token attempt from `ip`, through the password guards; a refusal (too many attempts) is an error page. */
  const checkToken = async (token: string, ip: string): Promise<true | PageResponse> => {
    const checked = token === '' ? { ok: false } : await authenticator.guards.around({ via: 'setup', login: '', ip }, async () => ({ ok: await checkSetupToken(store, token) }));
    if ('refused' in checked) {
      const error = refusalError(checked.refused);
      return htmlPage(error.status, simplePage('Setup', escapeHtml(error.message)), errorHeaders(error));
    }
    return checked.ok ? true : htmlPage(403, simplePage('Setup', SETUP_LINK_NEEDED));
  };

  const showSetup = async (req: PageRequest): Promise<PageResponse> => {
    // A used setup link (or a bookmark of it) says so, in a page rather than an API error.
    if (!(await setupNeeded(store))) return htmlPage(404, simplePage('Setup', '<p>This site is already set up: its administrator exists, so this setup link no longer works.</p><p><a href="/login">Log in</a></p>'));
    const token = str(req.query.token);
    const checked = await checkToken(token, req.ip);
    if (checked !== true) return checked;
    return htmlPage(200, setupPage({ formField: formTokenInput(req), token }));
  };

  const submitSetup = async (req: PageRequest): Promise<PageResponse> => {
    if (!(await setupNeeded(store))) return notFound();
    const token = str(req.body.token);
    const checked = await checkToken(token, req.ip);
    if (checked !== true) return checked;
    const input = { login: str(req.body.login).trim(), email: str(req.body.email).trim(), password: str(req.body.password) };
    const weak = await newPasswordProblem(input.password, [input.login, input.email]);
    if (weak) return htmlPage(400, setupPage({ formField: formTokenInput(req), token, error: weak.message, login: input.login, email: input.email }));
    const result = await completeSetup(store, token, input);
    if (!result.ok) return htmlPage(400, setupPage({ formField: formTokenInput(req), token, error: result.error.message, login: input.login, email: input.email }));
    return redirect('/login?redirect_to=%2Fadmin%2F&setup=done');
  };

  return { showLogin, submitLogin, logout, nonceRefresh, showSetup, submitSetup };
}
