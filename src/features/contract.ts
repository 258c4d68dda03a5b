/**
 * The feature contract. A feature is a folder whose `Feature` object declares, in
 * `register(ctx)`, everything it contributes to a running Siteward: REST routes (through the
 * same plugin API third parties use), pages and static assets, background jobs, hooks around
 * password checks, home-page head tags, event listeners and CLI subcommands. Tables of its
 * own come as `migrations`, applied when the store opens (before any feature registers).
 *
 * The composition root (src/compose.ts) calls every feature's `register` once, in the order of
 * src/features/index.ts, and then serves what they declared. Features never see Fastify, the
 * REST server or the HTTP adapter: only this context.
 *
 * @example
 * export const helloFeature: Feature = {
 *   name: 'hello',
 *   register(ctx) {
 *     ctx.api.registerRoute('hello/v1', '/greeting', { callback: () => ({ hello: 'world' }) });
 *     ctx.addPage({ method: 'GET', path: '/hello', handle: async () => htmlPage(200, '<p>Hello</p>') });
 *     ctx.addJob({ name: 'hello-tick', everyMs: 60_000, run: async () => ctx.log.info('tick') });
 *   },
 * };
 */
import type { PasswordGuard } from '../auth/password-guards.js';
import type { SitewardAuthenticator } from '../auth/authenticator.js';
import type { Secrets } from '../auth/secrets.js';
import type { UserService } from '../auth/user-service.js';
import type { Config } from '../config/config.js';
import type { SettingGroup } from '../config/setting.js';
import type { EventBus } from '../core/events.js';
import type { BackgroundJob } from '../jobs/job-runner.js';
import type { Logger, SitewardApi } from '../plugins/api.js';
import type { ModuleRegistry } from '../plugins/module-types.js';
import type { AbilityRegistrar } from '../plugins/plugin-api.js';
import type { FieldRegistry } from '../rest/field-registry.js';
import type { RequestOrigin } from '../rest/rest-url.js';
import type { Identity, RefusalObserver } from '../rest/types.js';
import type { MigrationFactory } from '../store/migrations.js';
import type { Store } from '../store/types.js';

export interface Feature {
  /** A short, unique name (logs, errors). */
  readonly name: string;
  /**
   * The settings only this feature uses (`./settings.ts`, see docs/architecture.md "Adding a
   * setting"); the composition root reads them with the rest, and `ctx.config` carries them.
   */
  readonly settings?: SettingGroup;
  /** Tables of the feature's own: migration name → factory. Names sort with every other migration. */
  readonly migrations?: Readonly<Record<string, MigrationFactory>>;
  /** Declares what the feature contributes. Runs once per process, in the composition root's order. */
  register(ctx: FeatureContext): void | Promise<void>;
}

/** What a feature may use and declare while it registers. */
export interface FeatureContext {
  readonly config: Config;
  readonly store: Store;
  /** Every migration the store was opened with besides its own: all features' (backups rebuild their tables). */
  readonly migrations: Readonly<Record<string, MigrationFactory>>;
  /** The directory relative plugin entries and paths resolve against. */
  readonly cwd: string;
  readonly log: Logger;
  /** The bus behind `api.on` (`module.activated`, `setting.updated`, …). */
  readonly events: EventBus;
  /** Milliseconds since the epoch; tests inject their own. */
  readonly clock: () => number;
  /** The plugin API, exactly as third-party plugins get it (routes, fields, modules, jobs, events). */
  readonly api: SitewardApi;
  /** Fields registered on object types (`api.registerField`), for features that define an object type. */
  readonly fields: FieldRegistry;
  readonly auth: {
    readonly authenticator: SitewardAuthenticator;
    readonly users: UserService;
  };
  /** Keys derived from the master secret (`SITEWARD_SECRET` or `DATA_DIR/secret.key`); e.g. the connection seals its tokens with one. */
  readonly secrets: Pick<Secrets, 'encryptionKey' | 'auditSigningSeed'>;
  readonly site: {
    /** The site's home URL without a trailing slash. */
    readonly homeUrl: string;
    /** Dev (offline) mode triggers (docs/spec/compat.md §9). */
    devMode(): { constant: boolean; url: boolean };
  };
  /** Serves a page (HTML, a redirect, a small JSON answer) outside the REST API. */
  addPage(page: PageDefinition): void;
  /** Serves the files of a directory under a URL prefix (e.g. the admin page's built assets). */
  addAssets(assets: AssetDirectory): void;
  /** A periodic job, run on exactly one of the processes sharing the store. */
  addJob(job: BackgroundJob): void;
  /**
   * Runs when the app closes gracefully (a stop signal, `app.close()`): after in-flight requests
   * have finished, before the jobs stop and the store closes; e.g. writing what a feature keeps in
   * memory. A failing hook is logged and does not keep the app from closing.
   */
  onClose(hook: () => Promise<void>): void;
  /** Hooks before and after every password check (login form and JSON, Basic, setup token). */
  addPasswordGuard(guard: PasswordGuard): void;
  /**
   * Observes REST requests refused by an endpoint's permission check (each `batch/v1` item too):
   * the REST layer tells, knowing nothing of who listens (the audit log records `denied` events).
   */
  onRequestRefused(observer: RefusalObserver): void;
  /** Extra `<head>` tags of the home page (already-escaped HTML), asked on every home-page view. */
  addHeadTags(source: () => Promise<readonly string[]>): void;
  /** A `siteward <name> …` subcommand. */
  addCommand(command: CliCommand): void;
  /**
   * Offers a handle to the features registered after this one (e.g. the connection's status to
   * the jetpack/v4 plugin). Keys and types are declared by augmenting `FeatureServices`.
   */
  provide<K extends keyof FeatureServices>(key: K, value: FeatureServices[K]): void;
  /** A handle an earlier feature provided; throws at start-up when none did (a feature-order mistake). */
  need<K extends keyof FeatureServices>(key: K): FeatureServices[K];
}

