/**
 * The `jetpack/v4` namespace's error catalogue and messages, shared by every feature that serves
 * routes there (the plugin and the services it lists as modules), so no handler spells a message
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
    // A write failed while applying `POST settings`, and the whole call was undone (the setting's name in `data.setting`).
    setting_not_saved: { code: 'setting_not_saved', message: 'Nothing was saved: {key} could not be updated.', status: 400 },
    setting_not_saved_because: {
      code: 'setting_not_saved',
      message: 'Nothing was saved: {key} could not be updated ({info}).',
      status: 400,
    },
    jumpstart_failed_dismiss: { code: 'jumpstart_failed_dismiss', message: 'Jumpstart could not be dismissed.', status: 400 },
    invalid_reset_kind: { code: 'invalid_param', message: 'Invalid Parameter', status: 404 },
    invalid_notice: { code: 'invalid_param', message: 'Invalid parameter "notice".', status: 404 },
    // The 4.3+ spellings' body checks (docs/spec/current-clients.md A.1): the handler compares strictly.
    invalid_param: { code: 'invalid_param', message: 'Invalid Parameter', status: 404 },
    invalid_dismissed: { code: 'invalid_param', message: 'Invalid parameter "dismissed".', status: 404 },
    module_not_active: { code: 'not_active', message: 'The requested Jetpack module is not active.', status: 404 },
    // Messages that name what went wrong; parameter values are HTML-escaped (WordPress's esc_html).
    feature_not_available: {
      code: 'feature_not_available',
      message: '{feature} is not available on this site: Siteward has no equivalent of it.',
      status: 400,
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

/**
 * 400 `feature_not_available`: an action of the reference that Siteward has no equivalent for
 * (e.g. Post by Email's address, which needed WordPress.com's mail servers). Said plainly
 * instead of answering a success that did nothing.
 */
export function featureNotAvailable(feature: string): RestError {
  return pluginError('feature_not_available', { feature });
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
