import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { phpTruthy } from '../core/php.js';
import { clearLoginCookieHeader, LOGIN_COOKIE_NAME, loginCookieHeader, readCookie } from '../auth/login-cookie.js';
import { restError, type RestError } from '../rest/errors.js';
import type { RequestOrigin } from '../rest/rest-url.js';
import { mediaType } from '../rest/request-body.js';
import type { Identity } from '../rest/types.js';
import type { PageHelpers } from './server.js';
import { flatHeaders } from './request-origin.js';
import { pageBody } from './feature-pages.js';
import { loginPage, setupPage, simplePage } from './auth-page-html.js';
import { escapeHtml } from '../core/html.js';

/** What the login, logout, setup and nonce-refresh pages need from the auth services. */
export interface AuthPagesDeps {
  homeUrl: string;
  /** Checks credentials and opens a session. */
  login(input: { login: string; password: string; remember: boolean; userAgent: string; ip: string; via: 'login-form' | 'login-json' }): Promise<
    { ok: true; cookieValue: string; expiresAt: number; userId: number; login: string; identity: Identity } | { ok: false; error: RestError }
  >;
  logout(cookieValue: string): Promise<void>;
  identify(headers: Record<string, string>): Promise<Identity>;
  createNonce(action: string, identity: Identity): string;
  /** True when a nonce is valid for the action and the identity. */
  verifyNonce(nonce: string, action: string, identity: Identity): boolean;
  setup: {
    /** True while no administrator exists. */
    needed(): Promise<boolean>;
    /** Checks a setup token attempt from `ip`; a refusal (too many attempts) is an error to send. */
    checkToken(token: string, ip: string): Promise<boolean | RestError>;
    /** Creates the first administrator; the token is consumed. */
    createAdmin(input: { token: string; login: string; email: string; password: string }): Promise<{ ok: true } | { ok: false; message: string }>;
  };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function wantsJson(req: FastifyRequest): boolean {
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

/** An `Origin` header naming this site: the request's own scheme and host, or the home URL's origin. */
function sameOrigin(origin: string, request: RequestOrigin, homeUrl: string): boolean {
  try {
    const url = new URL(origin);
    if (url.origin === new URL(homeUrl).origin) return true;
    return url.hostname.toLowerCase() === request.hostname && url.protocol === (request.secure ? 'https:' : 'http:');
  } catch {
    return false;
  }
}

/** A refusal that says when to come back (`data.retry_after`, seconds) gets a `Retry-After` header. */
function retryAfter(reply: FastifyReply, error: RestError): void {
  const seconds = error.data?.retry_after;
  if (typeof seconds === 'number') reply.header('Retry-After', String(Math.ceil(seconds)));
}

function sendJsonError(reply: FastifyReply, error: RestError) {
  return reply.code(error.status).header('Content-Type', 'application/json; charset=UTF-8').send(JSON.stringify(error.toJSON()));
}

/** Registers `/login`, `/logout`, `/setup` and the nonce refresh endpoint used by @wordpress/api-fetch. */
export function registerAuthPages(app: FastifyInstance, deps: AuthPagesDeps, helpers: PageHelpers): void {
  const secureCookie = (req: FastifyRequest) => helpers.origin(req).secure;
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('Content-Type', 'text/html; charset=UTF-8').header('Cache-Control', 'no-store').header('X-Frame-Options', 'DENY').send(body);

  app.get('/login', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const notice = q.loggedout ? 'You are now logged out.' : q.setup === 'done' ? 'The administrator account was created. Log in with it to continue.' : q.password_reset === 'done' ? 'Your password has been reset. Log in with the new one.' : undefined;
    return html(reply, 200, loginPage({ redirectTo: str(q.redirect_to), notice }));
  });

  app.post('/login', async (req, reply) => {
    const body = pageBody(req);
    const json = wantsJson(req);
    const login = str(json ? body.username : body.log).trim();
    const password = str(json ? body.password : body.pwd);
    const remember = phpTruthy(json ? body.remember : body.rememberme);
    const result = await deps.login({ login, password, remember, userAgent: str(req.headers['user-agent']), ip: req.ip, via: json ? 'login-json' : 'login-form' });
    if (!result.ok) {
      retryAfter(reply, result.error);
      if (json) return sendJsonError(reply, result.error);
      return html(reply, result.error.status, loginPage({ redirectTo: str(body.redirect_to), error: result.error.message, login }));
    }
    reply.header('Set-Cookie', loginCookieHeader(result.cookieValue, { expiresAt: result.expiresAt, remember, secure: secureCookie(req) }));
    if (json) {
      const nonce = deps.createNonce('wp_rest', result.identity);
      return reply.code(200).header('Content-Type', 'application/json; charset=UTF-8').send(JSON.stringify({ id: result.userId, login: result.login, nonce, restRoot: helpers.restRoot(req) }));
    }
    return reply.redirect(safeRedirect(str(body.redirect_to), deps.homeUrl) ?? '/admin/', 302);
  });

  app.post('/logout', async (req, reply) => {
    const value = readCookie(req.headers.cookie, LOGIN_COOKIE_NAME);
    if (value) {
      const identity = await deps.identify(flatHeaders(req.headers));
      if (!logoutAllowed(req, identity)) {
        if (wantsJson(req)) return sendJsonError(reply, restError('rest_cookie_invalid_nonce'));
        return html(reply, 403, simplePage('Log out', '<p>This log-out request did not come from this site. <a href="/admin/">Back to the dashboard</a>.</p>'));
      }
      await deps.logout(value);
    }
    reply.header('Set-Cookie', clearLoginCookieHeader({ secure: secureCookie(req) }));
    if (wantsJson(req)) return reply.code(200).header('Content-Type', 'application/json; charset=UTF-8').send('{"loggedOut":true}');
    return reply.redirect('/login?loggedout=true', 302);
  });

  /**
   * No cross-site logout: a browser sends `Origin` with every POST, so a same-origin one is
   * enough; without it (older clients, scripts) a `log-out` nonce (`_wpnonce`, as WordPress's
   * logout link) or the REST nonce (`X-WP-Nonce`) proves the request came from a page of ours.
   */
  const logoutAllowed = (req: FastifyRequest, identity: Identity): boolean => {
    if (identity.kind !== 'cookie') return true;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') return sameOrigin(origin, helpers.origin(req), deps.homeUrl);
    const body = pageBody(req);
    const formNonce = str(body._wpnonce) || str((req.query as Record<string, unknown>)._wpnonce);
    if (formNonce && deps.verifyNonce(formNonce, 'log-out', identity)) return true;
    const restNonce = str(req.headers['x-wp-nonce']);
    return restNonce !== '' && deps.verifyNonce(restNonce, 'wp_rest', identity);
  };

  // @wordpress/api-fetch refreshes its nonce here; cookie login only, never with CORS headers.
  app.get('/wp-admin/admin-ajax.php', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const identity = await deps.identify(flatHeaders(req.headers));
    if (q.action !== 'rest-nonce' || identity.kind !== 'cookie') {
      return reply.code(q.action === 'rest-nonce' ? 403 : 400).header('Content-Type', 'text/plain; charset=UTF-8').send('0');
    }
    return reply.code(200).header('Content-Type', 'text/plain; charset=UTF-8').header('Cache-Control', 'no-store').send(deps.createNonce('wp_rest', identity));
  });

