import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBackupSchedule, type BackupSchedule } from '../core/backup-schedule.js';
import { DEFAULT_AVATAR_SIZES, MAX_AVATAR_SIZE, parseAvatarSizes } from '../core/gravatar.js';
import { isLoopbackHost } from '../core/loopback-host.js';
import { PERMALINK_MODES, type Permalinks } from '../core/permalinks.js';

/** Siteward's configuration after validation. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  homeUrl: string;
  restPrefix: string;
  permalinks: Permalinks;
  plugins: string[];
  avatarSizes: number[];
  siteName: string;
  siteDescription: string;
  timezone: string;
  locale: string;
  trustProxy: boolean;
  tlsCert: string | null;
  tlsKey: string | null;
  databaseUrl: string | null;
  /** Dev/offline mode forced on (docs/spec/compat.md §9 `devMode.constant`). */
  offline: boolean;
  workers: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The central account service (docs/spec/compat.md §9): an OpenID issuer URL, or null when none is configured. */
  accountsIssuer: string | null;
  /** A client registered by hand at the provider; null: the site registers itself dynamically. */
  accountsClientId: string | null;
  accountsClientSecret: string | null;
  /** Initial access token for dynamic client registration. */
  accountsRegistrationToken: string | null;
  /** Bound of every call to the account service, in ms (answers reach the browser within it). */
  accountsTimeoutMs: number;
  /** Protect: failed logins from one address within `protectWindow` seconds that block it. */
  protectMaxFailures: number;
  /** Protect: the failure-counting window, in seconds. */
  protectWindow: number;
  /** Protect: how long a block lasts, in seconds. */
  protectBlock: number;
  /** Monitor: the URL checked; null = the home URL. */
  monitorUrl: string | null;
  /** Monitor: seconds between checks (at least 10). */
  monitorInterval: number;
  /** Monitor: a URL that gets a JSON POST on every down/up change. */
  monitorWebhook: string | null;
  /** `smtp://` or `smtps://` URL of the mail server for notifications; null = no e-mail. */
  smtpUrl: string | null;
  /** Sender of notification e-mails. */
  mailFrom: string;
  /** Protect and monitor history older than this many days is purged. */
  historyRetentionDays: number;
  /** Where backups of the store go; null: backups are not configured. */
  backupDir: string | null;
  /** When scheduled backups run (default daily, `1d`). */
  backupSchedule: BackupSchedule;
  /** Retention: at most this many good backups ... */
  backupKeep: number;
  /** ... none older than this many days (the newest good one always stays). */
  backupMaxAgeDays: number;
  /** The Akismet-compatible spam-filter service. */
  akismetUrl: string;
  /** Its API key; null: not configured (`akismet/stats/get` answers "not_installed"). */
  akismetKey: string | null;
  /** The npm registry asked for plugin updates. */
  npmRegistry: string;
  /** Largest body of a request that is not authenticated or matches no REST route, in bytes. */
  anonymousBodyLimit: number;
  /** PostgreSQL: giving up on opening a connection, in ms. */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: the longest statement, in ms (a frozen database answers 503 after it). */
  dbStatementTimeoutMs: number;
  /** After SIGTERM, connections still open after this many ms are closed. */
  shutdownTimeoutMs: number;
  /** The background-job lease: when its holder dies, another process takes the jobs over within this many ms. */
  jobLeaseMs: number;
  /** PostgreSQL: learn of other processes' changes by LISTEN/NOTIFY (off: read the versions on every request). */
  dbListen: boolean;
  /** The most sub-requests of one `batch/v1` call (WordPress's `rest_get_max_batch_size`, default 25). */
  batchMaxItems: number;
}

