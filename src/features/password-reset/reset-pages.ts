import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';

function messages(opts: { error?: string; notice?: string }): string {
  return `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}${opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : ''}`;
}

/** The request form (field `user_login`, as WordPress names it). */
export function lostPasswordPage(opts: { formField: string; error?: string; notice?: string }): string {
  return simplePage(
    'Lost your password?',
    `${messages(opts)}
<form method="post" action="/login/lost-password">${opts.formField}
<label for="user_login">Username or e-mail address</label><input type="text" name="user_login" id="user_login" autocomplete="username" required autofocus>
<button type="submit">Get a new password</button>
</form>
<p class="sw-secondary"><a href="/login">Back to log in</a></p>`,
  );
}

/** The form behind the e-mailed link. */
export function resetPasswordPage(opts: { formField: string; login: string; key: string; error?: string }): string {
  return simplePage(
    'Choose a new password',
    `${messages(opts)}
<form method="post" action="/login/reset-password">${opts.formField}
<input type="hidden" name="login" value="${escapeHtml(opts.login)}">
<input type="hidden" name="key" value="${escapeHtml(opts.key)}">
<input type="text" autocomplete="username" value="${escapeHtml(opts.login)}" aria-hidden="true" tabindex="-1" readonly hidden>
<label for="password">New password for ${escapeHtml(opts.login)} (at least 8 characters)</label><input type="password" name="password" id="password" minlength="8" required autocomplete="new-password">
<button type="submit">Save the new password</button>
</form>`,
  );
}
