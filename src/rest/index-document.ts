import { batchAllowed, type Route } from './route-registry.js';
import type { JsonValue } from '../core/json.js';
import type { ArgDefinition } from './types.js';

/** Argument as shown in the index: `required`, then `default`, `enum`, `description`, `type`, `items` when set. */
function describeArg(arg: ArgDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = { required: arg.required === true };
  if (arg.default !== undefined && arg.default !== null) out.default = arg.default;
  if (arg.enum !== undefined) out.enum = arg.enum;
  if (arg.description !== undefined) out.description = arg.description;
  if (arg.type !== undefined) out.type = arg.type;
  if (arg.items !== undefined) out.items = arg.items;
  if (arg.maxItems !== undefined) out.maxItems = arg.maxItems;
  return out;
}

/**
 * One route's entry in the index (docs/spec/compat.md §4): namespace, methods, endpoints, and for
 * routes without variables `_links.self`; with `help` context also `schema`.
 * Returns null when no endpoint is shown.
 */
export function describeRoute(route: Route, selfUrl: (path: string) => string, help: boolean): Record<string, unknown> | null {
  const shown = route.endpoints.filter((e) => e.showInIndex);
  if (shown.length === 0) return null;
  const entry: Record<string, unknown> = {
    namespace: route.namespace,
    methods: shown.flatMap((e) => e.methods),
    endpoints: shown.map((e) => {
      const names = Object.keys(e.args);
      const args: Record<string, unknown> | [] = names.length === 0 ? [] : {};
      if (!Array.isArray(args)) for (const name of names) args[name] = describeArg(e.args[name]!);
      // Modern WordPress marks the endpoints that may run inside batch/v1 (docs/spec/current-clients.md §0).
      return batchAllowed(route, e) ? { methods: e.methods, args, allow_batch: { v1: true } } : { methods: e.methods, args };
    }),
  };
  if (help && route.options.schema) entry.schema = route.options.schema() as JsonValue;
  if (!route.pattern.hasVariables) entry._links = { self: selfUrl(route.pattern.source) };
  return entry;
}

/** The `routes` object of the index or a namespace index. */
export function describeRoutes(routes: readonly Route[], selfUrl: (path: string) => string, namespace?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const route of routes) {
    if (namespace !== undefined && route.namespace !== namespace) continue;
    const entry = describeRoute(route, selfUrl, false);
    if (entry) out[route.pattern.source] = entry;
  }
  return out;
}
