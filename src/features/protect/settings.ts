/** Protect's settings: how many failed logins block an address, counted over which window, for how long. */
import { defineSettings, integer, type SettingValues } from '../../config/setting.js';

export const protectSettings = defineSettings({
  protectMaxFailures: integer({
    env: 'SITEWARD_PROTECT_MAX_FAILURES',
    default: 5,
    min: 1,
    max: 1000,
    doc: 'Protect: failed logins from one address (IPv6: its /64) that block it; the 4th block within 24 h lasts 24 h',
  }),
  protectWindow: integer({
    env: 'SITEWARD_PROTECT_WINDOW',
    default: 900,
    min: 1,
    max: 30 * 86400,
    doc: 'Protect: seconds within which those failures count',
  }),
  protectChallengeAfter: integer({
    env: 'SITEWARD_PROTECT_CHALLENGE_AFTER',
    default: 3,
    min: 0,
    max: 1000,
    doc: 'Protect: failed logins from one address after which the HTML login form asks for a proof-of-work challenge (ALTCHA, served by Siteward) before checking the password; 0 turns it off, and at or above the blocking count there is no challenge (the block comes first)',
  }),
  protectBlock: integer({ env: 'SITEWARD_PROTECT_BLOCK', default: 900, min: 1, max: 30 * 86400, doc: 'Protect: seconds a block lasts' }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof protectSettings> {}
}
