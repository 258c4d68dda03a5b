import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { loadConfig } from '../settings.js';

const load = (env: Record<string, string>) =>
  loadConfig({ env: { SITEWARD_HOME_URL: 'https://example.org', ...env }, configFile: null, cwd: '/tmp' });

describe('configuration of the services Siteward runs itself', () => {
  it('has the documented defaults', () => {
    expect(load({})).toMatchObject({
      protectMaxFailures: 5,
      protectWindow: 900,
      protectBlock: 900,
      monitorUrl: null,
      monitorInterval: 60,
      monitorWebhook: null,
      smtpUrl: null,
      mailFrom: 'siteward@example.org',
      historyRetentionDays: 400,
    });
  });

  it('reads every setting from the environment', () => {
    expect(
      load({
        SITEWARD_PROTECT_MAX_FAILURES: '3',
        SITEWARD_PROTECT_WINDOW: '60',
        SITEWARD_PROTECT_BLOCK: '3600',
        SITEWARD_MONITOR_URL: 'https://status.example.org/health',
        SITEWARD_MONITOR_INTERVAL: '10',
        SITEWARD_MONITOR_WEBHOOK: 'https://hooks.example.org/x',
        SITEWARD_SMTP_URL: 'smtps://user:pass@mail.example.org:465',
        SITEWARD_MAIL_FROM: 'Site <site@example.org>',
        SITEWARD_HISTORY_RETENTION_DAYS: '30',
      }),
    ).toMatchObject({
      protectMaxFailures: 3,
      protectWindow: 60,
      protectBlock: 3600,
      monitorUrl: 'https://status.example.org/health',
      monitorInterval: 10,
      monitorWebhook: 'https://hooks.example.org/x',
      smtpUrl: 'smtps://user:pass@mail.example.org:465',
      mailFrom: 'Site <site@example.org>',
      historyRetentionDays: 30,
    });
  });

  it.each([
    ['SITEWARD_PROTECT_MAX_FAILURES', '0'],
    ['SITEWARD_PROTECT_WINDOW', '-5'],
    ['SITEWARD_PROTECT_BLOCK', 'soon'],
    ['SITEWARD_MONITOR_INTERVAL', '9'],
    ['SITEWARD_MONITOR_URL', 'ftp://example.org/'],
    ['SITEWARD_MONITOR_WEBHOOK', 'not a url'],
    ['SITEWARD_SMTP_URL', 'http://mail.example.org'],
    ['SITEWARD_MAIL_FROM', 'nobody'],
    ['SITEWARD_MAIL_FROM', 'x@example.org\r\nBcc: victim@example.org'],
    ['SITEWARD_HISTORY_RETENTION_DAYS', '0'],
  ])('refuses %s=%j with a one-line message naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(name);
  });
});
