/**
 * The `Allow` header (docs/spec/site-management-api.md §4.4 rule 2): the methods of a route whose
 * endpoint has no permission callback or one answering exactly true.
 */
import { withSink } from './deprecation.js';
import type { DispatchRequest } from './rest-request.js';
import type { Endpoint, Route } from './route-registry.js';

/**
 * The methods allowed to this request, comma-separated, or null for none. The callbacks are
 * asked in order; speed: the answer comes without a promise unless one of them returns one.
 */
export function allowedMethods(route: Route, request: DispatchRequest | null): string | null | Promise<string | null> {
  const allowed: string[] = [];
  const endpoints = route.endpoints;
  for (let i = 0; i < endpoints.length; i++) {
    const answer = permissionAnswer(endpoints[i]!, request);
    if (answer instanceof Promise) return allowedFrom(route, request, i, answer, allowed);
    if (answer === true) addMethods(allowed, endpoints[i]!);
  }
  return allowed.length > 0 ? allowed.join(', ') : null;
}

/** The rest of `allowedMethods` once a permission callback answered with a promise. */
async function allowedFrom(
  route: Route,
  request: DispatchRequest | null,
  from: number,
  pending: Promise<unknown>,
  allowed: string[],
): Promise<string | null> {
  const endpoints = route.endpoints;
  for (let i = from; i < endpoints.length; i++) {
    const answer = i === from ? await pending : await permissionAnswer(endpoints[i]!, request);
    if (answer === true) addMethods(allowed, endpoints[i]!);
  }
  return allowed.length > 0 ? allowed.join(', ') : null;
}

/** One endpoint's permission answer for the Allow header; a throwing callback counts as no. */
function permissionAnswer(endpoint: Endpoint, request: DispatchRequest | null): unknown {
  if (!endpoint.permissionCallback) return true;
  if (!request) return false;
  // The dispatched endpoint's answer is already known; WordPress would ask again and get the same.
  if (request.permissionAsked === endpoint) return request.permissionAnswer;
  try {
    const answer = withSink(request.deprecations, () => endpoint.permissionCallback!(request));
    return answer instanceof Promise ? answer.catch(() => false) : answer;
  } catch {
    return false;
  }
}

function addMethods(allowed: string[], endpoint: Endpoint): void {
  for (const m of endpoint.methods) if (!allowed.includes(m)) allowed.push(m);
}
