/** Monitor's settings: what it checks, how often, and where it reports a change. */
import { integer, optionalUrl, defineSettings, type SettingValues } from '../../config/setting.js';

export const monitorSettings = defineSettings({
  monitorUrl: optionalUrl({ env: 'SITEWARD_MONITOR_URL', protocols: ['http:', 'https:'], defaultDoc: 'the home URL', doc: 'Monitor: the http(s) URL checked' }),
  monitorInterval: integer({
    env: 'SITEWARD_MONITOR_INTERVAL',
    default: 60,
    min: 10,
    max: 86400,
    doc: 'Monitor: seconds between checks (at least 10; checks run on the background-job round, every 10 s)',
  }),
  monitorWebhook: optionalUrl({
    env: 'SITEWARD_MONITOR_WEBHOOK',
    protocols: ['http:', 'https:'],
    defaultDoc: '—',
    doc: 'Monitor: http(s) URL that gets a JSON POST when the site goes down or comes back (with notifications on)',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof monitorSettings> {}
}
