/**
 * The `jetpack/v4` namespace's error catalogue and messages, shared by every feature that serves
 * routes there (the plugin, the connection, backups, stats, …), so no handler spells a message
 * inline (docs/spec/jetpack-v4-reference.md §2, §3; docs/spec/compat.md §9).
 */
import { escapeHtml } from '../../core/html.js';
import { errorCatalogue, type FixedErrorId, type RestError } from '../../rest/errors.js';

/**
 * The `jetpack/v4` errors (the shape of `ErrorEntry`); parameter values are HTML-escaped as
 * WordPress's `esc_html` does. Ids are unique; wire codes may repeat (`invalid_param`).
 *
 * @example
 * pluginError('module_not_found') // 404 not_found "The requested Jetpack module was not found."
 */
export const pluginError = errorCatalogue(
  {
    module_not_found: { code: 'not_found', message: 'The requested Jetpack module was not found.', status: 404 },
    module_already_inactive: { code: 'already_inactive', message: 'The requested Jetpack module was already inactive.', status: 409 },
    module_deactivation_failed: {
      code: 'deactivation_failed',
      message: 'The requested Jetpack module could not be deactivated.',
      status: 400,
    },
    module_cannot_publish: {
      code: 'rest_cannot_publish',
      message: 'This module requires your site to be set to publicly accessible.',
      status: 424,
    },
    module_inactive: { code: 'inactive', message: 'The requested Jetpack module is inactive.', status: 409 },
    missing_options: { code: 'missing_options', message: 'Missing options.', status: 404 },
    missing_setting: { code: 'missing_setting', message: 'Missing setting.', status: 404 },
    setting_not_updated: { code: 'setting_not_updated', message: 'The setting was not updated.', status: 400 },
    jumpstart_failed_dismiss: { code: 'jumpstart_failed_dismiss', message: 'Jumpstart could not be dismissed.', status: 400 },
    invalid_reset_kind: { code: 'invalid_param', message: 'Invalid Parameter', status: 404 },
    invalid_notice: { code: 'invalid_param', message: 'Invalid parameter "notice".', status: 404 },
    // The 4.3+ spellings' body checks (docs/spec/current-clients.md A.1): the handler compares strictly.
    invalid_param: { code: 'invalid_param', message: 'Invalid Parameter', status: 404 },
    invalid_dismissed: { code: 'invalid_param', message: 'Invalid parameter "dismissed".', status: 404 },
    // Siteward counts no visits, so `module/stats/data` has nothing true to answer (docs/spec/current-clients.md A.6).
    stats_not_kept: {
      code: 'stats_not_available',
      message: 'Siteward keeps no visit statistics for this site, so there are no stats to show.',
      status: 404,
    },
    // The connection to the central account service (docs/spec/jetpack-v4-reference.md §3.2–§3.6; docs/spec/compat.md §9).
    unlink_user_failed: { code: 'unlink_user_failed', message: 'Was not able to unlink the user.  Please try again.', status: 400 },
    disconnect_failed: { code: 'disconnect_failed', message: 'Was not able to disconnect the site.  Please try again.', status: 400 },
    connection_not_configured: {
      code: 'connection_not_configured',
      message: 'No central account service is configured for this site (SITEWARD_ACCOUNTS_ISSUER).',
      status: 503,
    },
    account_service_unreachable: {
      code: 'account_service_unreachable',
      message: 'The central account service could not be reached.',
      status: 502,
    },
    account_service_timeout: {
      code: 'account_service_timeout',
      message: 'The central account service did not answer in time.',
      status: 504,
    },
    account_service_invalid: {
      code: 'account_service_invalid_response',
      message: 'The central account service gave an unusable answer.',
      status: 502,
    },
    account_service_refused: { code: 'account_service_refused', message: 'The central account service refused the request.', status: 502 },
    connection_storage_invalid: {
      code: 'connection_storage_invalid',
      message: 'The stored connection data could not be read.',
      status: 500,
    },
    module_not_active: { code: 'not_active', message: 'The requested Jetpack module is not active.', status: 404 },
    verification_empty: { code: 'empty', message: 'Site not verified with any service.', status: 404 },
    site_id_missing: { code: 'site_id_missing', message: 'The ID of this site does not exist.', status: 404 },
    updates_check_failed: { code: 'not_found', message: 'Could not check updates for plugins on this site.', status: 404 },
    // Siteward's own backups (src/features/backups).
    backups_not_configured: {
      code: 'backups_not_configured',
      message: 'Backups are not set up on this site (SITEWARD_BACKUP_DIR or SITEWARD_BACKUP_S3_URL).',
      status: 503,
    },
    backup_running: { code: 'backup_running', message: 'A backup is already running.', status: 409 },
    // Messages that name what went wrong; parameter values are HTML-escaped (WordPress's esc_html).
    feature_not_available: {
      code: 'feature_not_available',
      message: '{feature} is not available on this site: Siteward has no equivalent of it.',
      status: 400,
    },
    service_unavailable: {
      code: 'service_unavailable',
      message: 'The {service} service at {host} could not be reached. Try again later.',
      status: 502,
    },
    activation_failed: { code: 'activation_failed', message: 'The requested Jetpack module could not be activated. {reason}', status: 424 },
    bulk_activation_failed_one: { code: 'activation_failed', message: 'The module {module} failed to be activated. {reason}', status: 424 },
    bulk_activation_failed_many: {
      code: 'activation_failed',
      message: 'The modules {modules} failed to be activated. {reason}',
      status: 424,
    },
    jumpstart_failed_one: { code: 'jumpstart_failed', message: 'Jumpstart failed activating this module: {module}.', status: 400 },
    jumpstart_failed_many: { code: 'jumpstart_failed', message: 'Jumpstart failed activating these modules: {modules}.', status: 400 },
    /** Sentences of `someUpdated()` (several may apply to one request). */
    some_updated: { code: 'some_updated', message: '{sentences}', status: 400 },
  },
  escapeHtml,
);

