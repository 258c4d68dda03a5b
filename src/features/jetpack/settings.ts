/** The jetpack/v4 plugin's setting: which shape `GET settings` answers (docs/spec/current-clients.md A.4). */
import { choice, defineSettings, type SettingValues } from '../../config/setting.js';

export const jetpackSettings = defineSettings({
  settingsShape: choice({
    env: 'SITEWARD_SETTINGS_SHAPE',
    values: ['spec', 'current'],
    default: 'spec',
    doc: '`GET jetpack/v4/settings`: `spec` answers the site-level settings (the spec), `current` the Jetpack 4.4+ object of every module option and activation; `POST settings` always works the 4.4+ way',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof jetpackSettings> {}
}