/**
 * Handles features offer each other, by key. Each providing feature adds its key by module
 * augmentation (`declare module '../contract.js' { interface FeatureServices { … } }`).
 */
export interface FeatureServices {
  /** Where `api.registerModule` puts plugins' modules (provided by the feature that keeps the module catalog). */
  modules: ModuleRegistry;
  /** Where `api.registerAbility` puts abilities (provided by the abilities feature, registered first). */
  abilities: AbilityRegistrar;
}

/** A page request, as far as features need it (no framework types). */
export interface PageRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** PHP-style parsed query string. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The query string as received, with its `?` (`''` when none). */
  readonly search: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** A form or JSON body as an object ({} when none). */
  readonly body: Readonly<Record<string, unknown>>;
  /** The client's address. */
  readonly ip: string;
  readonly origin: RequestOrigin;
  /** The REST root URL for this request's origin, ending in `/`. */
  readonly restRoot: string;
  /** Who is asking (cookie login, application password, anonymous). */
  identity(): Promise<Identity>;
  /**
   * The anti-CSRF token a form of this page must send back in `FORM_TOKEN_FIELD` (the adapter
   * sets the pre-session cookie it is bound to); `formTokenInput()` writes the hidden field.
   */
  formToken(): string;
}

/** The hidden field carrying `PageRequest.formToken()` (src/http/form-guard.ts has the rule). */
export const FORM_TOKEN_FIELD = '_siteward_form';

/** The hidden `<input>` every page form carries. */
export function formTokenInput(request: PageRequest): string {
  return `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${request.formToken()}">`;
}

export interface PageResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * No body when absent (a redirect). Text is encoded for every response; byte chunks are
   * written as they are, in order and without being joined, in one write: a large page kept
   * encoded, with a few per-response parts between its fixed pieces, then costs neither the
   * encoding nor a copy (the admin page). The adapter fills the site's name into text only.
   */
  readonly body?: string | readonly Uint8Array[];
  /** A body sent as it is read (a large download); wins over `body`. */
  readonly stream?: NodeJS.ReadableStream;
  /** Answer as if no page were here: the server's own 404 (HTML for browsers, JSON otherwise). */
  readonly notFound?: true;
}

export interface PageDefinition {
  readonly method: 'GET' | 'POST';
  /** An exact path, e.g. `/admin/`. */
  readonly path: string;
  /**
   * A POST is refused before `handle` when it comes from another site (a foreign `Origin`, or
   * a form without its form token: src/http/form-guard.ts). `'page'`: the page checks itself
   * (`/logout` takes a nonce) or changes nothing (a redirect).
   */
  readonly crossSiteCheck?: 'page';
  handle(request: PageRequest): Promise<PageResponse>;
}

export interface AssetDirectory {
  /** URL prefix ending in `/`, e.g. `/admin/assets/`. */
  readonly urlPrefix: string;
  /** Absolute directory path. */
  readonly dir: string;
  /** Cache-Control for the files (default: one hour). */
  readonly cacheControl?: string;
}

/** Input and output of a CLI subcommand. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly stdin: NodeJS.ReadableStream;
  /**
   * Raw text to standard output, resolved once the stream took it (backpressure: a long export
   * waits for a slow pipe instead of piling up in memory). Absent: commands write lines with `out`.
   */
  readonly write?: (text: string) => Promise<void>;
  /** Aborted when the command should stop (SIGINT, SIGTERM): a command that follows (`audit tail -f`) ends cleanly. */
  readonly signal?: AbortSignal;
}

export interface CliCommand {
  /** The first word after `siteward`, e.g. `backup`. */
  readonly name: string;
  /** One or more help lines, e.g. `backup now`. */
  readonly usage: readonly string[];
  /** Returns the exit code (0 ok, 1 refused, 2 usage). */
  run(args: string[], io: CliIo): Promise<number>;
}

/** An HTML page answer (no caching, no framing). */
export function htmlPage(
  status: number,
  body: string | readonly Uint8Array[],
  headers: Readonly<Record<string, string>> = {},
): PageResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY', ...headers },
    body,
  };
}

/** The server's own "nothing here" answer, as for a path no page serves. */
export function notFound(): PageResponse {
  return { status: 404, notFound: true };
}

/** A JSON answer (no caching). */
export function jsonPage(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): PageResponse {
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8', ...headers }, body: JSON.stringify(body) };
}

/** A redirect answer (302 unless told). */
export function redirect(location: string, status = 302): PageResponse {
  return { status, headers: { Location: location } };
}