/** A bad setting: the message is one line naming the setting and what is allowed. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Keys of `siteward.config.json` and the environment variable that overrides each. */
const SETTINGS = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'SITEWARD_DATA_DIR',
  homeUrl: 'SITEWARD_HOME_URL',
  restPrefix: 'SITEWARD_REST_PREFIX',
  permalinks: 'SITEWARD_PERMALINKS',
  plugins: 'SITEWARD_PLUGINS',
  avatarSizes: 'SITEWARD_AVATAR_SIZES',
  siteName: 'SITEWARD_SITE_NAME',
  siteDescription: 'SITEWARD_SITE_DESCRIPTION',
  timezone: 'SITEWARD_TIMEZONE',
  locale: 'SITEWARD_LOCALE',
  trustProxy: 'SITEWARD_TRUST_PROXY',
  tlsCert: 'SITEWARD_TLS_CERT',
  tlsKey: 'SITEWARD_TLS_KEY',
  databaseUrl: 'SITEWARD_DATABASE_URL',
  offline: 'SITEWARD_OFFLINE',
  workers: 'SITEWARD_WORKERS',
  logLevel: 'LOG_LEVEL',
  bodyLimit: 'SITEWARD_BODY_LIMIT',
  accountsIssuer: 'SITEWARD_ACCOUNTS_ISSUER',
  accountsClientId: 'SITEWARD_ACCOUNTS_CLIENT_ID',
  accountsClientSecret: 'SITEWARD_ACCOUNTS_CLIENT_SECRET',
  accountsRegistrationToken: 'SITEWARD_ACCOUNTS_REGISTRATION_TOKEN',
  accountsTimeoutMs: 'SITEWARD_ACCOUNTS_TIMEOUT_MS',
  protectMaxFailures: 'SITEWARD_PROTECT_MAX_FAILURES',
  protectWindow: 'SITEWARD_PROTECT_WINDOW',
  protectBlock: 'SITEWARD_PROTECT_BLOCK',
  monitorUrl: 'SITEWARD_MONITOR_URL',
  monitorInterval: 'SITEWARD_MONITOR_INTERVAL',
  monitorWebhook: 'SITEWARD_MONITOR_WEBHOOK',
  smtpUrl: 'SITEWARD_SMTP_URL',
  mailFrom: 'SITEWARD_MAIL_FROM',
  historyRetentionDays: 'SITEWARD_HISTORY_RETENTION_DAYS',
  backupDir: 'SITEWARD_BACKUP_DIR',
  backupSchedule: 'SITEWARD_BACKUP_SCHEDULE',
  backupKeep: 'SITEWARD_BACKUP_KEEP',
  backupMaxAgeDays: 'SITEWARD_BACKUP_MAX_AGE_DAYS',
  akismetUrl: 'SITEWARD_AKISMET_URL',
  akismetKey: 'SITEWARD_AKISMET_KEY',
  npmRegistry: 'SITEWARD_NPM_REGISTRY',
  anonymousBodyLimit: 'SITEWARD_ANONYMOUS_BODY_LIMIT',
  dbConnectTimeoutMs: 'SITEWARD_DB_CONNECT_TIMEOUT_MS',
  dbStatementTimeoutMs: 'SITEWARD_DB_STATEMENT_TIMEOUT_MS',
  shutdownTimeoutMs: 'SITEWARD_SHUTDOWN_TIMEOUT_MS',
  jobLeaseMs: 'SITEWARD_JOB_LEASE_MS',
  dbListen: 'SITEWARD_DB_LISTEN',
  batchMaxItems: 'SITEWARD_BATCH_MAX_ITEMS',
} as const satisfies Record<keyof Config, string>;

type RawSettings = Partial<Record<keyof Config, unknown>>;

function label(key: keyof Config): string {
  return `${SETTINGS[key]} (config "${key}")`;
}

function str(raw: RawSettings, key: keyof Config, fallback: string): string {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' && typeof v !== 'number') throw new ConfigError(`${label(key)} must be a string`);
  return String(v);
}

function int(raw: RawSettings, key: keyof Config, fallback: number, min: number, max: number): number {
  const v = raw[key];
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : /^\d+$/.test(String(v).trim()) ? Number(String(v).trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${label(key)} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  }
  return n;
}

