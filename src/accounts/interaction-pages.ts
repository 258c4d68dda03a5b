/** The account service's HTML: small, no scripts, every interpolated value escaped. */

import { escapeHtml } from '../core/html.js';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;box-sizing:border-box;margin:.3rem 0}input{padding:.4rem}
button{padding:.5rem;margin-top:.8rem}.error{color:#a00}.link{background:none;border:0;color:#06c;padding:0}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

function hidden(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

function abortForm(uid: string, csrf: string): string {
  return `<form method="post" action="/interaction/${encodeURIComponent(uid)}/abort">${hidden(csrf)}<button class="link" type="submit">Cancel</button></form>`;
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
${error}<form method="post" action="/interaction/${encodeURIComponent(input.uid)}/login" autocomplete="off">
${hidden(input.csrf)}
<label for="login">Login</label><input id="login" name="login" required autofocus value="${escapeHtml(input.login ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
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
