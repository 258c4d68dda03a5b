import { escapeHtml } from '../core/html.js';

const STYLE = `body{font-family:system-ui,sans-serif;background:#f0f0f1;margin:0}main{max-width:340px;margin:8vh auto;background:#fff;padding:24px 28px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15)}label{display:block;margin:12px 0 4px}input[type=text],input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:8px;font-size:15px}button{margin-top:16px;padding:8px 16px;font-size:15px}.error{color:#b32d2e}.notice{color:#2271b1}`;

/** A minimal page with a title and an HTML body fragment. */
export function simplePage(title: string, bodyHtml: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Siteward</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${bodyHtml}</main></body></html>`;
}

/** The login form (fields `log`, `pwd`, `rememberme`, `redirect_to`, as WordPress names them). */
export function loginPage(opts: { redirectTo?: string; error?: string; notice?: string; login?: string }): string {
  return simplePage(
    'Log in',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}${opts.notice ? `<p class="notice">${escapeHtml(opts.notice)}</p>` : ''}
<form method="post" action="/login">
<label for="user_login">Username or e-mail address</label><input type="text" name="log" id="user_login" autocomplete="username" value="${escapeHtml(opts.login ?? '')}" required autofocus>
<label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" required>
<label><input type="checkbox" name="rememberme" value="forever"> Remember me</label>
<input type="hidden" name="redirect_to" value="${escapeHtml(opts.redirectTo ?? '')}">
<button type="submit">Log in</button>
</form>
<p><a href="/login/lost-password">Lost your password?</a></p>`,
  );
}

/** The first-run form that creates the first administrator. */
export function setupPage(opts: { token: string; error?: string; login?: string; email?: string }): string {
  return simplePage(
    'Welcome to Siteward',
    `<p>Create the first administrator account.</p>${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/setup">
<input type="hidden" name="token" value="${escapeHtml(opts.token)}">
<label for="login">Username</label><input type="text" name="login" id="login" value="${escapeHtml(opts.login ?? '')}" required autocomplete="username">
<label for="email">E-mail</label><input type="email" name="email" id="email" value="${escapeHtml(opts.email ?? '')}" required>
<label for="password">Password (at least 8 characters)</label><input type="password" name="password" id="password" minlength="8" required autocomplete="new-password">
<button type="submit">Create administrator</button>
</form>`,
  );
}
