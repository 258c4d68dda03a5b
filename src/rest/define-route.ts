/**
 * One way to declare an endpoint: `defineRoute({ params, query, body, response, permission,
 * guards, handler })`, with TypeBox schemas (the models: fastify's type providers, hono's
 * validator). From the one declaration come:
 * - WordPress's `args` (each property of `query` and `body`, and of `params` marked
 *   `asArgument`), validated and sanitized by the REST layer exactly as hand-written `args` are
 *   (src/rest/arguments.ts: the spec's messages), and so the index, OPTIONS and OpenAPI documents;
 * - the handler's input, typed `Static<>` of each schema: `params` from the URL the route matched
 *   (converted from text once the pattern matched: `\d+` → a number), `query` and `body` from the
 *   request's sanitized parameters (WordPress merges every source: a `query` argument may come in
 *   a form body too; the split says what the documents show), and `sent`, the names of every
 *   parameter the request carries;
 * - opt-in, for a handler that must keep WordPress's order for a URL parameter: a `params`
 *   property marked `wordpressOrder` is read from the merged parameters, where a JSON body, form
 *   body or query member of the same name wins over the URL's (WordPress's `get_param()`: e.g.
 *   `GET wp/v2/users/1?id=2` reads user 2). Mark it `asArgument` too, so that a value from
 *   elsewhere is validated and sanitized as the URL's would be.
 * - the permission check (a named check object: the route table shows its name) and the guards,
 *   pre-handlers run in order after the permission check (e.g. `moduleActive('monitor')`): the
 *   first that answers an error answers the request.
 * Everything is worked out once, when the route is declared; a request costs one small object per
 * schema.
 *
 * @example
 * api.registerRoute('my-plugin/v1', '/notes/(?P<id>\\d+)', defineRoute({
 *   methods: 'POST',
 *   params: Type.Object({ id: Type.Integer() }),
 *   body: Type.Object({ text: Type.String({ description: 'The note.' }), pinned: Type.Optional(Type.Boolean()) }),
 *   response: answers<Note>(),
 *   permission: permission('edit_posts', (request) => request.user.can('edit_posts')),
 *   handler: ({ params, body }) => notes.update(params.id, body.text, body.pinned ?? false),
 * }));
 */
import { Kind, OptionalKind, Type, type Static, type TObject, type TProperties, type TSchema, type TUnsafe } from '@sinclair/typebox';
import type { RestError } from './errors.js';
import { labelPermission, permissionLabel } from './permission-label.js';
import { andThen } from './step.js';
import type {
  ArgDefinition,
  ArgSchema,
  EndpointDefinition,
  PermissionCallback,
  ResponseSchema,
  RestRequest,
  RestResponse,
  ValidateResult,
} from './types.js';

/**
 * A permission check with the name the route table (`siteward routes`, docs/routes.md) shows for
 * it. A check that takes a second parameter gets the route's typed input too (e.g. whose account
 * a request names).
 */
export interface NamedPermission<I = unknown> {
  readonly name: string;
  readonly check: (request: RestRequest, input: I) => ReturnType<PermissionCallback>;
}

/** Names a permission check: true lets the request on; false, null or an error refuses it (docs/spec/site-management-api.md §4.4). */
export function permission<I = unknown>(
  name: string,
  check: (request: RestRequest, input: I) => ReturnType<PermissionCallback>,
): NamedPermission<I> {
  return { name, check: labelPermission(check as PermissionCallback, name) };
}

/** A permission given either way, as a named check: a plain callback keeps the name it was labelled with (`custom` when none). */
export function asNamed(check: NamedPermission | PermissionCallback): NamedPermission {
  return typeof check === 'function' ? permission(permissionLabel(check), check) : check;
}

/** Anyone may call (the route table says `public`). */
export const PUBLIC: NamedPermission<unknown> = permission('public', () => true);

/** A pre-handler: null lets the request on, an error answers it (e.g. 404 `not_active` while a module is off). */
export type Guard = (request: RestRequest) => RestError | null | Promise<RestError | null>;

/** What a success answers: the wire type (`src/wire`), and for the OpenAPI document its schema and status. */
export interface Answers<R> {
  readonly schema?: ResponseSchema;
  readonly status?: number;
  /** Type only: never set. */
  readonly type?: (answer: R) => void;
}

