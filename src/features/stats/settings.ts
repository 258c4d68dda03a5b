/** The spam-filter statistics' settings: the Akismet-compatible service and its key. */
import { Type } from '@sinclair/typebox';
import { custom, defineSettings, httpUrl, readString, type SettingValues } from '../../config/setting.js';

export const statsSettings = defineSettings({
  akismetUrl: httpUrl({
    env: 'SITEWARD_AKISMET_URL',
    default: 'https://rest.akismet.com',
    doc: 'Akismet-compatible spam-filter service for `akismet/stats/get`',
  }),
  akismetKey: custom({
    env: 'SITEWARD_AKISMET_KEY',
    doc: 'its API key',
    defaultDoc: '— (`"not_installed"`)',
    schema: Type.Union([Type.String(), Type.Null()], { default: null }),
    read: (input) => (input.raw ? readString(input, '').trim() || null : null),
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof statsSettings> {}
}
