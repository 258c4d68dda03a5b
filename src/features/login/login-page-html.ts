import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';

/** The login form (fields `log`, `pwd`, `rememberme`, `redirect_to`, as WordPress names them). */
/** `formField`: the hidden anti-CSRF field (`formTokenInput(request)`). */
/** `alternatives`: other ways to log in (already-escaped HTML), shown under the form. */
/** `after`: already-escaped HTML at the end (the 429 page's way back, protect/unlock-html.ts). */
export function loginPage(opts: { formField: string; redirectTo?: string; error?: string; notice?: string; login?: string; alternatives?: readonly string[]; after?: string }): string {
  return simplePage(
    'Log in',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}${opts.notice ? `<p class="notice">${escapeHtml(opts.notice)}</p>` : ''}
<form method="post" action="/login">${opts.formField}
<label for="user_login">Username or e-mail address</label><input type="text" name="log" id="user_login" autocomplete="username" value="${escapeHtml(opts.login ?? '')}" required autofocus>
<label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" required>
<label><input type="checkbox" name="rememberme" value="forever"> Remember me</label>
<input type="hidden" name="redirect_to" value="${escapeHtml(opts.redirectTo ?? '')}">
<button type="submit">Log in</button>
</form>
${(opts.alternatives ?? []).join('\n')}
<p><a href="/login/lost-password">Lost your password?</a></p>${opts.after ?? ''}`,
  );
}

/** The first-run form that creates the first administrator. */
export function setupPage(opts: { formField: string; token: string; error?: string; login?: string; email?: string }): string {
  return simplePage(
    'Welcome to Siteward',
    `<p>Create the first administrator account.</p>${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/setup">${opts.formField}
<input type="hidden" name="token" value="${escapeHtml(opts.token)}">
<label for="login">Username</label><input type="text" name="login" id="login" value="${escapeHtml(opts.login ?? '')}" required autocomplete="username">
<label for="email">E-mail</label><input type="email" name="email" id="email" value="${escapeHtml(opts.email ?? '')}" required>
<label for="password">Password (at least 8 characters)</label><input type="password" name="password" id="password" minlength="8" required autocomplete="new-password">
<button type="submit">Create administrator</button>
</form>`,
  );
}