/** Declares what a handler answers: `answers<MonitorOverview>()`. */
export function answers<R>(options: { schema?: ResponseSchema; status?: number } = {}): Answers<R> {
  return options;
}

/** The handler's input. */
export interface RouteInput<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /**
   * The names of every parameter the request carries, from every source (URL, query, form and
   * JSON body, and defaults: the keys of WordPress's `get_params()`), declared or not; worked out
   * when read. For a check that depends on what else was sent (e.g. a roles-only change).
   */
  readonly sent: readonly string[];
  /** The whole request (the user, headers, deprecation notices). */
  readonly request: RestRequest;
}

type Reply<R> = R | RestError | RestResponse;

/**
 * The declaration. Besides its own members it takes every other option of an endpoint
 * (`showInIndex`, `allowBatch`, `replayable`, `validateCallback`, …) as `EndpointDefinition` says.
 */
export interface RouteDeclaration<P extends TProperties, Q extends TProperties, B extends TProperties, R> extends Omit<
  EndpointDefinition,
  'methods' | 'callback' | 'permissionCallback' | 'args' | 'responseSchema' | 'responseStatus'
> {
  /** A method, a comma-separated list or an array. Default `GET`. */
  readonly methods?: string | readonly string[];
  /** The URL's named groups (`(?P<id>\d+)`); a property marked `asArgument` is also one of the endpoint's `args`. */
  readonly params?: TObject<P>;
  readonly query?: TObject<Q>;
  readonly body?: TObject<B>;
  readonly response?: Answers<R>;
  readonly permission: NamedPermission<RouteInput<Static<TObject<P>>, Static<TObject<Q>>, Static<TObject<B>>>>;
  readonly guards?: readonly Guard[];
  // `NoInfer`: the answer type comes from `response` only (unknown without one), never from what the handler returns.
  readonly handler: (
    input: RouteInput<Static<TObject<P>>, Static<TObject<Q>>, Static<TObject<B>>>,
  ) => Reply<NoInfer<R>> | Promise<Reply<NoInfer<R>>>;
}

/** WordPress's per-argument callbacks, as options of a TypeBox schema: `Type.String({ validateCallback })`. */
export interface ArgCallbacks {
  validateCallback?: (value: unknown, request: RestRequest, name: string) => ValidateResult | Promise<ValidateResult>;
  /** `null` turns the schema sanitizing off (WordPress 4.7.1). */
  sanitizeCallback?: ((value: unknown, request: RestRequest, name: string) => unknown) | null;
  /** For a `params` property: list it among the endpoint's `args` too (validated, shown in the documents). */
  asArgument?: boolean;
  /**
   * For a `params` property: read it in WordPress's order (JSON body → form body → query → URL),
   * not from the URL alone (see the file's comment). Pair it with `asArgument`.
   */
  wordpressOrder?: boolean;
  /** WordPress's `required` of a defaulted argument (shown as required; with its default it is never missing). */
  required?: boolean;
}

const CHECKED_BY_HANDLER = 'x-siteward-checked-by-handler';

/**
 * A member the handler's own parser checks (one parser for REST and the CLI): shown in the
 * documents with its type and description, not checked or sanitized by the REST layer, and
 * read as sent (from the JSON body, else the form fields). Its type is `unknown`.
 */
export function checkedByHandler(type: NonNullable<ArgSchema['type']>, description: string): TUnsafe<unknown> {
  return Type.Unsafe<unknown>({ type, description, [CHECKED_BY_HANDLER]: true });
}

/** Declares an endpoint (see the file's comment); pass the result to `registerRoute`, alone or in a list. */
export function defineRoute<
  P extends TProperties = Record<never, never>,
  Q extends TProperties = Record<never, never>,
  B extends TProperties = Record<never, never>,
  R = unknown,
