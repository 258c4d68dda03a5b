/**
 * `/login/sso` and `/login/sso/callback`: logging in through the account service the site is
 * connected to. Start binds a fresh sign-in (PKCE, state, nonce: the connection engine) to a
 * random key in an HttpOnly cookie of this browser and sends the browser to the provider; the
 * callback checks it, asks the provider who this is, and opens a normal session for the linked
 * user (sso-rules.ts), or explains on a page why nobody was logged in.
 *
 * The callback is a password check for Protect (`via: 'sso'`): a blocked address gets the 429
 * page before anything is exchanged, and a callback that fails because of what the browser
 * sent (forged, foreign, replayed or expired state, a refused code, an account nobody here is
 * linked to) counts as a failure. The provider being down or slow, or the person cancelling,
 * does not.
 */
import { randomBytes } from 'node:crypto';
import { refusalError, type SitewardAuthenticator } from '../../auth/authenticator.js';
import type { GuardRefusal } from '../../auth/password-guards.js';
import { readCookie } from '../../core/cookies.js';
import type { Logger } from '../../plugins/api.js';
import { errorHeaders } from '../../rest/error-response.js';
import type { Store, UserRecord } from '../../store/types.js';
import { pageSource } from '../audit/index.js';
import type { ConnectionError, ConnectionErrorKind, SignInConnection } from '../connection/index.js';
import { htmlPage, type PageRequest, type PageResponse } from '../contract.js';
import { safeRedirect } from '../../core/safe-redirect.js';
import { problemPage, refusalPage, SSO_START_PATH, type SignInProblem } from './sso-pages-html.js';
import { decideSignIn } from './sso-rules.js';

export const SSO_COOKIE_NAME = 'siteward_sso';
const SSO_COOKIE_MAX_AGE_S = 10 * 60;

export interface SsoPageDeps {
  readonly store: Store;
  readonly authenticator: SitewardAuthenticator;
  /** Null when no account service is configured. */
  readonly signIn: SignInConnection | null;
  readonly homeUrl: string;
  readonly log: Logger;
  /** The `sso` module is on (and available: the site is connected, not in offline mode). */
  isActive(): Promise<boolean>;
  /** `jetpack_sso_match_by_email`. */
  matchByEmail(): Promise<boolean>;
  /** The login feature's end of a login (its two-factor step, enrolment, session, redirect). */
  finishLogin(request: PageRequest, user: UserRecord, options: { redirectTo: string }): Promise<PageResponse>;
}

/** Errors that say nothing about the browser's request: not counted by Protect. */
const NOT_JUDGED: ReadonlySet<ConnectionErrorKind> = new Set<ConnectionErrorKind>([
  'provider_down',
  'provider_timeout',
  'provider_invalid',
  'invalid_config',
  'storage_invalid',
  'not_registered',
  'registration_refused',
  'issuer_mismatch',
  'access_denied',
]);

function statusOf(kind: ConnectionErrorKind): number {
  if (kind === 'provider_timeout') return 504;
  if (
    kind === 'provider_down' ||
    kind === 'provider_invalid' ||
    kind === 'issuer_mismatch' ||
    kind === 'not_registered' ||
    kind === 'registration_refused'
  )
    return 502;
  if (kind === 'invalid_config' || kind === 'storage_invalid') return 500;
  return 400;
}

function problemOf(error: ConnectionError): SignInProblem {
  return error.kind === 'access_denied' ? 'cancelled' : error.kind;
}

