/**
 * Names for permission callbacks, so the route table (`siteward routes`, docs/routes.md) can say
 * which check guards a route: a callback is a function, and the table needs a word.
 */
import type { PermissionCallback } from './types.js';

const labels = new WeakMap<PermissionCallback, string>();

/**
 * Names what `callback` checks (e.g. a capability) and returns it unchanged.
 *
 * @example
 * permissionCallback: labelPermission((request) => request.user.can('manage_options'), 'manage_options')
 */
export function labelPermission<C extends PermissionCallback>(callback: C, label: string): C {
  labels.set(callback, label);
  return callback;
}

/** The callback's name; `none` without one (anyone may call), `custom` for an unnamed function. */
export function permissionLabel(callback: PermissionCallback | undefined): string {
  if (callback === undefined) return 'none';
  return labels.get(callback) ?? 'custom';
}