  app.get('/setup', async (req, reply) => {
    // A used setup link (or a bookmark of it) says so, in a page rather than an API error.
    if (!(await deps.setup.needed())) return html(reply, 404, simplePage('Setup', '<p>This site is already set up: its administrator exists, so this setup link no longer works.</p><p><a href="/login">Log in</a></p>'));
    const token = str((req.query as Record<string, unknown>).token);
    const checked = token ? await deps.setup.checkToken(token, req.ip) : false;
    if (checked !== true) {
      if (checked !== false) {
        retryAfter(reply, checked);
        return html(reply, checked.status, simplePage('Setup', escapeHtml(checked.message)));
      }
      return html(reply, 403, simplePage('Setup', 'This page needs the setup link printed by <code>siteward start</code>.'));
    }
    return html(reply, 200, setupPage({ token }));
  });

  app.post('/setup', async (req, reply) => {
    if (!(await deps.setup.needed())) return reply.callNotFound();
    const body = pageBody(req);
    const token = str(body.token);
    const checked = token ? await deps.setup.checkToken(token, req.ip) : false;
    if (checked !== true) {
      if (checked !== false) {
        retryAfter(reply, checked);
        return html(reply, checked.status, simplePage('Setup', escapeHtml(checked.message)));
      }
      return html(reply, 403, simplePage('Setup', 'This page needs the setup link printed by <code>siteward start</code>.'));
    }
    const input = { token, login: str(body.login).trim(), email: str(body.email).trim(), password: str(body.password) };
    const result = await deps.setup.createAdmin(input);
    if (!result.ok) return html(reply, 400, setupPage({ token, error: result.message, login: input.login, email: input.email }));
    return reply.redirect('/login?redirect_to=%2Fadmin%2F&setup=done', 302);
  });
}