/** The browser key cookie: only sent back to the sign-in pages, Lax so the provider's top-level redirect carries it. */
function ssoCookieHeader(value: string, secure: boolean): string {
  return [
    `${SSO_COOKIE_NAME}=${value}`,
    `Path=${SSO_START_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${SSO_COOKIE_MAX_AGE_S}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The callback's OpenID parameters, flat strings only (as the connection's callback reads them). */
function callbackUrl(request: PageRequest): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) if (typeof value === 'string') params.append(name, value);
  return `${request.path}?${params.toString()}`;
}

/** Thrown inside the guarded check when no judgement was made (provider down, cancelled): Protect gives the slot back. */
class NotJudged extends Error {
  constructor(readonly page: PageResponse) {
    super('sign-in not judged');
  }
}

export function ssoPages(deps: SsoPageDeps) {
  const { authenticator } = deps;

  /** The connection when sign-in is offered right now, otherwise the page saying why not. */
  const available = async (): Promise<{ ok: true; signIn: SignInConnection } | { ok: false; page: PageResponse }> => {
    const signIn = deps.signIn;
    if (signIn === null || !(await deps.isActive()))
      return { ok: false, page: htmlPage(404, problemPage('off', signIn?.providerName ?? 'the account service')) };
    return { ok: true, signIn };
  };

  /** The "Log in with <provider>" link of the login page, when sign-in is on and registered. */
  const offered = async (): Promise<SignInConnection | null> => {
    const signIn = deps.signIn;
    if (signIn === null || !(await deps.isActive())) return null;
    return (await signIn.ready()).ok ? signIn : null;
  };

  const start = async (req: PageRequest): Promise<PageResponse> => {
    const on = await available();
    if (!on.ok) return on.page;
    const { signIn } = on;
    const provider = signIn.providerName;
    // A blocked address learns so here rather than after a round trip to the provider (no failure is counted).
    const peek = await authenticator.guards.around({ via: 'sso', login: '', ip: req.ip }, async () => ({ ok: true }));
    if ('refused' in peek) {
      const error = refusalError(peek.refused);
      return htmlPage(error.status, problemPage('blocked', provider, error.message), errorHeaders(error));
    }
    const ready = await signIn.ready();
    if (!ready.ok) {
      deps.log.warn({ event: 'sso.not_ready', reason: ready.error.message }, 'sign-in: the registration does not allow it');
      return htmlPage(503, problemPage('not_ready', provider));
    }
    const returnTo = safeRedirect(typeof req.query.redirect_to === 'string' ? req.query.redirect_to : '', deps.homeUrl) ?? '';
    const browserKey = randomBytes(32).toString('base64url');
    const started = await signIn.start(browserKey, returnTo);
    if (!started.ok) return htmlPage(statusOf(started.error.kind), problemPage(problemOf(started.error), provider));
    return {
      status: 302,
      headers: {
        Location: started.url,
        'Set-Cookie': ssoCookieHeader(browserKey, req.origin.secure),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      },
    };
  };

  const callback = async (req: PageRequest): Promise<PageResponse> => {
    const on = await available();
    if (!on.ok) return on.page;
    const { signIn } = on;
    const provider = signIn.providerName;
    type Checked = { ok: true; user: UserRecord; returnTo: string } | { ok: false; page: PageResponse };
    let checked: Checked | { ok: false; refused: GuardRefusal };
    try {
      checked = await authenticator.guards.around({ via: 'sso', login: '', ip: req.ip }, async (): Promise<Checked> => {
        const browserKey = readCookie(req.headers.cookie, SSO_COOKIE_NAME) ?? '';
        const done = await signIn.finish(callbackUrl(req), browserKey);
        if (!done.ok) {
          const page = htmlPage(statusOf(done.error.kind), problemPage(problemOf(done.error), provider));
          if (NOT_JUDGED.has(done.error.kind)) throw new NotJudged(page);
          return { ok: false, page };
        }
        const { identity } = done;
        const decision = await decideSignIn(
          { store: deps.store, signIn, source: (user) => pageSource(req, user) },
          identity,
          await deps.matchByEmail(),
        );
        if (!decision.ok) {
          deps.log.warn(
            { event: 'sso.refused', refusal: decision.refusal, subject: identity.subject, ip: req.ip },
            'sign-in: nobody was logged in',
          );
          const who = [identity.userinfo.preferred_username, identity.userinfo.email ? `<${identity.userinfo.email}>` : undefined]
            .filter(Boolean)
            .join(' ');
          return { ok: false, page: htmlPage(403, refusalPage(decision.refusal, provider, who)) };
        }
        if (decision.linkedNow)
          deps.log.info(
            { event: 'sso.linked_by_email', userId: decision.user.id, subject: identity.subject },
            'sign-in: user linked by verified e-mail',
          );
        return { ok: true, user: decision.user, returnTo: identity.returnTo };
      });
    } catch (error) {
      if (error instanceof NotJudged) return error.page;
      throw error;
    }
    if ('refused' in checked) {
      const error = refusalError(checked.refused);
      return htmlPage(error.status, problemPage('blocked', provider, error.message), errorHeaders(error));
    }
    if (!checked.ok) return checked.page;
    deps.log.info({ event: 'sso.login', userId: checked.user.id, ip: req.ip }, 'sign-in: the account service vouched for the user');
    // The first factor only: the site's own two-factor step follows, exactly as after a password.
    return deps.finishLogin(req, checked.user, { redirectTo: checked.returnTo });
  };

  return { start, callback, offered };
}
