/** The connection's settings: the central account service (an OpenID Connect provider) and the site's client there. */
import { Type } from '@sinclair/typebox';
import { isLoopbackHost } from '../../core/loopback-host.js';
import {
  ConfigError,
  custom,
  defineSettings,
  integer,
  optionalText,
  parseUrl,
  readOptionalText,
  type SettingValues,
} from '../../config/setting.js';

export const connectionSettings = defineSettings(
  {
    accountsIssuer: custom({
      env: 'SITEWARD_ACCOUNTS_ISSUER',
      doc: 'the central account service: an OpenID Connect issuer URL (discovery at `/.well-known/openid-configuration`). Must be `https://`; plain `http://` only for 127.0.0.1, ::1 and localhost',
      defaultDoc: '—',
      schema: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { default: null }),
      // https, or plain http on a loopback host only (nothing leaves the machine).
      read(input) {
        const issuer = readOptionalText(input);
        if (issuer === null) return null;
        const url = parseUrl(issuer);
        if (url === null) throw new ConfigError(`${input.label} must be an absolute https URL (got ${JSON.stringify(issuer)})`);
        if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
          throw new ConfigError(
            `${input.label} must be a plain issuer URL without query, fragment or credentials (got ${JSON.stringify(issuer)})`,
          );
        }
        if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return issuer;
        throw new ConfigError(
          `${input.label} must use https; plain http is allowed only for 127.0.0.1, ::1 and localhost (got ${JSON.stringify(issuer)})`,
        );
      },
    }),
    accountsClientId: optionalText({
      env: 'SITEWARD_ACCOUNTS_CLIENT_ID',
      defaultDoc: '—',
      doc: 'a client registered by hand at the provider; unset: the site registers itself (dynamic client registration)',
    }),
    accountsClientSecret: optionalText({
      env: 'SITEWARD_ACCOUNTS_CLIENT_SECRET',
      defaultDoc: '—',
      doc: "that client's secret (needs the client id)",
    }),
    accountsRegistrationToken: optionalText({
      env: 'SITEWARD_ACCOUNTS_REGISTRATION_TOKEN',
      defaultDoc: '—',
      doc: 'initial access token for dynamic registration at a guarded provider',
    }),
    accountsName: optionalText({
      env: 'SITEWARD_ACCOUNTS_NAME',
      defaultDoc: "the issuer's host name",
      doc: 'the account service\'s name as people know it, shown on the login page ("Log in with <name>") when the `sso` module is on',
    }),
    accountsTimeoutMs: integer({
      env: 'SITEWARD_ACCOUNTS_TIMEOUT_MS',
      default: 4000,
      min: 1,
      max: 120_000,
      doc: 'bound of each operation that calls the provider; past it the answer is 504 (down: 502) and the stored connection is unchanged',
    }),
  },
  (values, { labelOf }) => {
    if (values.accountsClientSecret !== null && values.accountsClientId === null) {
      throw new ConfigError(`${labelOf('accountsClientSecret')} needs ${labelOf('accountsClientId')} as well`);
    }
    if (values.accountsIssuer === null) {
      for (const key of ['accountsClientId', 'accountsClientSecret', 'accountsRegistrationToken'] as const) {
        if (values[key] !== null) throw new ConfigError(`${labelOf(key)} needs ${labelOf('accountsIssuer')} as well`);
      }
    }
  },
);

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof connectionSettings> {}
}
