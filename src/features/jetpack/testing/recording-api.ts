/**
 * Test helper (not a test file): a SitewardApi that records route registrations, with `on`
 * wired to the given bus as the application does.
 */
import type { RouteDefinition, SitewardApi } from '../../../plugins/api.js';
import type { EventBus } from '../../../core/events.js';
import type { EndpointDefinition } from '../../../rest/types.js';
import type { OptionsRepo } from '../../../store/types.js';

export interface RecordedRoute {
  namespace: string;
  route: string;
  endpoints: EndpointDefinition[];
}

export function recordingApi(events: EventBus, options: OptionsRepo): { api: SitewardApi; routes: RecordedRoute[] } {
  const routes: RecordedRoute[] = [];
  const noop = () => {};
  const api: SitewardApi = {
    registerRoute(namespace: string, route: string, definition: RouteDefinition) {
      const endpoints = Array.isArray(definition) ? [...(definition as EndpointDefinition[])] : [definition as EndpointDefinition];
      routes.push({ namespace, route, endpoints });
      return true;
    },
    registerField: noop,
    deprecatedFunction: noop,
    deprecatedArgument: noop,
    restUrl: (path = '/') => `http://example.org/wp-json/${path.replace(/^\/+/, '')}`,
    on: (event, listener) => events.on(event, listener),
    options,
    site: { homeUrl: 'http://example.org', restPrefix: 'wp-json', permalinks: 'pretty' },
    log: { info: noop, warn: noop, error: noop, debug: noop },
    registerModule: noop,
    addJob: noop,
    registerAbility: noop,
    registerAbilityCategory: noop,
    audit: () => Promise.resolve(),
  };
  return { api, routes };
}

/** The first route (in registration order) whose pattern matches `path` and has an endpoint for `method`, as WordPress matches. */
export function matchRoute(
  routes: readonly RecordedRoute[],
  method: string,
  path: string,
): { route: RecordedRoute; endpoint: EndpointDefinition; params: Record<string, string> } | null {
  for (const route of routes) {
    const source = `^/${route.namespace}${route.route}$`.replace(/\(\?P</g, '(?<');
    const match = new RegExp(source, 'i').exec(path);
    if (!match) continue;
    const endpoint = route.endpoints.find((e) => {
      const methods = typeof e.methods === 'string' ? e.methods.split(',').map((m) => m.trim()) : (e.methods ?? ['GET']);
      return methods.includes(method);
    });
    if (endpoint) return { route, endpoint, params: { ...match.groups } };
  }
  return null;
}
