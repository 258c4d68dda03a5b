/**
 * `/login`, `/logout`, `/setup` and the nonce refresh of @wordpress/api-fetch, as pages on
 * the feature contract: each handler takes a framework-free `PageRequest` and returns a
 * `PageResponse`. The login form uses WordPress's field names (`log`, `pwd`, `rememberme`,
 * `redirect_to`); a JSON body (`username`, `password`, `remember`) gets a JSON answer.
 */
import { secondFactorFailure } from '../../auth/password-guards.js';
import { refusalError, type LoginWithIdentity, type SitewardAuthenticator } from '../../auth/authenticator.js';
import { authError } from '../../auth/errors.js';
import { requestTrace } from '../../auth/app-passwords.js';
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
import { keyOf, unlockOffer } from '../protect/index.js';
import { loginPage, MODE_FIELD, setupPage, twoFactorPage, type TwoFactorMode } from './login-page-html.js';
import { CHALLENGE_FIELD, type LoginChallenge } from './challenge.js';
import { CODE_FIELD, PENDING_FIELD, type PendingLogins } from './pending-login.js';
import { ENROL_PATH, type TwoFactorService } from '../two-factor/index.js';
import type { UserRecord } from '../../store/types.js';
import { safeRedirect } from '../../core/safe-redirect.js';
import { auditEvent, pageSource } from '../audit/index.js';

export { safeRedirect };

