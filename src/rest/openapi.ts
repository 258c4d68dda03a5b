/**
 * The OpenAPI 3.1 document of every registered route, built from the registry: paths from the
 * route patterns, parameters and request bodies from the declared arguments, responses from the
 * response schemas endpoints declare. Nothing is written by hand, so a plugin's route appears as
 * soon as it is registered. Where an endpoint declares no response schema the document says so
 * (a generic JSON response) rather than guess.
 */
import type { JsonObject, JsonValue } from '../core/json.js';
import { permissionLabel } from './permission-label.js';
import { batchAllowed, type Endpoint, type Route } from './route-registry.js';
import type { ArgDefinition, ArgSchema } from './types.js';

export interface OpenApiInfo {
  readonly title: string;
  /** The product's version (the document's `info.version`). */
  readonly version: string;
  /** The REST root without its trailing slash, e.g. `https://example.org/wp-json`. */
  readonly serverUrl: string;
}

/** A route pattern as an OpenAPI path: `{name}` templates with the group's regex as `pattern`. */
interface PathTemplate {
  readonly path: string;
  readonly params: readonly { readonly name: string; readonly pattern: string }[];
}

/** The group's body from `start` (just after `(`) to its matching `)`; -1 when unbalanced. */
function groupEnd(source: string, start: number): number {
  let depth = 1;
  let inClass = false;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

const NAMED_GROUP = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/;

/**
 * Turns `/wp/v2/users/(?P<id>[\d]+)` into `/wp/v2/users/{id}` with `id` matching `^[\d]+$`.
 * Null when the pattern has regex outside named groups (no OpenAPI path can say it).
 */
export function pathTemplate(source: string): PathTemplate | null {
  let path = '';
  const params: { name: string; pattern: string }[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      // An escaped punctuation character is that character; `\d` and friends are classes.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return null;
      path += next;
      i++;
    } else if (c === '(') {
      const named = NAMED_GROUP.exec(source.slice(i));
      if (!named) return null;
      const bodyStart = i + named[0].length;
      const end = groupEnd(source, i + 1);
      if (end === -1) return null;
      params.push({ name: named[1]!, pattern: `^(?:${source.slice(bodyStart, end)})$` });
      path += `{${named[1]!}}`;
      i = end;
    } else if ('^$.|?*+)[]{}'.includes(c)) {
      return null;
    } else {
      path += c;
    }
  }
  return { path, params };
}

const JSON_TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string', 'null']);

/** An argument's schema as JSON Schema 2020-12 (WordPress's draft-04 booleans for exclusive bounds become numbers). */
function argJsonSchema(arg: ArgSchema & { default?: unknown }): JsonObject {
  const out: JsonObject = {};
  if (arg.description !== undefined) out.description = arg.description;
  if (typeof arg.type === 'string' && JSON_TYPES.has(arg.type)) out.type = arg.type;
  if (arg.format !== undefined) out.format = arg.format;
  if (arg.enum !== undefined) out.enum = arg.enum as JsonValue[];
  if (typeof arg.minimum === 'number') {
    if (arg.exclusiveMinimum === true) out.exclusiveMinimum = arg.minimum;
    else out.minimum = arg.minimum;
  }
  if (typeof arg.maximum === 'number') {
    if (arg.exclusiveMaximum === true) out.exclusiveMaximum = arg.maximum;
    else out.maximum = arg.maximum;
  }
  if (arg.maxItems !== undefined) out.maxItems = arg.maxItems;
  if (arg.items !== undefined && typeof arg.items === 'object') out.items = argJsonSchema(arg.items);
  if (arg.properties !== undefined) {
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const [name, member] of Object.entries(arg.properties)) {
      properties[name] = argJsonSchema(member);
      if (member.required === true) required.push(name);
    }
    out.properties = properties;
    if (required.length > 0) out.required = required;
  }
  if (arg.default !== undefined && arg.default !== null && isJson(arg.default)) out.default = arg.default;
  return openObject(out);
}

/**
 * An object schema that names no members takes any (JSON Schema's meaning); saying so keeps
 * generated clients from reading it as an object that must stay empty.
 */
function openObject(schema: JsonObject): JsonObject {
  const props = schema.properties;
  const empty = props === undefined || (props !== null && typeof props === 'object' && Object.keys(props).length === 0);
  if (schema.type === 'object' && empty && schema.additionalProperties === undefined) schema.additionalProperties = true;
  return schema;
}

