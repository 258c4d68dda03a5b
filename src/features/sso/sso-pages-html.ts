/**
 * What the sign-in pages say: the "Log in with <provider>" link under the login form, and the
 * page explaining why nobody was logged in. Every text is in the tables below, keyed by why;
 * `{provider}` is the provider's name.
 */
import { escapeHtml } from '../../core/html.js';
import { simplePage } from '../../core/simple-page.js';
import type { ConnectionErrorKind } from '../connection/index.js';
import type { SsoRefusal } from './sso-rules.js';

export const SSO_START_PATH = '/login/sso';

/** A link, not a form: the login page's `form-action 'self'` would stop a form's redirect to the provider. */
export function signInLink(provider: string, redirectTo: string): string {
  const href = redirectTo === '' ? SSO_START_PATH : `${SSO_START_PATH}?redirect_to=${encodeURIComponent(redirectTo)}`;
  // Styled by the pages' shared stylesheet (core/page-style.ts): the CSP allows no inline style.
  return `<p class="sw-divider">or</p>
<p class="sso"><a href="${escapeHtml(href)}" id="sso-login">Log in with ${escapeHtml(provider)}</a></p>`;
}

interface Explanation {
  readonly title: string;
  readonly text: string;
}

const REFUSALS: Record<SsoRefusal, Explanation> = {
  not_linked: {
    title: 'No account here is linked to yours',
    text: 'You logged in at {provider}, but no user of this site is linked to that account, so nobody was logged in and no account was created. If you have an account here, log in with your password, then link your {provider} account from the admin page. Otherwise ask an administrator of this site.',
  },
  email_unverified: {
    title: 'Your e-mail address is not verified',
    text: 'No user of this site is linked to your {provider} account, and {provider} has not verified its e-mail address, so it cannot be matched to a user here. Nobody was logged in. Log in with your password and link your account from the admin page, or verify the address at {provider}.',
  },
  no_user: {
    title: 'No account here has your e-mail address',
    text: 'No user of this site is linked to your {provider} account or has its e-mail address, so nobody was logged in and no account was created. Ask an administrator of this site for an account.',
  },
  linked_elsewhere: {
    title: 'That account is linked to someone else',
    text: 'The user of this site with your e-mail address is already linked to another {provider} account, so nobody was logged in. Log in with that account, or with your password.',
  },
  ambiguous: {
    title: 'Several accounts here are linked to yours',
    text: 'More than one user of this site is linked to your {provider} account, so it is not clear who should be logged in. Log in with your password, or ask an administrator to unlink the extra users.',
  },
};

/** The sign-in's own conditions, and the engine's errors, as the person sees them. */
export type SignInProblem = 'off' | 'not_ready' | 'cancelled' | 'blocked' | ConnectionErrorKind;

const PROBLEMS: Partial<Record<SignInProblem, Explanation>> = {
  off: { title: 'Single sign-on is off', text: 'This site does not offer logging in with its account service. Log in with your password.' },
  not_ready: {
    title: 'Single sign-on is not set up',
    text: 'This site is not registered at {provider} for logging in (its sign-in address is not registered there). An administrator can fix it: see the Single Sign On module in the admin page. Meanwhile, log in with your password.',
  },
  blocked: {
    title: 'Too many failed logins',
    text: 'This address is blocked after too many failed logins, through {provider} or with a password. Nobody was logged in.',
  },
  cancelled: { title: 'Login cancelled', text: 'The login was cancelled at {provider}. Nobody was logged in.' },
  state_invalid: {
    title: 'This login cannot be completed',
    text: 'The answer from {provider} does not belong to a login started in this browser (unknown, foreign or forged state). Nobody was logged in. Start again from the login page.',
  },
  state_expired: {
    title: 'This login took too long',
    text: 'The login at {provider} took longer than 10 minutes. Nobody was logged in. Start again from the login page.',
  },
  state_replayed: {
    title: 'This login was already used',
    text: 'This answer from {provider} was already used once (a replayed state). Nobody was logged in. Start again from the login page.',
  },
  provider_down: {
    title: '{provider} cannot be reached',
    text: '{provider} did not answer, so nobody was logged in. Try again later, or log in with your password.',
  },
  provider_timeout: {
    title: '{provider} is too slow',
    text: '{provider} did not answer in time, so nobody was logged in. Try again later, or log in with your password.',
  },
};

const FALLBACK: Explanation = {
  title: 'The login through {provider} failed',
  text: '{provider} gave an answer this site cannot use, so nobody was logged in. Try again, or log in with your password.',
};

function fill(template: string, provider: string): string {
  return template.replaceAll('{provider}', provider);
}

function explanationPage(explanation: Explanation, provider: string, detail?: string): string {
  const title = fill(explanation.title, provider);
  return simplePage(
    title,
    `<p id="reason">${escapeHtml(fill(explanation.text, provider))}</p>${detail === undefined ? '' : `<p class="notice" id="detail">${escapeHtml(detail)}</p>`}
<p><a href="/login">Back to the login page</a></p>`,
  );
}

/** Why a person the provider vouched for was not logged in; `who` names the provider account (their own). */
export function refusalPage(refusal: SsoRefusal, provider: string, who: string): string {
  return explanationPage(REFUSALS[refusal], provider, who === '' ? undefined : `${provider} account: ${who}`);
}

/** A problem before anyone was identified: off, not set up, state, provider; `detail` for admins (no secret in it). */
export function problemPage(problem: SignInProblem, provider: string, detail?: string): string {
  return explanationPage(PROBLEMS[problem] ?? FALLBACK, provider, detail);
}