export interface LoginPageDeps {
  readonly homeUrl: string;
  readonly store: Store;
  readonly authenticator: SitewardAuthenticator;
  /** Other ways to log in, shown under the form (index.ts `SignInOption`); read per request. */
  readonly signInOptions?: readonly ((request: PageRequest, redirectTo: string) => Promise<string | null>)[];
  /** SMTP is configured: a blocked person may ask for an unlock link. */
  readonly mailConfigured: boolean;
  readonly twoFactor: TwoFactorService;
  readonly challenge: LoginChallenge;
  readonly pending: PendingLogins;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The request's address, user agent and id, for the audit events of a login or logout. */
function traceOf(req: PageRequest): { ip: string; userAgent: string; requestId: string } {
  return { ip: req.ip, ...requestTrace(req.headers) };
}

function wantsJson(req: PageRequest): boolean {
  return mediaType(req.headers['content-type']) === 'application/json';
}

const SETUP_LINK_NEEDED = 'This page needs the setup link printed by <code>siteward start</code>.';

/** The pages' handlers, by method and path. */
export function loginPages(deps: LoginPageDeps) {
  const { homeUrl, store, authenticator, twoFactor } = deps;

  /** The HTML of the other ways to log in that apply to this request. */
  const alternatives = async (req: PageRequest, redirectTo: string): Promise<string[]> => {
    const shown = await Promise.all((deps.signInOptions ?? []).map((option) => option(req, redirectTo)));
    return shown.filter((html): html is string => html !== null);
  };

  /** The login form, with a challenge when the guards want one from this address. */
  const loginForm = async (
    req: PageRequest,
    status: number,
    opts: { redirectTo: string; error?: string; notice?: string; login?: string },
    headers: Readonly<Record<string, string>> = {},
  ): Promise<PageResponse> => {
    const wanted = await authenticator.guards.wantsChallenge({ via: 'login-form', login: '', ip: req.ip });
    const challenge = wanted ? JSON.stringify(await deps.challenge.create(req.formToken())) : undefined;
    // A blocked address gets its way back on the 429 page.
    const after =
      status === 429
        ? unlockOffer({ formField: formTokenInput(req), mail: deps.mailConfigured, address: keyOf(req.ip), login: opts.login ?? '' })
        : undefined;
    return htmlPage(
      status,
      loginPage({ formField: formTokenInput(req), ...opts, challenge, alternatives: await alternatives(req, opts.redirectTo), after }),
      headers,
    );
  };

  const showLogin = async (req: PageRequest): Promise<PageResponse> => {
    const q = req.query;
    const notice = q.loggedout
      ? 'You are now logged out.'
      : q.setup === 'done'
        ? 'The administrator account was created. Log in with it to continue.'
        : q.password_reset === 'done'
          ? 'Your password has been reset. Log in with the new one.'
          : undefined;
    // A blocked address sees its block, when it ends and the way to lift it at once, not a form that will refuse it.
    const refusal = await authenticator.guards.refusalNow({ via: 'login-form', login: '', ip: req.ip });
    if (refusal !== null) {
      const error = refusalError(refusal);
      return loginForm(req, error.status, { redirectTo: str(q.redirect_to), error: error.message }, errorHeaders(error));
    }
    return loginForm(req, 200, { redirectTo: str(q.redirect_to), notice });
  };

  /** A session is open: the cookie, then where to go (enrolment first for a role that must use two-factor). */
  const loggedIn = async (
    req: PageRequest,
    result: Extract<LoginWithIdentity, { ok: true }>,
    json: boolean,
    redirectTo: string,
  ): Promise<PageResponse> => {
    const cookie = {
      'Set-Cookie': loginCookieHeader(result.cookie, { expiresAt: result.expiresAt, remember: result.remember, secure: req.origin.secure }),
    };
    const mustEnrol = await twoFactor.mustEnrol(result.user.id, result.roles);
    if (json) {
      const nonce = authenticator.createNonce('wp_rest', result.identity);
      return jsonPage(
        200,
        {
          id: result.user.id,
          login: result.user.login,
          nonce,
          restRoot: req.restRoot,
          ...(mustEnrol ? { two_factor_setup: ENROL_PATH } : {}),
        },
        cookie,
      );
    }
    const next = safeRedirect(redirectTo, homeUrl) ?? '/admin/';
    const to = redirect(mustEnrol ? `${ENROL_PATH}?redirect_to=${encodeURIComponent(next)}` : next);
    return { ...to, headers: { ...to.headers, ...cookie } };
  };

  /**
   * A login whose first factor was checked elsewhere (sign-in through the account service) ends
   * as a password login does: the code page when the user has two-factor, enrolment first when
   * their role requires it, then the session and `redirectTo`.
   */
  const finishLogin = async (
    req: PageRequest,
    user: UserRecord,
    opts: { redirectTo: string; remember?: boolean; via?: string },
  ): Promise<PageResponse> => {
    const remember = opts.remember === true;
    if (await twoFactor.enabled(user.id)) {
      const token = deps.pending.issue(user, { remember, redirectTo: opts.redirectTo });
      return htmlPage(200, twoFactorPage({ formField: formTokenInput(req), token }));
    }
    const result = await authenticator.openSession(user, { remember, ...traceOf(req), via: opts.via ?? 'sso' });
    return loggedIn(req, result, false, opts.redirectTo);
  };

  /** The form's second step: the pending-login token and the code. */
  const submitCode = async (req: PageRequest): Promise<PageResponse> => {
    const token = str(req.body[PENDING_FIELD]);
    const claims = deps.pending.read(token);
    const user = claims ? await store.users.byId(claims.userId) : undefined;
    if (!claims || !user || !deps.pending.matches(claims, user)) {
      const error = authError('two_factor_expired');
      return loginForm(req, error.status, { redirectTo: claims?.redirectTo ?? '', error: error.message });
    }
    const code = str(req.body[CODE_FIELD]);
    const mode: TwoFactorMode = req.body[MODE_FIELD] === 'recovery' ? 'recovery' : 'app';
    // The switch between the app's code and a recovery code sends no code: nothing to check.
    if (req.body[CODE_FIELD] === undefined) return htmlPage(200, twoFactorPage({ formField: formTokenInput(req), token, mode }));
    const check = async () =>
      !(await deps.pending.used(claims)) && (await twoFactor.verify(user.id, code)) && (await deps.pending.consume(claims));
    const result = await authenticator.completeLogin(user, check, {
      failure: mode === 'recovery' ? 'recovery_code' : secondFactorFailure(code),
      remember: claims.remember,
      ...traceOf(req),
      via: 'two-factor',
    });
    if (result.ok) return loggedIn(req, result, false, claims.redirectTo);
    if (result.error === 'refused') {
      const error = refusalError(result.refusal);
      return loginForm(req, error.status, { redirectTo: claims.redirectTo, error: error.message, login: user.login }, errorHeaders(error));
    }
    const error = authError(mode === 'recovery' ? 'two_factor_recovery_invalid' : 'two_factor_invalid');
    return htmlPage(error.status, twoFactorPage({ formField: formTokenInput(req), token, error: error.message, mode }));
  };

  const submitLogin = async (req: PageRequest): Promise<PageResponse> => {
    const body = req.body;
    const json = wantsJson(req);
    if (!json && body[PENDING_FIELD] !== undefined) return submitCode(req);
    const login = str(json ? body.username : body.log).trim();
    const password = str(json ? body.password : body.pwd);
    const remember = phpTruthy(json ? body.remember : body.rememberme);
    const redirectTo = str(body.redirect_to);
    // Only the HTML form is ever challenged; a solution is checked (and used up) only when sent.
    const solved = !json && body[CHALLENGE_FIELD] !== undefined && (await deps.challenge.verify(body[CHALLENGE_FIELD], req.formToken()));
    // JSON clients send the code with the password; the form asks for it on a second page.
    const code = json ? str(body[CODE_FIELD]) : '';
    const secondFactor = async (user: UserRecord) => {
      if (!(await twoFactor.enabled(user.id))) return 'none' as const;
      if (code === '') return 'missing' as const;
      if (await twoFactor.verify(user.id, code)) return 'passed' as const;
      return secondFactorFailure(code) === 'code' ? ('failed' as const) : ('failed_recovery' as const);
    };
    const result = await authenticator.login(login, password, {
      remember,
      ...traceOf(req),
      via: json ? 'login-json' : 'login-form',
      ...(solved ? { challenge: 'solved' as const } : {}),
      secondFactor,
    });
    if (result.ok) return loggedIn(req, result, json, redirectTo);
    if (result.error === 'second_factor_required') {
      if (json) return errorResponse(authError('two_factor_required'));
      const token = deps.pending.issue(result.user, { remember, redirectTo });
      return htmlPage(200, twoFactorPage({ formField: formTokenInput(req), token }));
    }
    const error =
      result.error === 'refused'
        ? refusalError(result.refusal)
        : result.error === 'second_factor_invalid'
          ? authError('two_factor_invalid')
          : authError('invalid_login');
    if (json) return errorResponse(error);
    return loginForm(req, error.status, { redirectTo, error: error.message, login }, errorHeaders(error));
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
        return htmlPage(
          403,
          simplePage('Log out', '<p>This log-out request did not come from this site. <a href="/admin/">Back to the dashboard</a>.</p>'),
        );
      }
      await authenticator.logout(value, traceOf(req));
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
    const checked =
      token === ''
        ? { ok: false }
        : await authenticator.guards.around({ via: 'setup', login: '', ip }, async () => ({ ok: await checkSetupToken(store, token) }));
    if ('refused' in checked) {
      const error = refusalError(checked.refused);
      return htmlPage(error.status, simplePage('Setup', escapeHtml(error.message)), errorHeaders(error));
    }
    return checked.ok ? true : htmlPage(403, simplePage('Setup', SETUP_LINK_NEEDED));
  };

