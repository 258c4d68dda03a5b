/**
 * The plugin's own error builders over the `jetpack/v4` catalogue (../jetpack-v4/errors.ts):
 * activation, Jump Start and settings answers, and the module definition errors.
 */
import { escapeHtml } from '../../core/html.js';
import { RestError } from '../../rest/errors.js';
import { pluginError } from '../jetpack-v4/errors.js';
import type { UnavailableReason } from '../../wire/jetpack-v4.js';

/** Why a module could not be activated (docs/spec/compat.md §9: the message says why). */
export type ActivationRefusal = Pick<UnavailableReason, 'message'>;

/** 424 `activation_failed`: the historical sentence, then the reason. */
export function activationFailed(reason: ActivationRefusal): RestError {
  return pluginError('activation_failed', { reason: reason.message });
}

/**
 * 424 `activation_failed` of the bulk activation: names only the failed modules (docs/spec/jetpack-v4-reference.md §3.10,
 * trailing space kept), followed by why they could not be activated (docs/spec/compat.md §9).
 */
export function bulkActivationFailed(failed: readonly string[], reason?: ActivationRefusal): RestError {
  const why = reason ? `${failed.length === 1 ? reason.message : reason.message.replace(/^It needs/, 'They need')} ` : '';
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
      invalid.length === 1 ? `Invalid option for this module: ${invalid[0]}.` : `Invalid options for this module: ${invalid.join(', ')}.`;
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

/**
 * A refused module toggle inside `POST settings`: the activation error itself (its code and
 * status), its message prefixed with the setting, as Jetpack's `"<key>: <message>"` items.
 */
export function settingRefused(key: string, error: RestError): RestError {
  return new RestError(error.code, escapeHtml(`${key}: ${error.message}`), { ...error.data, setting: key });
}

/** 400 `setting_not_saved`: a write failed while applying `POST settings`, and the whole call was undone. */
export function settingNotSaved(key: string, info: string | undefined): RestError {
  const data = { data: { setting: key } };
  return info ? pluginError('setting_not_saved_because', { key, info }, data) : pluginError('setting_not_saved', { key }, data);
}

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
