/**
 * Every error (and success message) of the site-management plugin, in one catalogue, so no
 * handler spells a message inline (docs/spec/jetpack-v4-reference.md §2, §3; docs/spec/compat.md §9).
 */
import { escapeHtml } from '../../core/html.js';
import { RestError, authorizationRequiredStatus, errorCatalogue, type ErrorEntry, type ErrorFactory } from '../../rest/errors.js';
import type { Principal } from '../../rest/types.js';

/** The shared permission message; docs/spec/compat.md §8 puts one space where the historical text had a newline and tabs. */
export const PERMISSION_MESSAGE =
  'You do not have the correct user permissions to perform this action. Please contact your site admin if you think this is a mistake.';

/** The permission checks of docs/spec/jetpack-v4-reference.md §2, each with its failure code. */
export const permissionCodes = {
  view_admin: 'invalid_user_permission_view_admin',
  manage_modules: 'invalid_user_permission_manage_modules',
  configure_modules: 'invalid_user_permission_configure_modules',
  manage_settings: 'invalid_user_permission_manage_settings',
  // The connection routes (docs/spec/jetpack-v4-reference.md §2; docs/spec/compat.md §9 replaces the codes marked "sic" by the natural ones).
  connect_url: 'invalid_user_permission_jetpack_connect',
  user_connection_data: 'invalid_user_permission_user_connection_data',
  link_user: 'invalid_user_permission_link_user',
  disconnect: 'invalid_user_permission_jetpack_disconnect',
} as const;

export type PermissionCheck = keyof typeof permissionCodes;

/** The plugin's errors (the shape of `ErrorEntry`). Ids are unique; wire codes may repeat (`invalid_param`). */
const catalogue = {
  module_not_found: { code: 'not_found', message: 'The requested Jetpack module was not found.', status: 404 },
  module_already_inactive: { code: 'already_inactive', message: 'The requested Jetpack module was already inactive.', status: 409 },
  module_deactivation_failed: { code: 'deactivation_failed', message: 'The requested Jetpack module could not be deactivated.', status: 400 },
  module_cannot_publish: { code: 'rest_cannot_publish', message: 'This module requires your site to be set to publicly accessible.', status: 424 },
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
  stats_not_kept: { code: 'stats_not_available', message: 'Siteward keeps no visit statistics for this site, so there are no stats to show.', status: 404 },
  // The connection to the central account service (docs/spec/jetpack-v4-reference.md §3.2–§3.6; docs/spec/compat.md §9).
  unlink_user_failed: { code: 'unlink_user_failed', message: 'Was not able to unlink the user.  Please try again.', status: 400 },
  disconnect_failed: { code: 'disconnect_failed', message: 'Was not able to disconnect the site.  Please try again.', status: 400 },
  connection_not_configured: { code: 'connection_not_configured', message: 'No central account service is configured for this site (SITEWARD_ACCOUNTS_ISSUER).', status: 503 },
  account_service_unreachable: { code: 'account_service_unreachable', message: 'The central account service could not be reached.', status: 502 },
  account_service_timeout: { code: 'account_service_timeout', message: 'The central account service did not answer in time.', status: 504 },
  account_service_invalid: { code: 'account_service_invalid_response', message: 'The central account service gave an unusable answer.', status: 502 },
  account_service_refused: { code: 'account_service_refused', message: 'The central account service refused the request.', status: 502 },
  connection_storage_invalid: { code: 'connection_storage_invalid', message: 'The stored connection data could not be read.', status: 500 },
  module_not_active: { code: 'not_active', message: 'The requested Jetpack module is not active.', status: 404 },
  verification_empty: { code: 'empty', message: 'Site not verified with any service.', status: 404 },
  site_id_missing: { code: 'site_id_missing', message: 'The ID of this site does not exist.', status: 404 },
  updates_check_failed: { code: 'not_found', message: 'Could not check updates for plugins on this site.', status: 404 },
  // Siteward's own backups (src/features/backups).
  backups_not_configured: { code: 'backups_not_configured', message: 'Backups are not set up on this site (SITEWARD_BACKUP_DIR or SITEWARD_BACKUP_S3_URL).', status: 503 },
  backup_running: { code: 'backup_running', message: 'A backup is already running.', status: 409 },
  // Messages that name what went wrong; parameter values are HTML-escaped (WordPress's esc_html).
  feature_not_available: { code: 'feature_not_available', message: '{feature} is not available on this site: Siteward has no equivalent of it.', status: 400 },
  service_unavailable: { code: 'service_unavailable', message: 'The {service} service at {host} could not be reached. Try again later.', status: 502 },
  activation_failed: { code: 'activation_failed', message: 'The requested Jetpack module could not be activated. {reason}', status: 424 },
  bulk_activation_failed_one: { code: 'activation_failed', message: 'The module {module} failed to be activated. {reason}', status: 424 },
  bulk_activation_failed_many: { code: 'activation_failed', message: 'The modules {modules} failed to be activated. {reason}', status: 424 },
  jumpstart_failed_one: { code: 'jumpstart_failed', message: 'Jumpstart failed activating this module: {module}.', status: 400 },
  jumpstart_failed_many: { code: 'jumpstart_failed', message: 'Jumpstart failed activating these modules: {modules}.', status: 400 },
  /** Sentences of `someUpdated()` (several may apply to one request). */
  some_updated: { code: 'some_updated', message: '{sentences}', status: 400 },
} as const satisfies Record<string, ErrorEntry>;

