import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';

/** The login form (fields `log`, `pwd`, `rememberme`, `redirect_to`, as WordPress names them). */
/** `formField`: the hidden anti-CSRF field (`formTokenInput(request)`). */
/** `alternatives`: other ways to log in (already-escaped HTML), shown under the form. */
/** `after`: already-escaped HTML at the end (the 429 page's way back, protect/unlock-html.ts). */
/** `challenge`: the proof-of-work challenge (JSON) the form must solve before the password is checked. */
export function loginPage(opts: {
  formField: string;
  redirectTo?: string;
  error?: string;
  notice?: string;
  login?: string;
  alternatives?: readonly string[];
  after?: string;
  challenge?: string;
}): string {
  return simplePage(
    'Log in',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}${opts.notice ? `<p class="notice">${escapeHtml(opts.notice)}</p>` : ''}${opts.challenge ? CHALLENGE_ASSETS : ''}
<form method="post" action="/login">${opts.formField}${opts.challenge ? challengeWidget(opts.challenge) : ''}
<label for="user_login">Username or e-mail address</label><input type="text" name="log" id="user_login" autocomplete="username" value="${escapeHtml(opts.login ?? '')}" required autofocus>
<label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" required>
<label><input type="checkbox" name="rememberme" value="forever"> Remember me</label>
<input type="hidden" name="redirect_to" value="${escapeHtml(opts.redirectTo ?? '')}">
<button type="submit">Log in</button>
</form>
${(opts.alternatives ?? []).join('\n')}
<p class="sw-secondary"><a href="/login/lost-password">Lost your password?</a></p>${opts.after ?? ''}`,
  );
}

/** Where the widget's files are served (`altcha/dist/external` and `altcha/dist/workers`), and the script that wires them. */
export const ALTCHA_ASSETS_PREFIX = '/login/assets/altcha/';
export const ALTCHA_WORKERS_PREFIX = '/login/assets/altcha-workers/';
export const CHALLENGE_SCRIPT_PATH = '/login/assets/challenge.js';

/** Same-origin files only: the page's CSP runs no inline script, and the styles come as a file. */
const CHALLENGE_ASSETS = `<link rel="stylesheet" href="${ALTCHA_ASSETS_PREFIX}altcha.css"><script type="module" src="${CHALLENGE_SCRIPT_PATH}"></script>`;

/** The widget solves the challenge as soon as the page loads and puts its answer in the `altcha` field. */
function challengeWidget(challenge: string): string {
  return `\n<p id="challenge-note">Several logins from your address failed: your browser now proves it is a person by doing a second of work.</p><altcha-widget challenge="${escapeHtml(challenge)}" name="altcha" auto="onload" configuration="${escapeHtml(JSON.stringify({ hideFooter: true }))}"></altcha-widget>`;
}

/**
 * The module that loads the widget (`altcha/external`, which bundles no worker) and registers
 * its PBKDF2 worker, from this origin; evaluated before any widget starts solving.
 */
export const CHALLENGE_SCRIPT = `import '${ALTCHA_ASSETS_PREFIX}altcha.min.js';
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Worker('${ALTCHA_WORKERS_PREFIX}pbkdf2.js'));
`;

/** Which code the second step asks for: the app's six digits (a number pad on phones) or a recovery code (letters). */
export type TwoFactorMode = 'app' | 'recovery';
export const MODE_FIELD = 'two_factor_mode';

/**
 * The login form's second step: the code of the authenticator app, or, as its own step, a
 * recovery code (a text field: recovery codes have letters, and a number pad cannot type them).
 * The other step is a second form that sends only the token and the mode: no code is checked.
 */
export function twoFactorPage(opts: { formField: string; token: string; error?: string; mode?: TwoFactorMode }): string {
  const mode = opts.mode ?? 'app';
  const hidden = `${opts.formField}
<input type="hidden" name="two_factor_token" value="${escapeHtml(opts.token)}">`;
  const field =
    mode === 'app'
      ? '<label for="two_factor_code">Code from your authenticator app</label><input type="text" name="two_factor_code" id="two_factor_code" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" required autofocus>'
      : '<label for="two_factor_code">Recovery code (like 5fnhv-ojhxz)</label><input type="text" name="two_factor_code" id="two_factor_code" inputmode="text" autocomplete="off" autocapitalize="none" spellcheck="false" required autofocus>';
  const other: TwoFactorMode = mode === 'app' ? 'recovery' : 'app';
  return simplePage(
    'Two-factor authentication',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/login">${hidden}
<input type="hidden" name="${MODE_FIELD}" value="${mode}">
${field}
<button type="submit">Log in</button>
</form>
<form method="post" action="/login" class="sw-secondary">${hidden}
<input type="hidden" name="${MODE_FIELD}" value="${other}">
<button type="submit" class="link">${mode === 'app' ? 'Lost your device? Use a recovery code' : 'Use the code from your authenticator app'}</button>
</form>
${mode === 'recovery' ? '<p>Each recovery code works once. No codes left? Ask an administrator to run <code>siteward user 2fa reset &lt;login&gt;</code>.</p>' : ''}`,
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
<label for="email">E-mail</label><input type="email" name="email" id="email" value="${escapeHtml(opts.email ?? '')}" required autocomplete="email">
<label for="password">Password (at least 8 characters)</label><input type="password" name="password" id="password" minlength="8" required autocomplete="new-password">
<button type="submit">Create administrator</button>
</form>`,
  );
}
