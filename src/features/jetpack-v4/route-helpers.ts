/** Small shared pieces of the plugin's route definitions. */
import type { RestRequest } from '../../rest/types.js';

/** The plugin's namespace. */
export const JETPACK_NAMESPACE = 'jetpack/v4';

/** Every endpoint the spec lists as POST also takes PUT and PATCH (docs/spec/compat.md §9). */
export const EDITABLE = ['POST', 'PUT', 'PATCH'] as const;

/**
 * A URL parameter of the matched route. Read from the URL itself, because merged `params` let a
 * JSON body member of the same name win.
 */
export function urlParam(request: RestRequest, name: string): string {
  const value = request.urlParams[name] ?? request.param(name);
  return typeof value === 'string' ? value : '';
}

/**
 * Whether the body flag `name` is exactly `expected`, from any parameter source and compared
 * strictly (docs/spec/current-clients.md A.1: JSON `true` passes, `"true"` or `1` do not). A
 * DELETE (the 4.3.0 spelling) needs no flag: the method says it.
 */
export function flagged(request: RestRequest, name: string, expected: boolean): boolean {
  return request.method === 'DELETE' || request.param(name) === expected;
}
