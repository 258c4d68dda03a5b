import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { loadConfig } from '../settings.js';

const dir = mkdtempSync(path.join(tmpdir(), 'siteward-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (env: Record<string, string>, file?: object) => {
  const configFile = path.join(dir, `c-${Math.random()}.json`);
  if (file) writeFileSync(configFile, JSON.stringify(file));
  return loadConfig({ env, cwd: dir, configFile: file ? configFile : null });
};

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = load({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(dir, 'data'),
      homeUrl: 'http://127.0.0.1:8080',
      restPrefix: 'wp-json',
      permalinks: 'pretty',
      plugins: [],
      avatarSizes: [24, 48, 96],
      siteName: 'My Site',
      siteDescription: '',
      timezone: 'UTC',
      locale: 'en_US',
      trustProxy: false,
      tlsCert: null,
      databaseUrl: null,
      workers: 1,
    });
  });

  it('derives the home URL from HOST and PORT', () => {
    expect(load({ HOST: '0.0.0.0', PORT: '9000' }).homeUrl).toBe('http://0.0.0.0:9000');
  });

  it('lets environment variables override the config file', () => {
    const c = load({ SITEWARD_SITE_NAME: 'From env' }, { siteName: 'From file', permalinks: 'plain' });
    expect(c.siteName).toBe('From env');
    expect(c.permalinks).toBe('plain');
  });

  it('reads plugins and avatar sizes as comma-separated lists', () => {
    const c = load({ SITEWARD_PLUGINS: './a.js, b-package', SITEWARD_AVATAR_SIZES: '32,64' });
    expect(c.plugins).toEqual(['./a.js', 'b-package']);
    expect(c.avatarSizes).toEqual([32, 64]);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT \(config "port"\) must be an integer from 0 to 65535/],
    [{ PORT: '70000' }, /^PORT .* must be an integer from 0 to 65535/],
    [{ SITEWARD_PERMALINKS: 'fancy' }, /^SITEWARD_PERMALINKS \(config "permalinks"\) must be one of pretty, index, plain/],
    [{ SITEWARD_TIMEZONE: 'Mars/Olympus' }, /^SITEWARD_TIMEZONE .* must be an IANA time zone/],
    [{ SITEWARD_LOCALE: 'english' }, /^SITEWARD_LOCALE .* must be a locale like en_US/],
    [{ SITEWARD_AVATAR_SIZES: '24,big' }, /^SITEWARD_AVATAR_SIZES .* comma-separated list of pixel sizes/],
    [{ SITEWARD_AVATAR_SIZES: '24,4096' }, /^SITEWARD_AVATAR_SIZES .* pixel sizes from 1 to 2048.*Invalid avatar size "4096"/],
    [{ SITEWARD_AVATAR_SIZES: '24,48,24' }, /^SITEWARD_AVATAR_SIZES .* Avatar size 24 is listed twice/],
    [{ SITEWARD_HOME_URL: 'ftp://x' }, /^SITEWARD_HOME_URL .* absolute http\(s\) URL/],
    [{ SITEWARD_HOME_URL: 'not a url' }, /^SITEWARD_HOME_URL .* absolute http\(s\) URL/],
    [{ SITEWARD_REST_PREFIX: 'a b' }, /^SITEWARD_REST_PREFIX .* URL path segments/],
    [{ SITEWARD_TRUST_PROXY: 'perhaps' }, /^SITEWARD_TRUST_PROXY .* must be true or false/],
    [{ SITEWARD_TLS_CERT: 'cert.pem' }, /SITEWARD_TLS_CERT and SITEWARD_TLS_KEY must be set together/],
    [{ SITEWARD_DATABASE_URL: 'mysql://x' }, /^SITEWARD_DATABASE_URL .* must be a postgres:\/\/ URL/],
    [{ SITEWARD_WORKERS: 'many' }, /^SITEWARD_WORKERS .* must be an integer/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL .* must be one of fatal, error, warn, info, debug, trace, silent/],
    [
      { SITEWARD_ACCOUNTS_ISSUER: 'http://accounts.example' },
      /^SITEWARD_ACCOUNTS_ISSUER .* must use https; plain http is allowed only for 127\.0\.0\.1/,
    ],
    [{ SITEWARD_ACCOUNTS_ISSUER: 'accounts.example' }, /^SITEWARD_ACCOUNTS_ISSUER .* must be an absolute https URL/],
    [{ SITEWARD_ACCOUNTS_ISSUER: 'https://a.example/?x=1' }, /^SITEWARD_ACCOUNTS_ISSUER .* without query/],
    [
      { SITEWARD_ACCOUNTS_ISSUER: 'https://a.example', SITEWARD_ACCOUNTS_CLIENT_SECRET: 's' },
      /^SITEWARD_ACCOUNTS_CLIENT_SECRET .* needs SITEWARD_ACCOUNTS_CLIENT_ID/,
    ],
    [{ SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: 't' }, /^SITEWARD_ACCOUNTS_REGISTRATION_TOKEN .* needs SITEWARD_ACCOUNTS_ISSUER/],
    [{ SITEWARD_ACCOUNTS_TIMEOUT_MS: '0' }, /^SITEWARD_ACCOUNTS_TIMEOUT_MS .* must be an integer from 1 to 120000/],
  ])('stops with one clear line for a bad value %o', (env, message) => {
    let error: unknown;
    try {
      load(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('rejects unknown keys in the config file', () => {
    expect(() => load({}, { sitename: 'typo' })).toThrow(/unknown setting "sitename"/);
  });

  it('takes an https account service anywhere and a plain-http one on loopback only', () => {
    expect(load({})).toMatchObject({ accountsIssuer: null, accountsClientId: null, accountsTimeoutMs: 4000 });
    expect(
      load({
        SITEWARD_ACCOUNTS_ISSUER: 'https://accounts.example',
        SITEWARD_ACCOUNTS_CLIENT_ID: 'site',
        SITEWARD_ACCOUNTS_CLIENT_SECRET: 's3',
      }),
    ).toMatchObject({
      accountsIssuer: 'https://accounts.example',
      accountsClientId: 'site',
      accountsClientSecret: 's3',
    });
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000']) {
      expect(load({ SITEWARD_ACCOUNTS_ISSUER: issuer, SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: 't' })).toMatchObject({
        accountsIssuer: issuer,
        accountsRegistrationToken: 't',
      });
    }
  });

  it('accepts workers auto', () => {
    expect(load({ SITEWARD_WORKERS: 'auto' }).workers).toBe(0);
  });

  it('reads the background-job lease period, 30 s by default and at least 3 s', () => {
    expect(load({}).jobLeaseMs).toBe(30_000);
    expect(load({ SITEWARD_JOB_LEASE_MS: '3000' }).jobLeaseMs).toBe(3000);
    expect(() => load({ SITEWARD_JOB_LEASE_MS: '500' })).toThrow(
      'SITEWARD_JOB_LEASE_MS (config "jobLeaseMs") must be an integer from 3000 to 3600000 (got "500")',
    );
  });

  it('listens for PostgreSQL change notifications unless told not to', () => {
    expect(load({}).dbListen).toBe(true);
    expect(load({ SITEWARD_DB_LISTEN: 'off' }).dbListen).toBe(false);
    expect(() => load({ SITEWARD_DB_LISTEN: 'sometimes' })).toThrow('SITEWARD_DB_LISTEN (config "dbListen") must be true or false');
  });
});

describe('configuration of the services Siteward runs itself', () => {
  it('leaves backups and the spam filter unconfigured and uses the public services by default', () => {
    expect(load({})).toMatchObject({
      backupDir: null,
      backupSchedule: { kind: 'interval', everyMs: 86_400_000 },
      backupKeep: 14,
      backupMaxAgeDays: 14,
      akismetUrl: 'https://rest.akismet.com',
      akismetKey: null,
      npmRegistry: 'https://registry.npmjs.org',
    });
  });

  it('reads the backup directory, a daily time, retention and the service URLs', () => {
    const c = load({
      SITEWARD_BACKUP_DIR: 'backups',
      SITEWARD_BACKUP_SCHEDULE: '03:30Z',
      SITEWARD_BACKUP_KEEP: '5',
      SITEWARD_BACKUP_MAX_AGE_DAYS: '30',
      SITEWARD_AKISMET_URL: 'http://127.0.0.1:9999/',
      SITEWARD_AKISMET_KEY: 'abc123',
      SITEWARD_NPM_REGISTRY: 'http://registry.local',
    });
    expect(c).toMatchObject({
      backupDir: path.join(dir, 'backups'),
      backupSchedule: { kind: 'daily', hour: 3, minute: 30, zone: 'utc' },
      backupKeep: 5,
      backupMaxAgeDays: 30,
      akismetUrl: 'http://127.0.0.1:9999',
      akismetKey: 'abc123',
      npmRegistry: 'http://registry.local',
    });
  });

  it.each([
    [
      { SITEWARD_BACKUP_SCHEDULE: 'weekly' },
      /^SITEWARD_BACKUP_SCHEDULE \(config "backupSchedule"\) "weekly": not understood; expected an interval/,
    ],
    [{ SITEWARD_BACKUP_SCHEDULE: '25:00' }, /^SITEWARD_BACKUP_SCHEDULE .* hour 25 is out of range/],
    [{ SITEWARD_BACKUP_KEEP: '0' }, /^SITEWARD_BACKUP_KEEP \(config "backupKeep"\) must be an integer from 1 to 10000/],
    [{ SITEWARD_BACKUP_MAX_AGE_DAYS: 'two weeks' }, /^SITEWARD_BACKUP_MAX_AGE_DAYS .* must be an integer from 1/],
    [{ SITEWARD_AKISMET_URL: 'rest.akismet.com' }, /^SITEWARD_AKISMET_URL \(config "akismetUrl"\) must be an absolute http\(s\) URL/],
    [{ SITEWARD_NPM_REGISTRY: 'ftp://registry' }, /^SITEWARD_NPM_REGISTRY .* must be an absolute http\(s\) URL/],
  ])('stops with one clear line for a bad value %o', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });
});
