/** Two-factor settings: which roles must use it. */
import { defineSettings, list, type SettingValues } from '../../config/setting.js';

export const twoFactorSettings = defineSettings({
  twoFactorRequiredRoles: list({
    env: 'SITEWARD_TWO_FACTOR_REQUIRED_ROLES',
    defaultDoc: 'none',
    doc: 'Two-factor: roles (comma-separated, e.g. `administrator,editor`) whose users must enrol before they reach the admin page; the Jetpack option `jetpack_sso_require_two_step` adds `administrator`',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof twoFactorSettings> {}
}
