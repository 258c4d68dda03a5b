/**
 * The REST layer's own documents, made from the registered routes: the index (`GET /`), each
 * namespace's index, the OpenAPI 3.1 document (`GET /?_openapi=3.1`, `siteward openapi`) and the
 * OPTIONS description of a route, with the caches that spare rebuilding them per request.
 *
 * Speed: each cache keeps a frozen document while the registry's generation (and what else the
 * document shows) is unchanged; being frozen, its JSON text is encoded once too (json-encoder.ts).
 */
import type { JsonObject } from '../core/json.js';
import type { RouteRow } from '../core/route-table.js';
import { restError } from './errors.js';
import { describeRoute, describeRoutes } from './index-document.js';
import { openApiDocument } from './openapi.js';
import type { DispatchRequest } from './rest-request.js';
import type { RequestOrigin, RestUrlBuilder } from './rest-url.js';
import { permissionLabel } from './permission-label.js';
import { batchAllowed, type Route, type RouteRegistry } from './route-registry.js';

export interface SiteSummary {
  name: string;
  description: string;
  url: string;
  home: string;
}

export interface DocumentSources {
  readonly registry: RouteRegistry;
  readonly urls: RestUrlBuilder;
  readonly siteSummary: () => SiteSummary | Promise<SiteSummary>;
  readonly productVersion?: string;
}

export class RestDocuments {
  /** The namespaces, in registration order (the index lists them). */
  readonly namespaces: string[] = [];

  /** The last index document built, reused while nothing in it changed. */
  private indexCache: { generation: number; root: string; site: SiteSummary; doc: unknown } | null = null;
  /** The last OpenAPI document built, per REST root, while no route changed. */
  private openApiCache: { generation: number; root: string; name: string; doc: JsonObject } | null = null;
  /** OPTIONS descriptions of routes without a schema callback, per route (see routeHelp). */
  private readonly helpCache = new WeakMap<Route, { generation: number; root: string; help: Readonly<Record<string, unknown>> | null }>();

  constructor(private readonly sources: DocumentSources) {}

  /** The OpenAPI 3.1 document of every route shown in the index, for the REST root of `origin` (the configured one when absent). */
  async openApi(origin?: RequestOrigin): Promise<JsonObject> {
    const { registry, urls } = this.sources;
    const root = urls('/', origin);
    const { name } = await this.sources.siteSummary();
    const cached = this.openApiCache;
    if (cached && cached.generation === registry.generation && cached.root === root && cached.name === name) return cached.doc;
    const doc = Object.freeze(
      openApiDocument(registry.all(), {
        title: name === '' ? 'Siteward REST API' : `${name} REST API`,
        version: this.sources.productVersion ?? '0.0.0',
        serverUrl: root.replace(/\/$/, ''),
      }),
    );
    this.openApiCache = { generation: registry.generation, root, name, doc };
    return doc;
  }

  /** `GET /`: the index, or the OpenAPI document when `_openapi` asks for it. */
  async index(request: DispatchRequest): Promise<unknown> {
    const asked = request.query._openapi;
    if (asked !== undefined) return asked === '3.1' ? this.openApi(request.origin) : restError('rest_openapi_version');
    const { registry, urls } = this.sources;
    const site = await this.sources.siteSummary();
    const root = urls('/', request.origin);
    const cached = this.indexCache;
    // Speed: compared field by field; a key string built per request cost more than the rest of this method.
    if (
      cached !== null &&
      cached.generation === registry.generation &&
      cached.root === root &&
      cached.site.name === site.name &&
      cached.site.description === site.description &&
      cached.site.url === site.url &&
      cached.site.home === site.home
    ) {
      return cached.doc;
    }
    const url = (p: string) => urls(p, request.origin);
    const doc = Object.freeze({
      name: site.name,
      description: site.description,
      url: site.url,
      home: site.home,
      namespaces: [...this.namespaces],
      authentication: [],
      routes: describeRoutes(registry.all(), url),
      _links: { help: [{ href: 'http://v2.wp-api.org/' }] },
    });
    this.indexCache = { generation: registry.generation, root, site: { ...site }, doc };
    return doc;
  }

  /** `GET /{namespace}`: the namespace's routes. */
  namespace(request: DispatchRequest): unknown {
    const ns = String(request.params.namespace ?? '');
    if (!this.namespaces.includes(ns)) return restError('rest_invalid_namespace');
    const url = (p: string) => this.sources.urls(p, request.origin);
    return {
      namespace: ns,
      routes: describeRoutes(this.sources.registry.all(), url, ns),
      _links: { up: [{ href: url('/') }] },
    };
  }

  /**
   * A route's OPTIONS description. Without a schema callback it depends only on the registration
   * (and, for a route without variables, the REST root of its `self` link), so it is built once
   * and returned frozen. Speed: OPTIONS is then answered without building or encoding the
   * description per request. A schema callback is asked on every OPTIONS, as WordPress does.
   */
  routeHelp(route: Route, origin: RequestOrigin): Record<string, unknown> | null {
    const { registry, urls } = this.sources;
    const selfUrl = (p: string) => urls(p, origin);
    if (route.options.schema) return describeRoute(route, selfUrl, true);
    const root = route.pattern.hasVariables ? '' : selfUrl('/');
    const cached = this.helpCache.get(route);
    if (cached && cached.generation === registry.generation && cached.root === root) return cached.help;
    const built = describeRoute(route, selfUrl, true);
    const help = built === null ? null : Object.freeze(built);
    this.helpCache.set(route, { generation: registry.generation, root, help });
    return help;
  }

  /**
   * One row per method of every registered route, in registration order; paths under `/{prefix}`.
   * The index and namespace documents are the layer's own (`rest`).
   */
  routeTable(prefix: string): RouteRow[] {
    const rows: RouteRow[] = [];
    for (const route of this.sources.registry.all()) {
      for (const endpoint of route.endpoints) {
        const batch = batchAllowed(route, endpoint);
        for (const method of endpoint.methods) {
          rows.push({
            method,
            path: `/${prefix}${route.pattern.source === '/' ? '/' : route.pattern.source}`,
            owner: endpoint.owner,
            permission: permissionLabel(endpoint.permissionCallback),
            batchable: batch ? 'v1' : 'no',
          });
        }
      }
    }
    return rows;
  }
}
