/**
 * `/connect/start` and `/connect/callback`: the browser's way through the login at the account
 * service. Start checks the `connect` nonce of the connect URL (bound to the user and the
 * session), registers the site when needed and redirects to the provider; the callback links
 * the account and redirects to the admin page with a notice, or explains on a 400 page why
 * nothing was linked.
 */
import { createHash } from 'node:crypto';
import type { SitewardAuthenticator } from '../../auth/authenticator.js';
import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';
import { pageSource, sessionTokenHash } from '../audit/index.js';
import { htmlPage, redirect, type PageRequest, type PageResponse } from '../contract.js';
import type { ConnectionError } from './connection-errors.js';
import { noticeFor, type NoticeCode } from './connection-notices.js';
import type { ConnectionService } from './connection-service.js';
import { pageStatusOf } from './rest-errors.js';

export const CONNECT_NONCE_ACTION = 'connect';

export interface ConnectPageDeps {
  readonly service: ConnectionService;
  readonly authenticator: SitewardAuthenticator;
  readonly devMode: () => boolean;
}

/** The engine binds a login to this key; derived from the session token so the token itself is never stored anywhere new. */
function sessionKey(sessionToken: string): string {
  return createHash('sha256').update(`siteward connection session|${sessionToken}`).digest('base64url');
}

function page(status: number, title: string, text: string, notice?: NoticeCode): PageResponse {
  const back = notice === undefined ? '/admin/' : `/admin/?connection=${encodeURIComponent(notice)}`;
  const tone = status >= 400 ? 'error' : 'notice';
  return htmlPage(
    status,
    simplePage(
      title,
      `<p id="reason" class="${tone}"${status >= 400 ? ' role="alert"' : ''}>${escapeHtml(text)}</p><p><a class="sw-button sw-button-block" href="${escapeHtml(back)}">Back to the admin page</a></p>`,
    ),
  );
}

function errorPage(error: ConnectionError): PageResponse {
  const text = noticeFor(error.kind)?.text ?? 'Nothing was linked.';
  return page(pageStatusOf(error.kind), 'The account was not linked', `${text} (${error.message})`, error.kind);
}

/** The OpenID parameters of the callback's query, as the engine wants them (flat strings only). */
function callbackUrl(request: PageRequest): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) if (typeof value === 'string') params.append(name, value);
  return `${request.path}?${params.toString()}`;
}

export function connectStart(deps: ConnectPageDeps) {
  return async (request: PageRequest): Promise<PageResponse> => {
    const identity = await request.identity();
    if (identity.kind !== 'cookie') return redirect(`/login?redirect_to=${encodeURIComponent('/admin/')}`);
    if (deps.devMode()) {
      return page(
        403,
        'Connecting is off',
        'The site is in development (offline) mode, so it cannot connect to the central account service.',
      );
    }
    if (deps.service.engine === null) {
      return page(503, 'Connecting is not set up', 'No central account service is configured for this site (SITEWARD_ACCOUNTS_ISSUER).');
    }
    const nonce = typeof request.query._wpnonce === 'string' ? request.query._wpnonce : '';
    if (deps.authenticator.verifyNonce(nonce, CONNECT_NONCE_ACTION, identity) === false) {
      return page(
        403,
        'This connect link has expired',
        'The link is old or belongs to another login session. Go back to the admin page and start again.',
      );
    }
    const user = identity.principal;
    // Connecting the site needs manage_options; once it is connected, any user may link their own account (docs/spec/jetpack-v4-reference.md §2).
    if (!user.can((await deps.service.facts()).connected ? 'read' : 'manage_options')) {
      return page(403, 'Not allowed', 'Only an administrator can connect this site to the central account service.');
    }
    const source = pageSource(request, user, sessionTokenHash(identity.sessionToken));
    const started = await deps.service.start(user.id, sessionKey(identity.sessionToken), source);
    if (!started.ok) return errorPage(started.error);
    return { status: 302, headers: { Location: started.url, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } };
  };
}

export function connectCallback(deps: ConnectPageDeps) {
  return async (request: PageRequest): Promise<PageResponse> => {
    const identity = await request.identity();
    if (identity.kind !== 'cookie') {
      return page(400, 'The account was not linked', noticeFor('not_logged_in')?.text ?? '', 'not_logged_in');
    }
    if (deps.service.engine === null) {
      return page(503, 'Connecting is not set up', 'No central account service is configured for this site (SITEWARD_ACCOUNTS_ISSUER).');
    }
    const user = identity.principal;
    const source = pageSource(request, user, sessionTokenHash(identity.sessionToken));
    const admin = user.can('manage_options');
    const done = await deps.service.finish(callbackUrl(request), user.id, sessionKey(identity.sessionToken), admin, source);
    if (done.ok) return redirect(`/admin/?connection=${done.master ? 'connected' : 'linked'}`);
    // Cancelling at the provider is the user's choice, not an attack: back to the admin page with the notice.
    if (done.error.kind === 'access_denied') return redirect('/admin/?connection=access_denied');
    return errorPage(done.error);
  };
}
