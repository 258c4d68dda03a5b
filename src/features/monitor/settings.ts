/** Monitor's settings: what it checks, how often, and where it reports a change. */
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { Type } from '@sinclair/typebox';
import { ConfigError, custom, defineSettings, integer, optionalUrl, readString, type SettingValues } from '../../config/setting.js';

export const monitorSettings = defineSettings({
  monitorUrl: optionalUrl({
    env: 'SITEWARD_MONITOR_URL',
    protocols: ['http:', 'https:'],
    defaultDoc: 'the home URL',
    doc: 'Monitor: the http(s) URL checked',
  }),
  monitorInterval: integer({
    env: 'SITEWARD_MONITOR_INTERVAL',
    default: 60,
    min: 10,
    max: 86400,
    doc: 'Monitor: seconds between checks (at least 10; checks run on the background-job round, every 10 s)',
  }),
  monitorSourceAddress: custom({
    env: 'SITEWARD_MONITOR_SOURCE_ADDRESS',
    defaultDoc: "the system's choice",
    doc: 'Monitor: the local IP address checks leave from (a host with several addresses or networks)',
    schema: Type.Union([Type.String(), Type.Null()], { default: null }),
    read(input) {
      const value = readString(input, '').trim();
      if (value === '') return null;
      if (isIP(value) === 0) throw new ConfigError(`${input.label} must be an IP address of this machine (got ${JSON.stringify(value)})`);
      return value;
    },
  }),
  hostId: custom({
    env: 'SITEWARD_HOST_ID',
    defaultDoc: "the machine's host name",
    doc: "This host's name among several sharing one PostgreSQL: Monitor counts its quorum by host (give each host its own)",
    schema: Type.String(),
    read: (input) => readString(input, hostname()).trim() || hostname(),
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof monitorSettings> {}
}
