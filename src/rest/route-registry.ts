import { compilePattern, expandSegmentParams, matchParams, type CompiledPattern } from './route-pattern.js';
import { DEFAULT_ROUTE_BODY_LIMIT } from './types.js';
import type {
  ArgDefinition,
  BatchOption,
  EndpointCallback,
  EndpointDefinition,
  PermissionCallback,
  ResponseSchema,
  RouteOptions,
} from './types.js';

/** An endpoint after normalisation (defaults applied, methods upper-cased). */
export interface Endpoint {
  readonly methods: readonly string[];
  readonly methodSet: ReadonlySet<string>;
  readonly callback: EndpointCallback | undefined;
  readonly permissionCallback: PermissionCallback | undefined;
  readonly args: Readonly<Record<string, ArgDefinition>>;
  /** The keys of `args`, listed once at registration (argument handling runs on every request). */
  readonly argNames: readonly string[];
  readonly showInIndex: boolean;
  readonly allowBatch: BatchOption | undefined;
  readonly responseSchema: ResponseSchema | undefined;
  readonly responseStatus: number | undefined;
  readonly validateCallback: EndpointDefinition['validateCallback'];
  readonly replayable: NonNullable<EndpointDefinition['replayable']>;
  /** Who registered it: a feature's name, a plugin's, or `rest` for the layer's own documents. */
  readonly owner: string;
  /** EndpointDefinition.maxBodyBytes, or the default. */
  readonly maxBodyBytes: number;
}

/** Whether an endpoint of a route may run inside `batch/v1`: the endpoint's `allowBatch`, else the route's (docs/spec/current-clients.md §E.2). */
export function batchAllowed(route: Route, endpoint: Endpoint): boolean {
  return (endpoint.allowBatch ?? route.options.allowBatch)?.v1 === true;
}

export interface Route {
  readonly pattern: CompiledPattern;
  readonly namespace: string;
  endpoints: Endpoint[];
  options: RouteOptions;
  /** Registration position; later registrations of the same pattern keep it. */
  readonly order: number;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

export type RegisterResult = { ok: true; route: Route; isNew: boolean } | { ok: false; reason: string };

function normalizeMethods(methods: EndpointDefinition['methods']): string[] {
  const list = methods === undefined ? ['GET'] : typeof methods === 'string' ? methods.split(',') : [...methods];
  const out: string[] = [];
  for (const m of list) {
    const method = String(m).trim().toUpperCase();
    if (method !== '' && !out.includes(method)) out.push(method);
  }
  return out;
}

function normalizeEndpoint(def: EndpointDefinition, owner: string): Endpoint {
  const methods = normalizeMethods(def.methods);
  // A copy: the names listed below must stay those of the arguments checked.
  const args = { ...def.args };
  return {
    methods,
    methodSet: new Set(methods),
    callback: def.callback,
    permissionCallback: def.permissionCallback,
    args,
    argNames: Object.keys(args),
    showInIndex: def.showInIndex ?? true,
    allowBatch: def.allowBatch,
    responseSchema: def.responseSchema,
    responseStatus: def.responseStatus,
    validateCallback: def.validateCallback,
    replayable: def.replayable ?? false,
    owner,
    maxBodyBytes: def.maxBodyBytes ?? DEFAULT_ROUTE_BODY_LIMIT,
  };
}

function trimSlashes(s: string): string {
  return s.replace(/^\/+|\/+$/g, '');
}

/** Splits a definition into its endpoints and route-level options (docs/spec/site-management-api.md §4.2 rule 3). */
function splitDefinition(def: EndpointDefinition | readonly EndpointDefinition[]): {
  endpoints: EndpointDefinition[];
  options: RouteOptions;
} {
  if (Array.isArray(def)) {
    const options: RouteOptions = {};
    const withOptions = def as readonly EndpointDefinition[] & RouteOptions;
    if (withOptions.schema) options.schema = withOptions.schema;
    if (withOptions.allowBatch) options.allowBatch = withOptions.allowBatch;
    if (withOptions.invalidParamDetails !== undefined) options.invalidParamDetails = withOptions.invalidParamDetails;
    return { endpoints: [...def], options };
  }
  // A single definition's `allowBatch` is its one endpoint's (WordPress reads the handler's first).
  const single = def as EndpointDefinition & RouteOptions;
  const { schema, invalidParamDetails, ...endpoint } = single;
  const options: RouteOptions = schema ? { schema } : {};
  if (invalidParamDetails !== undefined) options.invalidParamDetails = invalidParamDetails;
  return { endpoints: [endpoint], options };
}

/** How many distinct paths `matchAll` remembers (any client can send new ones, so it is bounded). */
const MATCH_CACHE_SIZE = 1000;

/**
 * Registered routes in registration order, with a first-segment index so that matching cost
 * does not grow with the number of routes of other namespaces.
 */
export class RouteRegistry {
  private readonly byPattern = new Map<string, Route>();
  private ordered: Route[] = [];
  /** first path segment (lower-case) → routes whose pattern starts with that literal segment. */
  private buckets = new Map<string, Route[]>();
  /** routes whose first segment is not literal: tried for every path. */
  private wildcard: Route[] = [];
  private counter = 0;
  /** Changes on every registration, so documents built from the routes can be cached. */
  generation = 0;

