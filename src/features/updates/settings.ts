/** The plugin updates' setting: the registry asked for newer versions. */
import { defineSettings, httpUrl, type SettingValues } from '../../config/setting.js';

export const updatesSettings = defineSettings({
  npmRegistry: httpUrl({
    env: 'SITEWARD_NPM_REGISTRY',
    default: 'https://registry.npmjs.org',
    doc: 'registry asked for newer versions of plugin packages (`updates/plugins`)',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof updatesSettings> {}
}
