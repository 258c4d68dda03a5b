/**
 * The blocked person's way back, as HTML: the offer on the login form's 429 page ("e-mail me an
 * unlock link", or, without SMTP, whom to ask) and the pages of the link (unlock-pages.ts).
 */
import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';

export const UNLOCK_PATH = '/login/unlock';

/** Said when SMTP is not configured: nothing can be sent, so who can lift the block instead. */
export function noMailText(address: string): string {
  return `E-mail is not configured on this site, so no unlock link can be sent. Ask an administrator to lift the block (the Protect screen of the admin page), or, on the server, run: siteward protect unblock ${address}`;
}

/**
 * The part of the 429 login page that offers a way back. `address` is the client's own (shown
 * so that it can be told to an administrator).
 */
export function unlockOffer(opts: { formField: string; mail: boolean; address: string; login?: string }): string {
  if (!opts.mail) return `<p class="notice" id="unlock">${escapeHtml(noMailText(opts.address))}</p>`;
  return `<form method="post" action="${UNLOCK_PATH}" id="unlock">${opts.formField}
<p>Locked out? An unlock link lifts the block on your address (${escapeHtml(opts.address)}); it goes to the e-mail address of the account.</p>
<label for="unlock_login">Username or e-mail address</label><input type="text" name="user_login" id="unlock_login" autocomplete="username" value="${escapeHtml(opts.login ?? '')}" required>
<button type="submit">E-mail me an unlock link</button>
</form>`;
}

function messages(opts: { error?: string; notice?: string }): string {
  return `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}${opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : ''}`;
}

/** The request page (`GET /login/unlock`, and the answer to a request). */
export function unlockRequestPage(opts: { formField: string; mail: boolean; address: string; error?: string; notice?: string }): string {
  const form = opts.notice === undefined ? unlockOffer(opts) : '';
  return simplePage('Unlock your address', `${messages(opts)}${form}\n<p><a href="/login">Back to log in</a></p>`);
}

/** Behind the e-mailed link: a button, so that a mail scanner opening the link uses nothing. */
export function unlockConfirmPage(opts: { formField: string; key: string; address: string }): string {
  return simplePage(
    'Unlock your address',
    `<form method="post" action="${UNLOCK_PATH}/confirm">${opts.formField}
<input type="hidden" name="key" value="${escapeHtml(opts.key)}">
<p>This lifts the block on ${escapeHtml(opts.address)} so that you can log in again.</p>
<button type="submit">Unlock and log in</button>
</form>`,
  );
}

export function unlockDonePage(address: string): string {
  return simplePage(
    'Unlock your address',
    `<p class="notice" role="status">The block on ${escapeHtml(address)} is lifted.</p>\n<p><a href="/login">Log in</a></p>`,
  );
}