>(declaration: RouteDeclaration<P, Q, B, R>): EndpointDefinition {
  const args: Record<string, ArgDefinition> = {};
  const urlReaders = declaration.params ? paramReaders(declaration.params, args) : [];
  const queryNames = declaration.query ? addArgs(declaration.query, args) : [];
  const bodyNames = declaration.body ? addArgs(declaration.body, args) : [];
  const raw = new Set(declaration.body ? handlerChecked(declaration.body) : []);
  const handler = declaration.handler;
  type Input = RouteInput<Static<TObject<P>>, Static<TObject<Q>>, Static<TObject<B>>>;
  const shape: InputShape = { urlReaders, queryNames, bodyNames, raw };
  const input = (request: RestRequest) => new LazyInput(shape, request) as unknown as Input;
  const run = (request: RestRequest) => handler(input(request));
  const { params: _p, query: _q, body: _b, response, permission: named, guards = [], handler: _h, ...options } = declaration;
  const { name, check } = named;
  const definition: EndpointDefinition = {
    ...options,
    methods: declaration.methods ?? 'GET',
    // The input is read for a check that asks for it only (it runs before the handler, which reads it again).
    permissionCallback:
      check.length < 2 ? (check as PermissionCallback) : labelPermission((request) => check(request, input(request)), name),
    callback: guards.length === 0 ? run : (request) => andThen(guarded(guards, request, 0), (refusal) => refusal ?? run(request)),
  };
  if (Object.keys(args).length > 0) definition.args = args;
  if (response?.schema !== undefined) definition.responseSchema = response.schema;
  if (response?.status !== undefined) definition.responseStatus = response.status;
  return definition;
}

/** What an endpoint's input is read with, worked out when the route is declared. */
interface InputShape {
  readonly urlReaders: readonly UrlReader[];
  readonly queryNames: readonly string[];
  readonly bodyNames: readonly string[];
  readonly raw: ReadonlySet<string>;
}

/**
 * A RouteInput whose parts are read when first asked for, then kept. Speed: the Allow header asks
 * every endpoint's permission check of the route (users/me: the read's, the update's and the
 * delete's), and most checks read only `params`; building all three parts (and a getter closure)
 * for each cost about 1.3 KB and a few µs per request (docs/performance.md, issue 44). Each part is
 * read from the request as it is when asked, which is when a check or handler destructures it.
 */
class LazyInput implements RouteInput<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>> {
  private readParams_: Record<string, unknown> | undefined = undefined;
  private readQuery_: Record<string, unknown> | undefined = undefined;
  private readBody_: Record<string, unknown> | undefined = undefined;

  constructor(
    private readonly shape: InputShape,
    readonly request: RestRequest,
  ) {}

  get params(): Record<string, unknown> {
    return (this.readParams_ ??= readUrl(this.shape.urlReaders, this.request));
  }

  get query(): Record<string, unknown> {
    return (this.readQuery_ ??= readParams(this.shape.queryNames, this.request, null));
  }

  get body(): Record<string, unknown> {
    return (this.readBody_ ??= readParams(this.shape.bodyNames, this.request, this.shape.raw));
  }

  get sent(): readonly string[] {
    return Object.keys(this.request.params);
  }
}

/** The guards from `from` on, in order: the first refusal, or null. */
function guarded(guards: readonly Guard[], request: RestRequest, from: number): RestError | null | Promise<RestError | null> {
  if (from >= guards.length) return null;
  return andThen(guards[from]!(request), (refusal) => refusal ?? guarded(guards, request, from + 1));
}

/** A declared object, as far as the compiling reads it. */
type Declared = { readonly properties: TProperties };

type SchemaOf = TSchema & ArgSchema & ArgCallbacks & { default?: unknown; anyOf?: TSchema[]; const?: unknown; [CHECKED_BY_HANDLER]?: true };

function isOptional(schema: TSchema): boolean {
  return (schema as unknown as Record<symbol, unknown>)[OptionalKind] === 'Optional';
}

/** Adds the object's properties to `args`, in declaration order; their names. */
function addArgs(object: Declared, args: Record<string, ArgDefinition>): string[] {
  const names = Object.keys(object.properties);
  for (const name of names) args[name] = argOf(object.properties[name] as SchemaOf);
  return names;
}

function handlerChecked(object: Declared): string[] {
  return Object.keys(object.properties).filter((name) => (object.properties[name] as SchemaOf)[CHECKED_BY_HANDLER] === true);
}