export type PluginErrorId = keyof typeof catalogue;

/**
 * Builds a fixed catalogue error.
 *
 * @example
 * pluginError('module_not_found') // 404 not_found "The requested Jetpack module was not found."
 */
export const pluginError: ErrorFactory<typeof catalogue> = errorCatalogue(catalogue, escapeHtml);

/** Ids of the catalogue whose message has no parameter. */
export type FixedPluginErrorId = { [Id in PluginErrorId]: (typeof catalogue)[Id]['message'] extends `${string}{${string}` ? never : Id }[PluginErrorId];

/** A catalogue error about the account service, with the engine's one-line account of what went wrong in `data.detail` (never a secret). */
export function accountServiceError(id: FixedPluginErrorId, detail: string): RestError {
  return pluginError(id, { data: { detail } });
}

/** A permission failure: 401 when nobody is logged in, 403 otherwise (docs/spec/compat.md §9). */
export function permissionError(check: PermissionCheck, user: Principal): RestError {
  return new RestError(permissionCodes[check], PERMISSION_MESSAGE, { status: authorizationRequiredStatus(user.id !== 0) });
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

/** Why a module could not be activated (docs/spec/compat.md §9: the message says why). */
export type ActivationRefusal = 'dev_mode' | 'not_connected';

const refusalReasons: Record<ActivationRefusal, string> = {
  dev_mode: 'It needs a connection to the central account service, and the site is in development (offline) mode.',
  not_connected: 'It needs a connection to the central account service, and the site is not connected.',
};

/** 424 `activation_failed`: the historical sentence, then the reason. */
export function activationFailed(reason: ActivationRefusal): RestError {
  return pluginError('activation_failed', { reason: refusalReasons[reason] });
}

/**
 * 424 `activation_failed` of the bulk activation: names only the failed modules (docs/spec/jetpack-v4-reference.md §3.10,
 * trailing space kept), followed by why they could not be activated (docs/spec/compat.md §9).
 */
export function bulkActivationFailed(failed: readonly string[], reason?: ActivationRefusal): RestError {
  const why = reason ? `${failed.length === 1 ? refusalReasons[reason] : refusalReasons[reason].replace(/^It needs/, 'They need')} ` : '';
  return failed.length === 1
    ? pluginError('bulk_activation_failed_one', { module: failed[0]!, reason: why })
    : pluginError('bulk_activation_failed_many', { modules: joinWithAnd(failed), reason: why });
}

/** 400 `jumpstart_failed` naming the modules Jump Start could not turn on (docs/spec/jetpack-v4-reference.md §3.14). */
export function jumpstartFailed(failed: readonly string[]): RestError {
  return failed.length === 1
    ? pluginError('jumpstart_failed_one', { module: failed[0]! })
    : pluginError('jumpstart_failed_many', { modules: failed.join(', ') });
}

/**
 * 400 `some_updated` (docs/spec/jetpack-v4-reference.md §3.11): unknown keys, then keys that were not saved with their
 * extra information. Valid keys of the same request were saved.
 */
export function someUpdated(invalid: readonly string[], notUpdated: ReadonlyMap<string, string | undefined>): RestError {
  let message = '';
  if (invalid.length > 0) {
    message =
      invalid.length === 1
        ? `Invalid option for this module: ${invalid[0]}.`
        : `Invalid options for this module: ${invalid.join(', ')}.`;
  }
  if (notUpdated.size > 0) {
    const keys = [...notUpdated.keys()];
    if (message !== '') message += ' ';
    message += keys.length === 1 ? `Option not updated: ${keys[0]}.` : `Options not updated: ${keys.join(', ')}.`;
    const extra = [...notUpdated].filter(([, info]) => info).map(([key, info]) => `Extra info for ${key}: ${info}`);
    if (extra.length > 0) message += ' ' + extra.join('. ');
  }
  return pluginError('some_updated', { sentences: message });
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

/**
 * A refused module toggle inside `POST settings`: the activation error itself (its code and
 * status), its message prefixed with the setting, as Jetpack's `"<key>: <message>"` items.
 */
export function settingRefused(key: string, error: RestError): RestError {
  return new RestError(error.code, escapeHtml(`${key}: ${error.message}`), { ...error.data, setting: key });
}

/** 400 `setting_not_saved`: a write failed while applying `POST settings`, and the whole call was undone. */
export function settingNotSaved(key: string, info: string | undefined): RestError {
  const message = `Nothing was saved: ${key} could not be updated${info ? ` (${info})` : ''}.`;
  return new RestError('setting_not_saved', escapeHtml(message), { status: 400, setting: key });
}

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

/** "A", "A and B", "A, B and C" (the bulk activation message's list). */
function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Thrown at start-up when a module definition cannot be added to the catalog (a developer error, never sent on the wire). */
export class ModuleDefinitionError extends Error {
  override readonly name = 'ModuleDefinitionError';
}

/** Messages of module definition problems. */
export const definitionMessages = {
  duplicate: (slug: string) => `A module with the slug "${slug}" is already registered.`,
  badSlug: (slug: string) => `Module slug "${slug}" must be lower-case letters and dashes ([a-z-]+), the pattern of the module routes.`,
  missing: (slug: string, field: string) => `Module "${slug}": "${field}" must be a non-empty string.`,
  badField: (slug: string, field: string, expected: string) => `Module "${slug}": "${field}" must be ${expected}.`,
  badOption: (slug: string, key: string, problem: string) => `Module "${slug}", option "${key}": ${problem}.`,
} as const;
