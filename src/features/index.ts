/**
 * The built-in features, in registration order, and who serves which path. This is the one
 * place to look for "what answers this URL".
 *
 * | path | served by |
 * |---|---|
 * | `/wp-json/…`, `/index.php/wp-json/…`, `?rest_route=…` | the REST layer (src/rest) through the HTTP adapter (src/http/rest-handler.ts) |
 * | `/wp-json/jetpack/v4/…` | `jetpack` (src/features/jetpack/routes); the connection routes (`connection-status`, `connect-url`, `user-connection-data`, `disconnect/site`, `unlink`, `recheck-ssl`) `connection` |
 * | `/connect/start`, `/connect/callback` | `connection` (the browser's login at the central account service) |
 * | `/wp-json/jetpack/v4/module/protect/count/get`, `…/module/monitor/downtime/last`, `…/module/verification-tools/services` | `protect`, `monitor`, `verification` |
 * | `/wp-json/siteward/v1/protect/history`, `/wp-json/siteward/v1/monitor/history` | `protect`, `monitor` |
 * | `/`, `/index.php`, `/xmlrpc.php?rsd` | the HTTP adapter (src/http/server.ts); head tags from `verification` |
 * | `/login`, `/logout`, `/setup`, `/wp-admin/admin-ajax.php?action=rest-nonce` | the HTTP adapter (src/http/auth-pages.ts) |
 * | `/admin`, `/admin/` | `admin-page` |
 * | `/healthz` | `health` |
 * | `/login/lost-password`, `/login/reset-password` | `password-reset` |
 * | `/wp-json/jetpack/v4/module/vaultpress/data` | `backups` (also the `backup` command and job) |
 * | `/wp-json/jetpack/v4/akismet/stats/get` | `stats` |
 * | `/wp-json/jetpack/v4/updates/plugins` | `updates` |
 * | `/wp-json/jetpack/v4/site` | `site-data` |
 * | `/wp-json/wp/v2/users…`, `/wp-json/wp/v2/settings` | `wp-platform` |
 * | `/wp-json/batch/v1` | the REST layer itself (src/rest/batch.ts) |
 * | routes of third-party plugins | the plugins listed in `SITEWARD_PLUGINS` (src/plugins) |
 *
 * Password checks pass `protect`'s guard; `monitor` checks the site from a background job.
 * Seams for what comes next, each a folder here registered in this list: `backups` adds jobs,
 * `stats` and `updates` add routes through the plugin API, and the admin page's built assets
 * come through `ctx.addAssets`.
 */
import { adminPageFeature } from './admin-page/index.js';
import { backupsFeature } from './backups/index.js';
import { connectionFeature } from './connection/index.js';
import type { Feature } from './contract.js';
import { jetpackFeature } from './jetpack/feature.js';
import { monitorFeature } from './monitor/index.js';
import { protectFeature } from './protect/index.js';
import { siteDataFeature } from './site-data/index.js';
import { statsFeature } from './stats/index.js';
import { updatesFeature } from './updates/index.js';
import { usersFeature } from './users/index.js';
import { passwordResetFeature } from './password-reset/index.js';
import { healthFeature } from './health/index.js';
import { verificationFeature } from './verification/index.js';
import { wpPlatformFeature } from './wp-platform/index.js';

/** Order matters only where a feature `need`s what an earlier one `provide`s. */
export const builtInFeatures: readonly Feature[] = [
  healthFeature,
  usersFeature,
  wpPlatformFeature,
  passwordResetFeature,
  connectionFeature, // provides 'connection'
  jetpackFeature, // needs 'connection'; provides 'jetpack'
  verificationFeature, // needs 'jetpack'
  protectFeature, // needs 'jetpack'
  monitorFeature, // needs 'jetpack'
  backupsFeature, // needs 'jetpack'
  statsFeature, // needs 'jetpack'
  updatesFeature, // needs 'jetpack'
  siteDataFeature, // needs 'jetpack', 'connection'
  adminPageFeature, // needs 'jetpack', 'connection'
];
