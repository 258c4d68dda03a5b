import { refusalError, type SitewardAuthenticator } from '../auth/authenticator.js';
import { checkSetupToken, completeSetup, setupNeeded } from '../auth/setup-token.js';
import { authError } from '../auth/errors.js';
import type { Store } from '../store/types.js';
import type { AuthPagesDeps } from './auth-pages.js';

/** The auth pages' needs, met by the authenticator and the setup token (with the password guards around both). */
export function authPagesDeps(homeUrl: string, store: Store, authenticator: SitewardAuthenticator): AuthPagesDeps {
  return {
    homeUrl,
    async login(input) {
      const result = await authenticator.login(input.login, input.password, { remember: input.remember, userAgent: input.userAgent, ip: input.ip, via: input.via });
      if (!result.ok) {
        if (result.error === 'refused') return { ok: false, error: refusalError(result.refusal) };
        return { ok: false, error: authError('invalid_login') };
      }
      return { ok: true, cookieValue: result.cookie, expiresAt: result.expiresAt, userId: result.user.id, login: result.user.login, identity: result.identity };
    },
    async logout(value) {
      await authenticator.logout(value);
    },
    identify: async (headers) => authenticator.identify(headers),
    createNonce: (action, identity) => authenticator.createNonce(action, identity),
    verifyNonce: (nonce, action, identity) => authenticator.verifyNonce(nonce, action, identity) !== false,
    setup: {
      needed: () => setupNeeded(store),
      async checkToken(token, ip) {
        const checked = await authenticator.guards.around({ via: 'setup', login: '', ip }, async () => ({ ok: await checkSetupToken(store, token) }));
        return 'refused' in checked ? refusalError(checked.refused) : checked.ok;
      },
      async createAdmin(input) {
        const result = await completeSetup(store, input.token, { login: input.login, email: input.email, password: input.password });
        return result.ok ? { ok: true } : { ok: false, message: result.error.message };
      },
    },
  };
}