  const showSetup = async (req: PageRequest): Promise<PageResponse> => {
    // A used setup link (or a bookmark of it) says so, in a page rather than an API error.
    if (!(await setupNeeded(store)))
      return htmlPage(
        404,
        simplePage(
          'Setup',
          '<p>This site is already set up: its administrator exists, so this setup link no longer works.</p><p><a href="/login">Log in</a></p>',
        ),
      );
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
    if (weak)
      return htmlPage(
        400,
        setupPage({ formField: formTokenInput(req), token, error: weak.message, login: input.login, email: input.email }),
      );
    // Nobody is logged in yet: the actor is the holder of the setup link, from its address.
    const result = await completeSetup(store, token, input, (created) =>
      auditEvent(
        pageSource(req, null),
        'user.created',
        { type: 'user', id: String(created.id), name: created.login },
        {
          login: { before: null, after: created.login },
          email: { before: null, after: created.email },
          roles: { before: null, after: ['administrator'] },
          password: { secret: true },
          via: { before: null, after: 'setup' },
        },
      ),
    );
    if (!result.ok)
      return htmlPage(
        400,
        setupPage({ formField: formTokenInput(req), token, error: result.error.message, login: input.login, email: input.email }),
      );
    return redirect('/login?redirect_to=%2Fadmin%2F&setup=done');
  };

  return { showLogin, submitLogin, logout, nonceRefresh, showSetup, submitSetup, finishLogin };
}
