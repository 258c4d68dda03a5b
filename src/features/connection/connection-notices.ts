/**
 * What the admin page says after a connection attempt. The callback redirects to
 * `/admin/?connection=<code>`; only codes of this table are shown, so the URL cannot make the
 * page say anything else.
 */
import type { ConnectionErrorKind } from './connection-errors.js';

export interface Notice {
  readonly tone: 'success' | 'error';
  readonly text: string;
}

export type NoticeCode = 'connected' | 'linked' | 'not_logged_in' | ConnectionErrorKind;

const notices: Record<NoticeCode, Notice> = {
  connected: {
    tone: 'success',
    text: 'The site is connected to the central account service, and your account is linked: you are its master user.',
  },
  linked: { tone: 'success', text: 'Your account at the central account service is linked to this site.' },
  not_logged_in: {
    tone: 'error',
    text: 'Nothing was linked: the login came back to a browser that is not logged in to this site. Log in and start again.',
  },
  state_invalid: {
    tone: 'error',
    text: 'Nothing was linked: the answer from the account service does not belong to a login started by you in this browser (forged or foreign state). Start again from this page.',
  },
  state_expired: { tone: 'error', text: 'Nothing was linked: the login took longer than 10 minutes. Start again from this page.' },
  state_replayed: {
    tone: 'error',
    text: 'Nothing was linked: this login was already used once (replayed state). Start again from this page.',
  },
  access_denied: { tone: 'error', text: 'Nothing was linked: the login or the consent was cancelled at the account service.' },
  issuer_mismatch: { tone: 'error', text: 'Nothing was linked: the answer came from another account service than the configured issuer.' },
  audience_mismatch: { tone: 'error', text: 'Nothing was linked: the ID token was issued for another client than this site.' },
  id_token_invalid: {
    tone: 'error',
    text: 'Nothing was linked: the ID token from the account service is not valid (signature, nonce or dates).',
  },
  provider_down: { tone: 'error', text: 'Nothing was linked: the account service could not be reached. Try again later.' },
  provider_timeout: { tone: 'error', text: 'Nothing was linked: the account service did not answer in time. Try again later.' },
  provider_invalid: { tone: 'error', text: 'Nothing was linked: the account service gave an unusable answer.' },
  provider_refused: { tone: 'error', text: 'Nothing was linked: the account service refused the login.' },
  registration_refused: {
    tone: 'error',
    text: 'The account service refused to register this site: check SITEWARD_ACCOUNTS_REGISTRATION_TOKEN.',
  },
  not_registered: {
    tone: 'error',
    text: 'The account service does not know this site’s client: check SITEWARD_ACCOUNTS_CLIENT_ID and the secret.',
  },
  not_linked: { tone: 'error', text: 'Nothing was linked.' },
  invalid_config: { tone: 'error', text: 'The connection to the account service is not configured correctly (SITEWARD_ACCOUNTS_ISSUER).' },
  storage_invalid: { tone: 'error', text: 'The stored connection data could not be read (was the master secret changed?).' },
};

/** The notice of a `?connection=` code, or null for anything else. */
export function noticeFor(code: unknown): Notice | null {
  return typeof code === 'string' && Object.hasOwn(notices, code) ? notices[code as NoticeCode] : null;
}