function isJson(value: unknown): value is JsonValue {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isJson);
  return typeof value === 'object' && Object.values(value as object).every(isJson);
}

/**
 * A WordPress resource schema (draft-04 with `context`, `readonly` and per-property boolean
 * `required`) as JSON Schema 2020-12: `readonly` → `readOnly`, `context` kept as `x-wp-context`,
 * the boolean `required` (which means "required on create" in WordPress) dropped from responses.
 */
export function resourceSchema(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(resourceSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || (key === 'required' && typeof value === 'boolean')) continue;
    if (key === 'readonly') out.readOnly = value;
    else if (key === 'context') out['x-wp-context'] = value;
    else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, prop]) => [name, resourceSchema(prop)]));
    } else if (key === 'items' || key === 'additionalProperties') out[key] = resourceSchema(value);
    else out[key] = value;
  }
  // WordPress's `type` may list several (`["string", "null"]`): JSON Schema allows that too.
  return openObject(out);
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const OPERATION_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);

const GENERIC_RESPONSE = 'Success. This route declares no response schema: the body is JSON whose shape the document does not state.';

/** The success response of an endpoint: its declared schema, or an honest generic JSON answer. */
function successResponse(endpoint: Endpoint, itemRef: string | null): JsonObject {
  const declared = endpoint.responseSchema;
  const item: JsonValue | null = itemRef === null ? null : { $ref: itemRef };
  let schema: JsonValue | null = null;
  if (declared === 'item' && item) schema = item;
  else if (declared === 'collection' && item) schema = { type: 'array', items: item };
  else if (typeof declared === 'function') schema = resourceSchema(declared(item));
  if (schema === null) return { description: GENERIC_RESPONSE, content: { 'application/json': { schema: {} } } };
  return { description: endpoint.responseStatus === 201 ? 'Created.' : 'Success.', content: { 'application/json': { schema } } };
}

function operationId(method: string, path: string, used: Set<string>): string {
  const base = `${method.toLowerCase()}${
    path
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/_$/, '') || '_index'
  }`;
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
  used.add(id);
  return id;
}

/** The parameters and request body of one method of an endpoint. */
function argumentsOf(
  endpoint: Endpoint,
  method: string,
  pathParams: ReadonlySet<string>,
): { parameters: JsonObject[]; requestBody?: JsonObject } {
  const names = endpoint.argNames.filter((name) => !pathParams.has(name));
  if (BODY_METHODS.has(method)) {
    if (names.length === 0) return { parameters: [] };
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const name of names) {
      const arg: ArgDefinition = endpoint.args[name]!;
      properties[name] = argJsonSchema(arg);
      if (arg.required === true) required.push(name);
    }
    const schema: JsonObject = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    // WordPress reads the same arguments from a form body or the query string too.
    return {
      parameters: [],
      requestBody: {
        required: required.length > 0,
        content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      },
    };
  }
  const parameters = names.map((name) => {
    const arg: ArgDefinition = endpoint.args[name]!;
    const schema = argJsonSchema(arg);
    const param: JsonObject = { name, in: 'query', required: arg.required === true, schema };
    // Lists may be sent comma-separated (`a=1,2`) or PHP-style (`a[]=1&a[]=2`); objects PHP-style.
    if (schema.type === 'array') Object.assign(param, { style: 'form', explode: false });
    if (schema.type === 'object') Object.assign(param, { style: 'deepObject', explode: true });
    return param;
  });
  return { parameters };
}

const ERROR_SCHEMA: JsonObject = {
  type: 'object',
  description:
    'Every error: `code`, `message`, and `data` whose `status` is the HTTP status; more errors of one answer in `additional_errors`.',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: {},
    additional_errors: {
      type: 'array',
      items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, data: {} } },
    },
  },
};

/** The name of a route's resource schema in `components.schemas` (its `title`, made unique). */
function schemaName(title: string, used: Map<string, string>, key: string): string {
  const existing = used.get(key);
  if (existing) return existing;
  const base = title.replace(/[^A-Za-z0-9._-]+/g, '_') || 'resource';
  let name = base;
  for (let n = 2; [...used.values()].includes(name); n++) name = `${base}_${n}`;
  used.set(key, name);
  return name;
}

/**
 * The OpenAPI 3.1 document of `routes` (those shown in the index). Routes whose pattern no
 * OpenAPI path can express are listed under `x-siteward-unrepresented-routes`.
 */