function bool(raw: RawSettings, key: keyof Config): boolean {
  const v = raw[key];
  if (v === undefined || v === null || v === '') return false;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  throw new ConfigError(`${label(key)} must be true or false (1/0, yes/no) (got ${JSON.stringify(v)})`);
}

function list(raw: RawSettings, key: keyof Config): string[] {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map(String).map((s) => s.trim()).filter(Boolean);
  return String(v).split(',').map((s) => s.trim()).filter(Boolean);
}

function oneOf<T extends string>(raw: RawSettings, key: keyof Config, allowed: readonly T[], fallback: T): T {
  const v = str(raw, key, fallback).trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(`${label(key)} must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw[key])})`);
  }
  return v as T;
}

function optionalText(raw: RawSettings, key: keyof Config): string | null {
  const v = str(raw, key, '').trim();
  return v === '' ? null : v;
}

/** The account service's issuer: https, or plain http on a loopback host only (nothing leaves the machine). */
function accountsIssuer(raw: RawSettings): string | null {
  const issuer = optionalText(raw, 'accountsIssuer');
  if (issuer === null) return null;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`${label('accountsIssuer')} must be an absolute https URL (got ${JSON.stringify(issuer)})`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`${label('accountsIssuer')} must be a plain issuer URL without query, fragment or credentials (got ${JSON.stringify(issuer)})`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return issuer;
  throw new ConfigError(`${label('accountsIssuer')} must use https; plain http is allowed only for 127.0.0.1, ::1 and localhost (got ${JSON.stringify(issuer)})`);
}

function httpUrl(raw: RawSettings, key: keyof Config, fallback: string): string {
  const value = str(raw, key, fallback).trim().replace(/\/+$/, '');
  let parsed: URL | null = null;
  try {
    parsed = new URL(value);
  } catch {
    // Reported below with the setting's name.
  }
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ConfigError(`${label(key)} must be an absolute http(s) URL (got ${JSON.stringify(raw[key])})`);
  }
  return value;
}

function schedule(raw: RawSettings): BackupSchedule {
  const parsed = parseBackupSchedule(str(raw, 'backupSchedule', '1d'));
  if (!parsed.ok) throw new ConfigError(`${label('backupSchedule')} ${parsed.message}`);
  return parsed.schedule;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** Path of the JSON config file (must exist); default `siteward.config.json` in `cwd` when present; null: none. */
  configFile?: string | null;
  cwd?: string;
  /** Command-line overrides (highest priority). */
  overrides?: RawSettings;
}

/** Reads the optional config file, then the environment, then overrides, and validates everything. */
export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.configFile === null ? null : (options.configFile ?? path.join(cwd, 'siteward.config.json'));
  let raw: RawSettings = {};
  if (file !== null && existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a JSON object`);
    for (const key of Object.keys(parsed)) {
      if (!(key in SETTINGS)) throw new ConfigError(`${file}: unknown setting "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`);
    }
    raw = parsed as RawSettings;
  } else if (options.configFile) {
    throw new ConfigError(`config file ${options.configFile} does not exist`);
  }
  raw = { ...raw };
  for (const [key, envName] of Object.entries(SETTINGS) as [keyof Config, string][]) {
    const value = env[envName];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  Object.assign(raw, options.overrides ?? {});
  return validate(raw, cwd);
}

