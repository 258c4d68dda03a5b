/**
 * The settings of the process itself (listening, store, site defaults, HTTP limits, mail, shared
 * history retention). A setting that serves one feature is declared in that feature's folder
 * (`src/features/<name>/settings.ts`) and gathered by the composition root (src/settings.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { DEFAULT_AVATAR_SIZES, MAX_AVATAR_SIZE, parseAvatarSizes } from '../core/gravatar.js';
import { PERMALINK_MODES } from '../core/permalinks.js';
import { isTimeZone } from '../core/time-zone.js';
import {
  ConfigError,
  choice,
  custom,
  defineSettings,
  flag,
  integer,
  list,
  optionalPath,
  optionalUrl,
  parseUrl,
  readInteger,
  readString,
  text,
} from './setting.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const coreSettings = defineSettings(
  {
    port: integer({ env: 'PORT', default: 8080, min: 0, max: 65535, doc: 'TCP port (0 = any free port)' }),
    host: custom({
      env: 'HOST',
      doc: 'address to listen on',
      schema: Type.String({ minLength: 1, default: '127.0.0.1' }),
      read(input) {
        const host = readString(input, '127.0.0.1').trim();
        if (host === '') throw new ConfigError(`${input.label} must not be empty`);
        return host;
      },
    }),
    dataDir: custom({
      env: 'SITEWARD_DATA_DIR',
      doc: 'SQLite database, generated secret key',
      schema: Type.String({ default: './data' }),
      read: (input) => path.resolve(input.cwd, readString(input, './data')),
    }),
    homeUrl: custom({
      env: 'SITEWARD_HOME_URL',
      doc: "the site's public URL; all REST URLs are built from it",
      defaultDoc: '`http://HOST:PORT`',
      schema: Type.String({ format: 'uri' }),
      read(input) {
        const host = input.values.host as string;
        const urlHost = host.includes(':') ? `[${host}]` : host;
        const derived = `${input.rawOf('tlsCert') ? 'https' : 'http'}://${urlHost}:${String(input.values.port)}`;
        const homeUrl = readString(input, derived).trim().replace(/\/+$/, '');
        const parsed = parseUrl(homeUrl);
        // A home URL derived from HOST fails because of HOST: name that setting.
        if (parsed === null && (input.raw === undefined || input.raw === null)) {
          throw new ConfigError(`${input.labelOf('host')} must be a host name or an IP address (got ${JSON.stringify(host)})`);
        }
        if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
          throw new ConfigError(`${input.label} must be an absolute http(s) URL (got ${JSON.stringify(homeUrl)})`);
        }
        return homeUrl;
      },
    }),
    restPrefix: custom({
      env: 'SITEWARD_REST_PREFIX',
      doc: 'URL prefix of the REST layer',
      schema: Type.String({ pattern: '^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$', default: 'wp-json' }),
      read(input) {
        const prefix = readString(input, 'wp-json')
          .trim()
          .replace(/^\/+|\/+$/g, '');
        if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(prefix)) {
          throw new ConfigError(
            `${input.label} must be one or more URL path segments of letters, digits, . _ ~ - (got ${JSON.stringify(input.raw)})`,
          );
        }
        return prefix;
      },
    }),
    permalinks: choice({
      env: 'SITEWARD_PERMALINKS',
      values: PERMALINK_MODES,
      default: 'pretty',
      doc: '`pretty` (`/wp-json/…`), `index` (`/index.php/wp-json/…`) or `plain` (`/?rest_route=/…`); `?rest_route=` works in every mode',
    }),
    plugins: list({ env: 'SITEWARD_PLUGINS', defaultDoc: '—', doc: 'comma-separated plugin paths or installed npm package names' }),
    avatarSizes: custom({
      env: 'SITEWARD_AVATAR_SIZES',
      doc: 'avatar pixel sizes',
      defaultDoc: '`24,48,96`',
      schema: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_AVATAR_SIZE }), { default: [...DEFAULT_AVATAR_SIZES] }),
      read(input) {
        if (input.raw === undefined) return [...DEFAULT_AVATAR_SIZES];
        const raw = input.raw;
        const items =
          raw === null ? [] : (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
        try {
          return parseAvatarSizes(items.join(','), MAX_AVATAR_SIZE);
        } catch (error) {
          throw new ConfigError(
            `${input.label} must be a comma-separated list of pixel sizes from 1 to ${MAX_AVATAR_SIZE}, e.g. 24,48,96 (got ${JSON.stringify(raw)}: ${(error as Error).message})`,
          );
        }
      },
    }),
    siteName: text({ env: 'SITEWARD_SITE_NAME', default: 'My Site', doc: 'initial site name (stored on first start)' }),
    siteDescription: text({ env: 'SITEWARD_SITE_DESCRIPTION', default: '', defaultDoc: 'empty', doc: 'initial tagline' }),
    timezone: custom({
      env: 'SITEWARD_TIMEZONE',
      doc: 'initial IANA time zone',
      schema: Type.String({ default: 'UTC' }),
      read(input) {
        const timezone = readString(input, 'UTC').trim();
        if (!isTimeZone(timezone))
          throw new ConfigError(`${input.label} must be an IANA time zone such as UTC or Europe/Paris (got ${JSON.stringify(timezone)})`);
        return timezone;
      },
    }),
    locale: custom({
      env: 'SITEWARD_LOCALE',
      doc: 'initial locale',
      schema: Type.String({ pattern: '^[a-z]{2,3}(_[A-Z]{2})?$', default: 'en_US' }),
      read(input) {
        const locale = readString(input, 'en_US').trim();
        if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(locale))
          throw new ConfigError(`${input.label} must be a locale like en_US or de (got ${JSON.stringify(locale)})`);
        return locale;
      },
    }),
    trustProxy: flag({
      env: 'SITEWARD_TRUST_PROXY',
      defaultDoc: 'off',
      doc: 'honour `X-Forwarded-Proto/Host/For` (set only behind your own proxy); the client address is the last `X-Forwarded-For` entry, the one your proxy appends',
    }),
    tlsCert: optionalPath({
      env: 'SITEWARD_TLS_CERT',
      defaultDoc: '—',
      doc: 'PEM certificate file: serve HTTPS directly (with `SITEWARD_TLS_KEY`)',
    }),
    tlsKey: optionalPath({ env: 'SITEWARD_TLS_KEY', defaultDoc: '—', doc: 'PEM private key file of that certificate' }),
    hstsMaxAge: integer({
      env: 'SITEWARD_HSTS_MAX_AGE',
      default: 31_536_000,
      min: 0,
      max: 63_072_000,
      doc: '`Strict-Transport-Security: max-age` in seconds on every HTTPS response (TLS, or a trusted proxy saying `https`); never on plain HTTP; 0 = off',
    }),
    databaseUrl: custom({
      env: 'SITEWARD_DATABASE_URL',
      doc: '`postgres://…` to use PostgreSQL instead of SQLite',
      defaultDoc: '—',
      schema: Type.Union([Type.String({ pattern: '^postgres(ql)?://' }), Type.Null()], { default: null }),
      read(input) {
        const url = input.raw ? readString(input, '').trim() : null;
        if (url !== null && !/^postgres(ql)?:\/\//.test(url)) {
          throw new ConfigError(`${input.label} must be a postgres:// URL (leave it unset for the embedded SQLite store)`);
        }
        return url;
      },
    }),
    dbConnectTimeoutMs: integer({
      env: 'SITEWARD_DB_CONNECT_TIMEOUT_MS',
      default: 5000,
      min: 100,
      max: 600_000,
      doc: 'PostgreSQL: give up opening a connection after this (the request gets 503, see docs/operations.md)',
    }),
    dbStatementTimeoutMs: integer({
      env: 'SITEWARD_DB_STATEMENT_TIMEOUT_MS',
      default: 5000,
      min: 100,
      max: 3_600_000,
      doc: "PostgreSQL: longest statement; a frozen database answers 503 after it. SQLite: longest wait for another process's write lock, then 503",
    }),
    dbListen: flag({
      env: 'SITEWARD_DB_LISTEN',
      default: true,
      defaultDoc: 'on',
      doc: "PostgreSQL: each process learns of other processes' changes by `LISTEN`/`NOTIFY` (one extra connection) and re-checks at most every second; `off`: it reads the versions from the database on every options read and cookie request (for PostgreSQL-compatible databases without `LISTEN`)",
    }),
    offline: flag({
      env: 'SITEWARD_OFFLINE',
      defaultDoc: 'off',
      doc: 'development/offline mode: modules that need a connection stay unavailable',
    }),
    workers: custom({
      env: 'SITEWARD_WORKERS',
      doc: 'processes (`auto` = one per core)',
      // The value 0 stands for `auto`.
      schema: Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 1, maximum: 256 })], { default: 1 }),
      read: (input) => (input.raw === 'auto' ? 0 : readInteger(input, 1, 1, 256)),
    }),
    bodyLimit: integer({
      env: 'SITEWARD_BODY_LIMIT',
      default: 10 * 1024 * 1024,
      min: 1024,
      max: 1024 * 1024 * 1024,
      doc: 'largest request body in bytes of any route (each route takes at most what it declares, 1 MiB by default; larger → 413 JSON error)',
    }),
    anonymousBodyLimit: integer({
      env: 'SITEWARD_ANONYMOUS_BODY_LIMIT',
      default: 64 * 1024,
      min: 1024,
      max: 1024 * 1024 * 1024,
      doc: 'largest body of a request without valid credentials or for no known REST route, and of pages (`/login`, `/setup`); decided before the body is read',
    }),
    shutdownTimeoutMs: integer({
      env: 'SITEWARD_SHUTDOWN_TIMEOUT_MS',
      default: 10_000,
      min: 0,
      max: 600_000,
      doc: 'after a stop signal (SIGTERM, SIGINT, SIGHUP), connections still open after this are closed',
    }),
    // At least 3 s: the holder renews every third of it, and a renewal must fit well inside.
    jobLeaseMs: integer({
      env: 'SITEWARD_JOB_LEASE_MS',
      default: 30_000,
      min: 3000,
      max: 3_600_000,
      doc: 'background jobs run on the one process holding this lease (renewed every third of it); when that process dies another takes them over within it (at least 3000). Several hosts: [docs/operations.md](operations.md#several-hosts-on-one-postgresql)',
    }),
    // Each sub-request is a full request: the bound keeps one call's work in proportion.
    batchMaxItems: integer({
      env: 'SITEWARD_BATCH_MAX_ITEMS',
      default: 25,
      min: 1,
      max: 1000,
      doc: "the most sub-requests one `batch/v1` call may carry (WordPress's default 25); clients read it from `OPTIONS /wp-json/batch/v1`",
    }),
    smtpUrl: optionalUrl({
      env: 'SITEWARD_SMTP_URL',
      protocols: ['smtp:', 'smtps:'],
      defaultDoc: '—',
      doc: '`smtp://user:pass@host:587` or `smtps://…`: Monitor e-mails to the administrators (with notifications on) and the "Lost your password?" links of `/login` (single use, one hour; without SMTP the page says to use `siteward user set-password`)',
    }),
    mailFrom: custom({
      env: 'SITEWARD_MAIL_FROM',
      doc: 'sender of those e-mails (`address` or `Name <address>`)',
      defaultDoc: '`siteward@<home host>`',
      schema: Type.String(),
      read(input) {
        const home = new URL(input.values.homeUrl as string).hostname;
        const value = readString(input, `siteward@${home}`).trim();
        // A line break would let it add mail headers.
        if (!/^[^\r\n@<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(value)) {
          throw new ConfigError(`${input.label} must be an e-mail address or "Name <address>" (got ${JSON.stringify(value)})`);
        }
        return value;
      },
    }),
    // Site-wide like SMTP: Monitor's alerts and Protect's digests both go to it.
    monitorWebhook: optionalUrl({
      env: 'SITEWARD_MONITOR_WEBHOOK',
      protocols: ['http:', 'https:'],
      defaultDoc: '—',
      doc: 'Monitor: http(s) URL that gets a POST when a check goes down, stays down (reminders), comes back, a certificate nears expiry, or a test is asked (with notifications on); body in docs/operations.md. Protect posts its block digests there too (with its webhook notifications on)',
    }),
    monitorWebhookFormat: choice({
      env: 'SITEWARD_MONITOR_WEBHOOK_FORMAT',
      values: ['json', 'slack', 'discord'] as const,
      default: 'json',
      doc: 'Monitor: the webhook body: `json` (Siteward\'s, documented), `slack` (`{"text"}`: Slack, Mattermost, Discord\'s `/slack` URL) or `discord` (`{"content"}`)',
    }),
    historyRetentionDays: integer({
      env: 'SITEWARD_HISTORY_RETENTION_DAYS',
      default: 400,
      min: 1,
      max: 3650,
      doc: 'Protect and Monitor history older than this is purged',
    }),
    logLevel: choice({
      env: 'LOG_LEVEL',
      values: LOG_LEVELS,
      default: 'info',
      doc: '`fatal`…`trace` or `silent`; `--quiet` lowers `info` to `warn`',
    }),
    logFormat: choice({
      env: 'LOG_FORMAT',
      values: ['auto', 'json', 'pretty'],
      default: 'auto',
      doc: '`json`: one JSON object per line (for log shippers); `pretty`: one human line per entry (`GET /wp-json/ 200 1.2 ms`), coloured on a terminal; `auto`: `pretty` when standard output is a terminal, else `json`',
    }),
  },
  (values, { rawOf, labelOf, envOf }) => {
    if ((values.tlsCert === null) !== (values.tlsKey === null)) {
      throw new ConfigError(`${envOf('tlsCert')} and ${envOf('tlsKey')} must be set together (both file paths)`);
    }
    for (const key of ['tlsCert', 'tlsKey'] as const) {
      const file = values[key];
      if (typeof file === 'string' && !existsSync(file))
        throw new ConfigError(`${labelOf(key)} must name a readable file (${String(rawOf(key))} does not exist)`);
    }
  },
);

/** Environment variables read outside the settings (documented in the same table, no config key). */
export const environmentOnly: readonly { readonly env: string; readonly defaultDoc: string; readonly doc: string }[] = [
  {
    env: 'SITEWARD_SECRET',
    defaultDoc: 'generated',
    doc: 'master secret (≥ 32 bytes); required when several hosts share a store ([several hosts](operations.md#several-hosts-on-one-postgresql)). Otherwise generated into `DATA_DIR/secret.key` (mode 0600)',
  },
];
