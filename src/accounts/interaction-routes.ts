import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AccountStore } from './account-store.js';
import { PAGE_CSS, PAGE_STYLE_HEADERS, PAGE_STYLE_PATH } from '../core/page-style.js';
import { consentPage, loginPage, messagePage } from './interaction-pages.js';
import type { LoginThrottle } from './login-throttle.js';

export interface InteractionDeps {
  readonly provider: Provider;
  readonly accounts: AccountStore;
  readonly throttle: LoginThrottle;
  /** HMAC key of the forms' CSRF tokens. */
  readonly csrfKey: Buffer;
  /** Origin of the issuer, e.g. `http://127.0.0.1:4000`; POSTs from another origin are refused. */
  readonly origin: string;
}

const ROUTE = /^\/interaction\/([A-Za-z0-9_-]{1,100})(?:\/(login|confirm|abort))?$/;
const MAX_FORM_BYTES = 16 * 1024;
export const WRONG_PASSWORD = 'Unknown login or incorrect password';

/**
 * The login and consent pages (custom interactions). Returns false when the request is not for
 * them, so the caller hands it to `provider.callback()`.
 *
 * CSRF: each form carries HMAC(key, interaction uid); the uid is only known to the browser the
 * provider redirected, and oidc-provider additionally binds the interaction to its signed
 * `_interaction` cookie. Requests whose Origin is another site are refused outright.
 */
export async function handleInteraction(deps: InteractionDeps, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const path = new URL(req.url ?? '/', deps.origin).pathname;
  if (path === PAGE_STYLE_PATH && req.method === 'GET') {
    res.writeHead(200, PAGE_STYLE_HEADERS).end(PAGE_CSS);
    return true;
  }
  const match = ROUTE.exec(path);
  if (match === null) return false;
  const [, uid = '', action] = match;
  try {
    if (action === undefined && req.method === 'GET') await showPage(deps, req, res, uid);
    else if (action !== undefined && req.method === 'POST') await submit(deps, req, res, uid, action);
    else send(res, 405, messagePage('Not allowed', 'This address does not accept that request.'));
  } catch (error) {
    if (isSessionNotFound(error)) {
      send(
        res,
        400,
        messagePage('Login expired', 'This login attempt expired or belongs to another browser. Go back to the site and start again.'),
      );
    } else {
      send(res, 500, messagePage('Error', 'Something went wrong. Go back to the site and start again.'));
    }
  }
  return true;
}

async function showPage(deps: InteractionDeps, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const details = await deps.provider.interactionDetails(req, res);
  if (details.uid !== uid) throw sessionNotFound();
  const clientName = await clientNameOf(deps.provider, details.params.client_id);
  const csrf = csrfToken(deps.csrfKey, uid);
  if (details.prompt.name === 'login') {
    send(res, 200, loginPage({ uid, csrf, clientName }));
    return;
  }
  const account = deps.accounts.findById(details.session?.accountId ?? '');
  const scope = typeof details.params.scope === 'string' ? details.params.scope : 'openid';
  send(res, 200, consentPage({ uid, csrf, clientName, login: account?.login ?? '?', scopes: scope.split(' ').filter(Boolean) }));
}

async function submit(deps: InteractionDeps, req: IncomingMessage, res: ServerResponse, uid: string, action: string): Promise<void> {
  const form = await readForm(req);
  if (form === undefined) {
    send(res, 400, messagePage('Bad request', 'The form could not be read.'));
    return;
  }
  if (!sameOrigin(req, deps.origin) || !csrfValid(deps.csrfKey, uid, form.get('csrf'))) {
    send(res, 403, messagePage('Forbidden', 'The form was not sent from this page. Reload it and try again.'));
    return;
  }
  const details = await deps.provider.interactionDetails(req, res);
  if (details.uid !== uid) throw sessionNotFound();

  if (action === 'abort') {
    await deps.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (action === 'login') {
    if (details.prompt.name !== 'login') throw sessionNotFound();
    const login = form.get('login') ?? '';
    const clientName = await clientNameOf(deps.provider, details.params.client_id);
    const csrf = csrfToken(deps.csrfKey, uid);
    if (!deps.throttle.begin(login)) {
      send(res, 429, loginPage({ uid, csrf, clientName, login, error: 'Too many failed attempts. Try again later.' }));
      return;
    }
    let account: Awaited<ReturnType<typeof deps.accounts.authenticate>>;
    try {
      account = await deps.accounts.authenticate(login, form.get('password') ?? '');
    } catch (error) {
      deps.throttle.end(login, true);
      throw error;
    }
    deps.throttle.end(login, account !== undefined);
    if (account === undefined) {
      send(res, 401, loginPage({ uid, csrf, clientName, login, error: WRONG_PASSWORD }));
      return;
    }
    await deps.provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    return;
  }
  // confirm: grant what the client asked for (oidc-provider's documented consent recipe).
  if (details.prompt.name !== 'consent' || details.session === undefined) throw sessionNotFound();
  const { Grant } = deps.provider;
  const existing = details.grantId === undefined ? undefined : await Grant.find(details.grantId);
  const grant = existing ?? new Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
  const missing = details.prompt.details;
  if (Array.isArray(missing.missingOIDCScope)) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  // An agent's scopes for a resource (RFC 8707), as the user consented to them on this page.
  const resourceScopes = missing.missingResourceScopes;
  if (resourceScopes && typeof resourceScopes === 'object') {
    for (const [resource, scopes] of Object.entries(resourceScopes as Record<string, string[]>))
      grant.addResourceScope(resource, scopes.join(' '));
  }
  if (Array.isArray(missing.missingOIDCClaims)) grant.addOIDCClaims(missing.missingOIDCClaims.map(String));
  const grantId = await grant.save();
  await deps.provider.interactionFinished(
    req,
    res,
    { consent: details.grantId === undefined ? { grantId } : {} },
    { mergeWithLastSubmission: true },
  );
}

async function clientNameOf(provider: Provider, clientId: unknown): Promise<string> {
  if (typeof clientId !== 'string') return 'an application';
  const client = await provider.Client.find(clientId);
  return client?.clientName ?? clientId;
}

export function csrfToken(key: Buffer, uid: string): string {
  return createHmac('sha256', key).update(`interaction:${uid}`).digest('base64url');
}

function csrfValid(key: Buffer, uid: string, given: string | null): boolean {
  if (given === null) return false;
  const expected = Buffer.from(csrfToken(key, uid));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function sameOrigin(req: IncomingMessage, origin: string): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const given = req.headers.origin;
  return given === undefined || given === origin;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    // Not no-referrer: under it a real browser sends `Origin: null` with the page's own form
    // posts, which the same-origin check then refuses. same-origin still keeps the interaction
    // URL from every other site.
    'referrer-policy': 'same-origin',
  });
  res.end(html);
}

function sessionNotFound(): Error {
  const error = new Error('interaction does not match');
  error.name = 'SessionNotFound';
  return error;
}

function isSessionNotFound(error: unknown): boolean {
  return error instanceof Error && (error.name === 'SessionNotFound' || error.constructor.name === 'SessionNotFound');
}