export function openApiDocument(routes: readonly Route[], info: OpenApiInfo): JsonObject {
  const paths: JsonObject = {};
  const schemas: JsonObject = { WP_Error: ERROR_SCHEMA };
  const schemaNames = new Map<string, string>();
  const usedIds = new Set<string>();
  const unrepresented: string[] = [];
  const shapes = new Map<string, string>();

  for (const route of routes) {
    const endpoints = route.endpoints.filter((e) => e.showInIndex);
    if (endpoints.length === 0) continue;
    const template = pathTemplate(route.pattern.source);
    // Two templates differing only in their parameters' names are one path to OpenAPI.
    const shape = template?.path.replace(/\{[^}]+\}/g, '{}');
    if (!template || (shape !== undefined && shapes.has(shape) && shapes.get(shape) !== route.pattern.source)) {
      unrepresented.push(route.pattern.source);
      continue;
    }
    shapes.set(shape!, route.pattern.source);

    let itemRef: string | null = null;
    if (route.options.schema) {
      const raw = route.options.schema();
      const title =
        raw !== null && typeof raw === 'object' && !Array.isArray(raw) && typeof raw.title === 'string' ? raw.title : route.pattern.source;
      const name = schemaName(title, schemaNames, JSON.stringify(raw));
      schemas[name] = resourceSchema(raw);
      itemRef = `#/components/schemas/${name}`;
    }

    const pathParams = new Set(template.params.map((p) => p.name));
    const item: JsonObject = { 'x-wp-route': route.pattern.source };
    if (template.params.length > 0) {
      item.parameters = template.params.map((p) => {
        // A path parameter is path text; a declared argument of that name says what it means.
        const declared = endpoints.map((e) => e.args[p.name]).find((a) => a !== undefined);
        const schema: JsonObject = { type: 'string', pattern: p.pattern };
        if (declared?.description !== undefined) schema.description = declared.description;
        return { name: p.name, in: 'path', required: true, schema };
      });
    }
    for (const endpoint of endpoints) {
      for (const method of endpoint.methods) {
        const key = method.toLowerCase();
        // The first endpoint taking a method serves it, as at dispatch.
        if (!OPERATION_METHODS.has(method) || item[key] !== undefined) continue;
        const { parameters, requestBody } = argumentsOf(endpoint, method, pathParams);
        const operation: JsonObject = {
          operationId: operationId(method, template.path, usedIds),
          tags: [route.namespace === '' ? 'index' : route.namespace],
          'x-permission': permissionLabel(endpoint.permissionCallback),
          'x-owner': endpoint.owner,
        };
        if (batchAllowed(route, endpoint)) operation['x-wp-allow-batch'] = { v1: true };
        if (parameters.length > 0) operation.parameters = parameters;
        if (requestBody) operation.requestBody = requestBody;
        operation.responses = {
          [String(endpoint.responseStatus ?? 200)]: successResponse(endpoint, itemRef),
          default: { description: 'An error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/WP_Error' } } } },
        };
        item[key] = operation;
      }
    }
    if (item.options === undefined) {
      item.options = {
        operationId: operationId('OPTIONS', template.path, usedIds),
        tags: [route.namespace === '' ? 'index' : route.namespace],
        description: "The route's description (methods, arguments and, when it has one, its schema); no permission check.",
        responses: {
          '200': { description: 'The route as the index shows it.', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      };
    }
    paths[template.path] = item;
  }

  const doc: JsonObject = {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        'Generated from the routes this server has registered (built-in features and plugins). Route patterns are matched case-insensitively. ' +
        'Arguments of POST, PUT and PATCH may also be sent as a form body or in the query string; PUT, PATCH and DELETE may be sent as POST with `X-HTTP-Method-Override`. ' +
        'Responses without a declared schema are described as generic JSON.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: info.serverUrl }],
    security: [{}, { loginCookie: [], restNonce: [] }, { applicationPassword: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        loginCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'siteward_logged_in',
          description: 'The login cookie of /login; counts only with a valid nonce.',
        },
        restNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: 'The `wp_rest` nonce of the logged-in session.' },
        applicationPassword: { type: 'http', scheme: 'basic', description: 'A login (or e-mail) and an application password.' },
      },
    },
  };
  if (unrepresented.length > 0) doc['x-siteward-unrepresented-routes'] = unrepresented;
  return doc;
}
