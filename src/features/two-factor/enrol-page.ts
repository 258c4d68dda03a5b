/**
 * `/login/two-factor/setup`: enrolment as a plain page, for the users whose role must use
 * two-factor (the admin page sends them here until they have enrolled) and for anyone who
 * prefers it to the admin page's screen. GET shows the QR code and the secret; POST takes the
 * first code and shows the recovery codes, once.
 */
import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';
import type { Store, UserRecord } from '../../store/types.js';
import { formTokenInput, htmlPage, redirect, type PageRequest, type PageResponse } from '../contract.js';
import { safeRedirect } from '../../core/safe-redirect.js';
import { twoFactorError } from './errors.js';
import { APP_PASSWORDS_NOTE } from './routes.js';
import type { Enrolment, TwoFactorService } from './service.js';
import { pageSource, sessionTokenHash, type AuditSource } from '../audit/index.js';

export const ENROL_PATH = '/login/two-factor/setup';

const TITLE = 'Two-factor authentication';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function enrolForm(req: PageRequest, enrolment: Enrolment, opts: { required: boolean; redirectTo: string; error?: string }): string {
  return simplePage(
    TITLE,
    `${opts.required ? '<p class="notice">Your role must use two-factor authentication. Set it up to continue to the dashboard.</p>' : ''}${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<p>1. Scan this code with an authenticator app (FreeOTP, Aegis, Google Authenticator, 1Password…):</p>
<p><img id="two-factor-qr" src="${escapeHtml(enrolment.qr)}" width="200" height="200" alt="QR code of the two-factor secret"></p>
<p>Or type this key into the app: <code id="two-factor-secret">${escapeHtml(enrolment.secret)}</code></p>
<form method="post" action="${ENROL_PATH}">${formTokenInput(req)}
<input type="hidden" name="redirect_to" value="${escapeHtml(opts.redirectTo)}">
<label for="two-factor-code">2. Enter the 6-digit code the app shows</label><input type="text" name="code" id="two-factor-code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required autofocus>
<button type="submit">Turn on two-factor</button>
</form>
<p>${escapeHtml(APP_PASSWORDS_NOTE)}</p>`,
  );
}

function codesPage(codes: readonly string[], next: string): string {
  return simplePage(
    TITLE,
    `<p class="notice">Two-factor authentication is on.</p>
<p>Keep these recovery codes somewhere safe: each logs you in once if you lose your device. They are shown only now.</p>
<ul id="recovery-codes">${codes.map((c) => `<li><code>${escapeHtml(c)}</code></li>`).join('')}</ul>
<p><a class="sw-button sw-button-secondary" id="recovery-codes-download" download="siteward-recovery-codes.txt" href="data:text/plain;charset=utf-8,${encodeURIComponent(`Siteward recovery codes (each logs you in once):\n${codes.join('\n')}\n`)}">Download the codes</a></p>
<p><a href="${escapeHtml(next)}">Continue</a></p>`,
  );
}

export function enrolPages(service: TwoFactorService, store: Store, homeUrl: string) {
  /** The logged-in user (a login cookie), or the login page that comes back here. */
  const who = async (req: PageRequest): Promise<{ user: UserRecord; roles: readonly string[]; source: AuditSource } | PageResponse> => {
    const identity = await req.identity();
    const user = identity.kind === 'cookie' ? await store.users.byId(identity.principal.id) : undefined;
    if (identity.kind !== 'cookie' || !user) return redirect(`/login?redirect_to=${encodeURIComponent(ENROL_PATH)}`);
    // Events of this page name the cookie's session and the request's address, as the REST routes do.
    return { user, roles: identity.principal.roles, source: pageSource(req, user, sessionTokenHash(identity.sessionToken)) };
  };
  const nextOf = (req: PageRequest, body: Readonly<Record<string, unknown>>) => safeRedirect(str(body.redirect_to), homeUrl) ?? '/admin/';

  const show = async (req: PageRequest): Promise<PageResponse> => {
    const found = await who(req);
    if ('status' in found) return found;
    const redirectTo = nextOf(req, req.query);
    if (await service.enabled(found.user.id)) {
      return htmlPage(
        200,
        simplePage(
          TITLE,
          `<p class="notice">Two-factor authentication is on for your account.</p><p><a href="${escapeHtml(redirectTo)}">Continue</a></p>`,
        ),
      );
    }
    const enrolment = (await service.current(found.user)) ?? (await service.begin(found.user, found.source));
    if (!enrolment) return redirect(redirectTo);
    return htmlPage(200, enrolForm(req, enrolment, { required: await service.required(found.roles), redirectTo }));
  };

  const submit = async (req: PageRequest): Promise<PageResponse> => {
    const found = await who(req);
    if ('status' in found) return found;
    const redirectTo = nextOf(req, req.body);
    const result = await service.confirm(found.user.id, str(req.body.code), found.source);
    if (result.ok) return htmlPage(200, codesPage(result.recoveryCodes, redirectTo));
    if (result.why === 'already-enabled') return redirect(redirectTo);
    const enrolment = (await service.current(found.user)) ?? (await service.begin(found.user, found.source));
    if (!enrolment) return redirect(redirectTo);
    return htmlPage(
      400,
      enrolForm(req, enrolment, {
        required: await service.required(found.roles),
        redirectTo,
        error: twoFactorError('invalid_code').message,
      }),
    );
  };

  return { show, submit };
}