  /** Full route of docs/spec/site-management-api.md §4.2 rule 2, with `:name` segments rewritten. */
  static fullRoute(namespace: string, route: string): string {
    const ns = trimSlashes(namespace);
    const r = trimSlashes(route);
    return expandSegmentParams(ns === '' ? `/${r}` : `/${ns}/${r}`);
  }

  /** Registers (or merges, or overrides) a route. `namespace` may be '' only for internal routes. */
  register(
    namespace: string,
    fullRoute: string,
    def: EndpointDefinition | readonly EndpointDefinition[] | (EndpointDefinition & RouteOptions),
    override: boolean,
    owner = 'rest',
  ): RegisterResult {
    const { endpoints, options } = splitDefinition(def);
    const normalized = endpoints.map((endpoint) => normalizeEndpoint(endpoint, owner));
    const existing = this.byPattern.get(fullRoute);
    if (existing && !override) {
      existing.endpoints = [...existing.endpoints, ...normalized];
      existing.options = { ...existing.options, ...options };
      this.generation++;
      return { ok: true, route: existing, isNew: false };
    }
    let pattern: CompiledPattern;
    try {
      pattern = compilePattern(fullRoute);
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    const route: Route = {
      pattern,
      namespace: trimSlashes(namespace),
      endpoints: normalized,
      options,
      order: existing?.order ?? this.counter++,
    };
    this.byPattern.set(fullRoute, route);
    this.reindex();
    this.generation++;
    return { ok: true, route, isNew: !existing };
  }

  has(fullRoute: string): boolean {
    return this.byPattern.has(fullRoute);
  }

  /** All routes in registration order. */
  all(): readonly Route[] {
    return this.ordered;
  }

  /** Paths seen lately → their matches (FIFO-bounded; emptied when routes change). */
  private readonly matchCache = new Map<string, readonly RouteMatch[]>();
  private matchCacheGeneration = -1;

  /**
   * Every route matching the path, in registration order. Remembered per path: clients ask for
   * the same few paths over and over, and a hit replaces a regex per candidate route. The
   * params objects are shared between calls: callers copy them before handing them on.
   */
  matchAll(path: string): readonly RouteMatch[] {
    if (this.matchCacheGeneration !== this.generation) {
      this.matchCache.clear();
      this.matchCacheGeneration = this.generation;
    }
    let matches = this.matchCache.get(path);
    if (matches === undefined) {
      matches = [...this.matching(path)];
      if (this.matchCache.size >= MATCH_CACHE_SIZE) this.matchCache.delete(this.matchCache.keys().next().value!);
      this.matchCache.set(path, matches);
    }
    return matches;
  }

  /** Routes whose pattern matches the path, in registration order. */
  *matching(path: string): Generator<RouteMatch> {
    const lower = path.toLowerCase();
    for (const route of this.candidates(lower)) {
      if (!lower.startsWith(route.pattern.literalPrefix)) continue;
      const m = route.pattern.regex.exec(path);
      if (m) yield { route, params: matchParams(m) };
    }
  }

  private candidates(lowerPath: string): readonly Route[] {
    const end = lowerPath.indexOf('/', 1);
    const seg = end === -1 ? lowerPath.slice(1) : lowerPath.slice(1, end);
    const bucket = this.buckets.get(seg);
    if (!bucket) return this.wildcard;
    if (this.wildcard.length === 0) return bucket;
    return mergeByOrder(bucket, this.wildcard);
  }

  private reindex(): void {
    this.ordered = [...this.byPattern.values()].sort((a, b) => a.order - b.order);
    const buckets = new Map<string, Route[]>();
    const wildcard: Route[] = [];
    for (const route of this.ordered) {
      const prefix = route.pattern.literalPrefix;
      const end = prefix.indexOf('/', 1);
      const complete = end !== -1 || prefix === route.pattern.source.toLowerCase();
      if (!complete || !prefix.startsWith('/')) {
        wildcard.push(route);
        continue;
      }
      const seg = end === -1 ? prefix.slice(1) : prefix.slice(1, end);
      let list = buckets.get(seg);
      if (!list) buckets.set(seg, (list = []));
      list.push(route);
    }
    this.buckets = buckets;
    this.wildcard = wildcard;
  }
}

function mergeByOrder(a: readonly Route[], b: readonly Route[]): Route[] {
  const out: Route[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.order < b[j]!.order)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