function validate(raw: RawSettings, cwd: string): Config {
  const port = int(raw, 'port', 8080, 0, 65535);
  const host = str(raw, 'host', '127.0.0.1').trim();
  if (host === '') throw new ConfigError(`${label('host')} must not be empty`);
  const tlsCert = raw.tlsCert ? str(raw, 'tlsCert', '') : null;
  const tlsKey = raw.tlsKey ? str(raw, 'tlsKey', '') : null;
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new ConfigError(`${SETTINGS.tlsCert} and ${SETTINGS.tlsKey} must be set together (both file paths)`);
  }
  for (const [key, p] of [['tlsCert', tlsCert], ['tlsKey', tlsKey]] as const) {
    if (p !== null && !existsSync(path.resolve(cwd, p))) throw new ConfigError(`${label(key)} must name a readable file (${p} does not exist)`);
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const homeUrl = str(raw, 'homeUrl', `${tlsCert ? 'https' : 'http'}://${urlHost}:${port}`).trim().replace(/\/+$/, '');
  let parsedHome: URL;
  try {
    parsedHome = new URL(homeUrl);
  } catch {
    // A home URL derived from HOST fails because of HOST: name that setting.
    if (raw.homeUrl === undefined || raw.homeUrl === null) throw new ConfigError(`${label('host')} must be a host name or an IP address (got ${JSON.stringify(host)})`);
    throw new ConfigError(`${label('homeUrl')} must be an absolute http(s) URL (got ${JSON.stringify(homeUrl)})`);
  }
  if (parsedHome.protocol !== 'http:' && parsedHome.protocol !== 'https:') {
    throw new ConfigError(`${label('homeUrl')} must be an absolute http(s) URL (got ${JSON.stringify(homeUrl)})`);
  }
  const restPrefix = str(raw, 'restPrefix', 'wp-json').trim().replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(restPrefix)) {
    throw new ConfigError(`${label('restPrefix')} must be one or more URL path segments of letters, digits, . _ ~ - (got ${JSON.stringify(raw.restPrefix)})`);
  }
  let avatarSizes: number[];
  try {
    avatarSizes = raw.avatarSizes === undefined ? [...DEFAULT_AVATAR_SIZES] : parseAvatarSizes(list(raw, 'avatarSizes').join(','), MAX_AVATAR_SIZE);
  } catch (error) {
    throw new ConfigError(
      `${label('avatarSizes')} must be a comma-separated list of pixel sizes from 1 to ${MAX_AVATAR_SIZE}, e.g. 24,48,96 (got ${JSON.stringify(raw.avatarSizes)}: ${(error as Error).message})`,
    );
  }
  const timezone = str(raw, 'timezone', 'UTC').trim();
  if (!isTimeZone(timezone)) throw new ConfigError(`${label('timezone')} must be an IANA time zone such as UTC or Europe/Paris (got ${JSON.stringify(timezone)})`);
  const locale = str(raw, 'locale', 'en_US').trim();
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(locale)) throw new ConfigError(`${label('locale')} must be a locale like en_US or de (got ${JSON.stringify(locale)})`);
  const databaseUrl = raw.databaseUrl ? str(raw, 'databaseUrl', '').trim() : null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`${label('databaseUrl')} must be a postgres:// URL (leave it unset for the embedded SQLite store)`);
  }
  const issuer = accountsIssuer(raw);
  const clientId = optionalText(raw, 'accountsClientId');
  const clientSecret = optionalText(raw, 'accountsClientSecret');
  if (clientSecret !== null && clientId === null) {
    throw new ConfigError(`${label('accountsClientSecret')} needs ${label('accountsClientId')} as well`);
  }
  if (issuer === null) {
    for (const key of ['accountsClientId', 'accountsClientSecret', 'accountsRegistrationToken'] as const) {
      if (optionalText(raw, key) !== null) throw new ConfigError(`${label(key)} needs ${label('accountsIssuer')} as well`);
    }
  }
  const workersRaw = raw.workers;
  const workers = workersRaw === 'auto' ? 0 : int(raw, 'workers', 1, 1, 256);
  return {
    port,
    host,
    dataDir: path.resolve(cwd, str(raw, 'dataDir', './data')),
    homeUrl,
    restPrefix,
    permalinks: oneOf(raw, 'permalinks', PERMALINK_MODES, 'pretty'),
    plugins: list(raw, 'plugins'),
    avatarSizes,
    siteName: str(raw, 'siteName', 'My Site'),
    siteDescription: str(raw, 'siteDescription', ''),
    timezone,
    locale,
    trustProxy: bool(raw, 'trustProxy'),
    tlsCert: tlsCert && path.resolve(cwd, tlsCert),
    tlsKey: tlsKey && path.resolve(cwd, tlsKey),
    databaseUrl,
    offline: bool(raw, 'offline'),
    workers,
    logLevel: oneOf(raw, 'logLevel', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    bodyLimit: int(raw, 'bodyLimit', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    accountsIssuer: issuer,
    accountsClientId: clientId,
    accountsClientSecret: clientSecret,
    accountsRegistrationToken: optionalText(raw, 'accountsRegistrationToken'),
    accountsTimeoutMs: int(raw, 'accountsTimeoutMs', 4000, 1, 120_000),
    protectMaxFailures: int(raw, 'protectMaxFailures', 5, 1, 1000),
    protectWindow: int(raw, 'protectWindow', 900, 1, 30 * 86400),
    protectBlock: int(raw, 'protectBlock', 900, 1, 30 * 86400),
    monitorUrl: optionalUrl(raw, 'monitorUrl', ['http:', 'https:']),
    monitorInterval: int(raw, 'monitorInterval', 60, 10, 86400),
    monitorWebhook: optionalUrl(raw, 'monitorWebhook', ['http:', 'https:']),
    smtpUrl: optionalUrl(raw, 'smtpUrl', ['smtp:', 'smtps:']),
    mailFrom: mailFrom(raw, parsedHome.hostname),
    historyRetentionDays: int(raw, 'historyRetentionDays', 400, 1, 3650),
    backupDir: raw.backupDir ? path.resolve(cwd, str(raw, 'backupDir', '')) : null,
    backupSchedule: schedule(raw),
    backupKeep: int(raw, 'backupKeep', 14, 1, 10_000),
    backupMaxAgeDays: int(raw, 'backupMaxAgeDays', 14, 1, 36_500),
    akismetUrl: httpUrl(raw, 'akismetUrl', 'https://rest.akismet.com'),
    akismetKey: raw.akismetKey ? str(raw, 'akismetKey', '').trim() || null : null,
    npmRegistry: httpUrl(raw, 'npmRegistry', 'https://registry.npmjs.org'),
    anonymousBodyLimit: int(raw, 'anonymousBodyLimit', 64 * 1024, 1024, 1024 * 1024 * 1024),
    dbConnectTimeoutMs: int(raw, 'dbConnectTimeoutMs', 5000, 100, 600_000),
    dbStatementTimeoutMs: int(raw, 'dbStatementTimeoutMs', 5000, 100, 3_600_000),
    shutdownTimeoutMs: int(raw, 'shutdownTimeoutMs', 10_000, 0, 600_000),
    // At least 3 s: the holder renews every third of it, and a renewal must fit well inside.
    jobLeaseMs: int(raw, 'jobLeaseMs', 30_000, 3000, 3_600_000),
    dbListen: raw.dbListen === undefined || raw.dbListen === null || raw.dbListen === '' ? true : bool(raw, 'dbListen'),
    // Each sub-request is a full request: the bound keeps one call's work in proportion.
    batchMaxItems: int(raw, 'batchMaxItems', 25, 1, 1000),
  };
}

/** An absolute URL with one of `protocols`, or null when unset. */
function optionalUrl(raw: RawSettings, key: keyof Config, protocols: readonly string[]): string | null {
  const text = str(raw, key, '').trim();
  if (text === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || !protocols.includes(url.protocol)) {
    throw new ConfigError(`${label(key)} must be an absolute ${protocols.map((p) => p.slice(0, -1)).join('/')} URL`);
  }
  return text;
}

/** An address or `Name <address>`; a line break would let it add mail headers. */
function mailFrom(raw: RawSettings, homeHost: string): string {
  const text = str(raw, 'mailFrom', `siteward@${homeHost}`).trim();
  if (!/^[^\r\n@<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(text)) {
    throw new ConfigError(`${label('mailFrom')} must be an e-mail address or "Name <address>" (got ${JSON.stringify(text)})`);
  }
  return text;
}
