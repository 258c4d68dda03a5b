/** The account service's HTML: small, no scripts, every interpolated value escaped. */

import { escapeHtml } from '../core/html.js';
import { simplePage } from '../core/simple-page.js';

/** The account service's pages: the shared page layout and stylesheet (served by interaction-routes.ts). */
function page(title: string, body: string): string {
  return `${simplePage(title, body, { siteName: 'Siteward accounts', brandHref: null })}\n`;
}

function hidden(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

function abortForm(uid: string, csrf: string): string {
  return `<form method="post" action="/interaction/${encodeURIComponent(uid)}/abort">${hidden(csrf)}<button class="sw-button-secondary" type="submit">Cancel</button></form>`;
}

export interface LoginPageInput {
  uid: string;
  csrf: string;
  clientName: string;
  login?: string;
  error?: string;
}

export function loginPage(input: LoginPageInput): string {
  const error = input.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(input.error)}</p>`;
  return page(
    'Log in',
    `<p>to continue to <strong>${escapeHtml(input.clientName)}</strong></p>
${error}<form method="post" action="/interaction/${encodeURIComponent(input.uid)}/login">
${hidden(input.csrf)}
<label for="login">Login</label><input id="login" name="login" required autofocus autocomplete="username" value="${escapeHtml(input.login ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Log in</button>
</form>
${abortForm(input.uid, input.csrf)}`,
  );
}

export interface ConsentPageInput {
  uid: string;
  csrf: string;
  clientName: string;
  login: string;
  scopes: string[];
}

export function consentPage(input: ConsentPageInput): string {
  const scopes = input.scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  return page(
    'Allow access',
    `<p><strong>${escapeHtml(input.clientName)}</strong> asks to use your account <strong>${escapeHtml(input.login)}</strong>:</p>
<ul>${scopes}</ul>
<form method="post" action="/interaction/${encodeURIComponent(input.uid)}/confirm">${hidden(input.csrf)}<button type="submit">Allow</button></form>
${abortForm(input.uid, input.csrf)}`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}
