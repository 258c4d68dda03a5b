/**
 * The built-in features, in registration order. Who serves which path is not written here: each
 * route, page and asset mount records its owner when it is registered, `siteward routes` prints
 * the table, and docs/routes.md is generated from it (test/generated-docs.test.ts keeps it true).
 *
 * Password checks pass `protect`'s guard; `monitor` checks the site from a background job;
 * `backups` adds a command and a job; `verification` adds the home page's head tags.
 * `jetpack/v4/module/{slug}/data` is `jetpack`'s route, answered by the provider a feature gives
 * `registerModuleData` (`protect`, `monitor`, `verification`, `backups`, `stats`); `null` for others.
 */
import { abilitiesFeature } from './abilities/index.js';
import { adminPageFeature } from './admin-page/index.js';
import { auditFeature } from './audit/index.js';
import { backupsFeature } from './backups/index.js';
import { connectionFeature } from './connection/index.js';
import type { Feature } from './contract.js';
import { jetpackFeature } from './jetpack/feature.js';
import { loginFeature } from './login/index.js';
import { twoFactorFeature } from './two-factor/index.js';
import { monitorFeature } from './monitor/index.js';
import { mcpFeature } from './mcp/index.js';
import { protectFeature } from './protect/index.js';
import { siteDataFeature } from './site-data/index.js';
import { ssoFeature } from './sso/index.js';
import { statsFeature } from './stats/index.js';
import { updatesFeature } from './updates/index.js';
import { usersFeature } from './users/index.js';
import { passwordResetFeature } from './password-reset/index.js';
import { healthFeature } from './health/index.js';
import { verificationFeature } from './verification/index.js';
import { wpPlatformFeature } from './wp-platform/index.js';

/** Order matters only where a feature `need`s what an earlier one `provide`s. */
export const builtInFeatures: readonly Feature[] = [
  abilitiesFeature, // provides 'abilities' (every later feature and plugin may register abilities)
  healthFeature,
  auditFeature,
  twoFactorFeature, // provides 'twoFactor'
  loginFeature, // needs 'twoFactor'
  usersFeature,
  wpPlatformFeature,
  passwordResetFeature,
  connectionFeature, // provides 'connection'
  jetpackFeature, // needs 'connection'; provides 'jetpack'
  verificationFeature, // needs 'jetpack'
  protectFeature, // needs 'jetpack'
  ssoFeature, // needs 'jetpack', 'connection', 'login'
  monitorFeature, // needs 'jetpack'
  backupsFeature, // needs 'jetpack'
  statsFeature, // needs 'jetpack'
  updatesFeature, // needs 'jetpack'
  siteDataFeature, // needs 'jetpack', 'connection'
  mcpFeature, // needs 'abilityRegistry', 'connection'; after every feature that registers abilities
  adminPageFeature, // needs 'jetpack', 'connection'
];