/** A property as WordPress's argument: its schema keywords, `required` (neither optional nor defaulted), default and callbacks. */
function argOf(schema: SchemaOf): ArgDefinition {
  if (schema[CHECKED_BY_HANDLER]) {
    return { description: schema.description, type: schema.type, sanitizeCallback: null, validateCallback: () => true };
  }
  const arg: ArgDefinition = argSchemaOf(schema);
  if ((!isOptional(schema) && schema.default === undefined) || schema.required === true) arg.required = true;
  if (schema.default !== undefined) arg.default = schema.default;
  if (schema.validateCallback !== undefined) arg.validateCallback = schema.validateCallback;
  if (schema.sanitizeCallback !== undefined) arg.sanitizeCallback = schema.sanitizeCallback;
  return arg;
}

const KEYWORDS = [
  'type',
  'format',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'maxItems',
  'description',
] as const;

/** The JSON-schema keywords WordPress reads (docs/spec/site-management-api.md §2.6), as a plain object. */
function argSchemaOf(schema: SchemaOf): ArgSchema & { required?: boolean; default?: unknown } {
  const out: Record<string, unknown> = {};
  // A union of literals (`Type.Union([Type.Literal('a'), …])`) is WordPress's `enum`.
  const literals = schema.anyOf?.map((member) => (member as SchemaOf).const);
  if (literals && literals.length > 0 && literals.every((v) => v !== undefined)) {
    out.type = literals.every((v) => typeof v === 'string') ? 'string' : literals.every(Number.isInteger) ? 'integer' : undefined;
    out.enum = literals;
    if (schema.description !== undefined) out.description = schema.description;
    return out as ArgSchema;
  }
  for (const keyword of KEYWORDS) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  if (schema[Kind] === 'Array' && schema.items) out.items = argSchemaOf(schema.items as SchemaOf);
  if (schema[Kind] === 'Object' && schema.properties) {
    const properties: Record<string, ArgSchema> = {};
    const object = schema as unknown as TObject;
    for (const [name, member] of Object.entries(object.properties)) {
      const described: ArgSchema & { required?: boolean; default?: unknown } = argSchemaOf(member as SchemaOf);
      if (object.required?.includes(name) && (member as SchemaOf).default === undefined) described.required = true;
      if ((member as SchemaOf).default !== undefined) described.default = (member as SchemaOf).default;
      properties[name] = described;
    }
    out.properties = properties;
  }
  return out as ArgSchema;
}

type UrlReader = readonly [name: string, convert: (text: string) => unknown, merged: boolean];

/** How each URL parameter becomes its typed value; the ones marked `asArgument` go into `args` too. */
function paramReaders(object: Declared, args: Record<string, ArgDefinition>): UrlReader[] {
  return Object.keys(object.properties).map((name): UrlReader => {
    const schema = object.properties[name] as SchemaOf;
    // Present whenever the route matched: required only when it says so.
    if (schema.asArgument === true) {
      const arg = argOf(schema);
      if (schema.required !== true) delete arg.required;
      args[name] = arg;
    }
    const kind = schema[Kind];
    const merged = schema.wordpressOrder === true;
    if (kind === 'Integer' || kind === 'Number') return [name, Number, merged];
    if (kind === 'String' || (kind === 'Union' && argSchemaOf(schema).type === 'string')) return [name, String, merged];
    throw new Error(`defineRoute: URL parameter ${name} must be a string, a union of string literals, an integer or a number`);
  });
}

/**
 * The URL parameters, read from the URL itself (merged parameters would let a body member of the
 * same name win), or for one marked `wordpressOrder` from the merged parameters, as WordPress reads it.
 */
function readUrl(readers: readonly UrlReader[], request: RestRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, convert, merged] of readers) {
    const value = merged ? request.params[name] : request.urlParams[name];
    if (value !== undefined) out[name] = convert(value as string);
  }
  return out;
}

/** The named parameters that are present (sanitized); the `raw` ones as sent, from the JSON body or else the form fields. */
function readParams(names: readonly string[], request: RestRequest, raw: ReadonlySet<string> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (names.length === 0) return out;
  const params = request.params;
  const sent = raw === null || raw.size === 0 ? null : bodyObject(request);
  for (const name of names) {
    if (sent !== null && raw!.has(name)) {
      if (Object.hasOwn(sent, name)) out[name] = sent[name];
    } else if (Object.hasOwn(params, name) && params[name] !== undefined) out[name] = params[name];
  }
  return out;
}

/** The JSON body when it is an object, else the form fields. */
function bodyObject(request: RestRequest): Record<string, unknown> {
  const json = request.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : request.bodyParams;
}
