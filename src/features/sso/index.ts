/**
 * Single sign-on (the `sso` module, Jetpack's "Single Sign On" on Siteward's connection): with
 * the site connected to its account service and the module on, `/login` offers "Log in with
 * <provider>", which logs in the site user linked to the provider account (sso-rules.ts).
 * Pages in sso-pages.ts; `siteward/v1/sso` tells the admin page how sign-in stands.
 */
import { phpTruthy } from '../../core/php.js';
import type { SsoOverview } from '../../wire/siteward-v1.js';
import type { Feature } from '../contract.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { SSO_START_PATH, signInLink } from './sso-pages-html.js';
import { ssoPages } from './sso-pages.js';
import { answers, defineRoute } from '../../rest/define-route.js';

const MODULE = 'sso';
export const MATCH_BY_EMAIL_OPTION = 'jetpack_sso_match_by_email';

export const ssoFeature: Feature = {
  name: 'sso',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const connection = ctx.need('connection');
    const login = ctx.need('login');
    const signIn = connection.signIn;
    const pages = ssoPages({
      store: ctx.store,
      authenticator: ctx.auth.authenticator,
      signIn,
      homeUrl: ctx.site.homeUrl,
      log: ctx.log,
      isActive: () => jetpack.isModuleActive(MODULE),
      matchByEmail: async () => phpTruthy(await ctx.store.options.get(MATCH_BY_EMAIL_OPTION)),
      finishLogin: (request, user, options) => login.finishLogin(request, user, options),
    });
    ctx.addPage({ method: 'GET', path: SSO_START_PATH, handle: pages.start });
    ctx.addPage({ method: 'GET', path: `${SSO_START_PATH}/callback`, handle: pages.callback });
    login.addSignInOption(async (_request, redirectTo) => {
      const offered = await pages.offered();
      return offered === null ? null : signInLink(offered.providerName, redirectTo);
    });

    ctx.api.registerRoute(
      SITEWARD_NAMESPACE,
      '/sso',
      defineRoute({
        permission: jetpack.permission('manage_settings'),
        response: answers<SsoOverview>(),
        handler: async () => {
          if (signIn === null)
            return {
              configured: false,
              active: await jetpack.isModuleActive(MODULE),
              provider: null,
              issuer: null,
              redirectUri: null,
              ready: false,
              problem: 'No account service is configured (SITEWARD_ACCOUNTS_ISSUER).',
              linkedUsers: 0,
              matchByEmail: false,
            };
          const ready = await signIn.ready();
          return {
            configured: true,
            active: await jetpack.isModuleActive(MODULE),
            provider: signIn.providerName,
            issuer: signIn.issuer,
            redirectUri: signIn.redirectUri,
            ready: ready.ok,
            problem: ready.ok ? null : ready.error.message,
            linkedUsers: await signIn.linkedCount(),
            matchByEmail: phpTruthy(await ctx.store.options.get(MATCH_BY_EMAIL_OPTION)),
          };
        },
      }),
    );
  },
};