/** Ids of the catalogue whose message has no parameter. */
export type FixedPluginErrorId = FixedErrorId<typeof pluginError>;

/** A catalogue error about the account service, with the engine's one-line account of what went wrong in `data.detail` (never a secret). */
export function accountServiceError(id: FixedPluginErrorId, detail: string): RestError {
  return pluginError(id, { data: { detail } });
}

/**
 * 400 `feature_not_available`: an action of the reference that Siteward has no equivalent for
 * (e.g. Post by Email's address, which needed WordPress.com's mail servers). Said plainly
 * instead of answering a success that did nothing.
 */
export function featureNotAvailable(feature: string): RestError {
  return pluginError('feature_not_available', { feature });
}

/** 502 `service_unavailable`: a remote service Siteward asks (Akismet, the npm registry) did not answer usably. */
export function serviceUnavailable(service: string, host: string): RestError {
  return pluginError('service_unavailable', { service, host }, { data: { service } });
}

/** Per-argument messages returned by the plugin's argument validators as `invalidParams(message)` (the generic layer puts them in `data.params`). */
export const argumentMessages = {
  active: 'active must be true, false, 0 or 1.',
  modulesNotArray: 'modules must be an array',
  modulesNotValid: 'modules must be a list of valid modules',
  unlinkId: 'id must be a positive integer.',
  isActiveFalse: 'The isActive argument should be set to false.',
  /** A key of `POST settings` that is no setting of this site (Siteward refuses it before writing anything). */
  unknownSetting: (key: string) => `${key} is not a setting of this site.`,
  /** A key of `POST settings/{module}` that is not one of that module's options. */
  notModuleSetting: (key: string, slug: string) => `${key} is not a setting of the ${slug} module.`,
} as const;

/** Success messages (docs/spec/jetpack-v4-reference.md §3). */
export const successMessages = {
  moduleActivated: 'The requested Jetpack module was activated.',
  moduleDeactivated: 'The requested Jetpack module was deactivated.',
  allModulesActivated: 'All modules activated.',
  moduleUpdated: 'The requested Jetpack module was updated.',
  settingUpdated: 'Setting updated.',
  jumpstartDone: 'Jumpstart done.',
  jumpstartDismissed: 'Jumpstart dismissed.',
  jumpstartDeactivated: 'Jumpstart deactivated.',
  jumpstartNothingToDismiss: 'Nothing to dismiss. This was not a new connection.',
  optionsReset: 'Jetpack options reset.',
  modulesReset: 'Modules reset to default.',
  siteDataReceived: 'Site data correctly received.',
  dataUpdated: 'The requested Jetpack data updates were successful.',
  connectionTestsPassed: 'All connection tests passed.',
} as const;
