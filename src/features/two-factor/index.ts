/**
 * Two-factor authentication (TOTP, RFC 6238, with single-use recovery codes): the service the
 * login form asks after a right password, `siteward/v1/two-factor` for the current user, the
 * plain enrolment page, and which roles must use it. Registered before `login`, which needs it.
 */
import type { Feature } from '../contract.js';
import { featureDb } from '../db/feature-db.js';
import { ENROL_PATH, enrolPages } from './enrol-page.js';
import { TWO_FACTOR_MIGRATIONS } from './migration.js';
import { TwoFactorRepo } from './repo.js';
import { registerTwoFactorRoutes } from './routes.js';
import { TwoFactorService } from './service.js';
import { twoFactorSettings } from './settings.js';
import type { TwoFactorTables } from './tables.js';

// The surface other features use (test/layers.test.ts); the service itself comes from need('twoFactor').
export { ENROL_PATH } from './enrol-page.js';
export type { TwoFactorService } from './service.js';

declare module '../contract.js' {
  interface FeatureServices {
    /** Two-factor authentication: the login form's second step, the admin page's gate, the CLI's reset. */
    twoFactor: TwoFactorService;
  }
}

export const twoFactorFeature: Feature = {
  name: 'two-factor',
  settings: twoFactorSettings,
  migrations: TWO_FACTOR_MIGRATIONS,
  register(ctx) {
    const service = new TwoFactorService({
      repo: new TwoFactorRepo(featureDb<TwoFactorTables>(ctx.store)),
      options: ctx.store.options,
      encryptionKey: ctx.secrets.encryptionKey,
      clock: ctx.clock,
      issuer: new URL(ctx.site.homeUrl).host,
      requiredRoles: () => ctx.config.twoFactorRequiredRoles,
    });
    ctx.provide('twoFactor', service);
    registerTwoFactorRoutes(ctx.api, service, ctx.store);
    const pages = enrolPages(service, ctx.store, ctx.site.homeUrl);
    ctx.addPage({ method: 'GET', path: ENROL_PATH, handle: pages.show });
    ctx.addPage({ method: 'POST', path: ENROL_PATH, handle: pages.submit });
  },
};
