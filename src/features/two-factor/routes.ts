/**
 * `siteward/v1/two-factor`: the current user's second factor. GET the status; POST `/enrol`
 * (a new secret and its QR code), POST `/confirm` with a first code (returns the recovery codes,
 * once); POST `/recovery-codes` (new ones); DELETE with the password. Login sessions only: an
 * application password (never second-factored) cannot turn two-factor on or off.
 */
import { Type } from '@sinclair/typebox';
import { verifyPassword } from '../../auth/passwords.js';
import { answers, defineRoute, permission as named } from '../../rest/define-route.js';
import { forbidden } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import type { SitewardApi } from '../../plugins/api.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { twoFactorError } from './errors.js';
import { RequestSources } from '../audit/index.js';
import type { TwoFactorCodes, TwoFactorEnrolment, TwoFactorStatus as StatusAnswer } from '../../wire/siteward-v1.js';
import type { TwoFactorService, TwoFactorStatus } from './service.js';

/** Said by the status and the enrolment screens (docs too): what two-factor does not cover. */
export const APP_PASSWORDS_NOTE =
  'Application passwords are not asked for a second factor (as in WordPress with its Two-Factor plugin): revoke any you no longer need.';

function statusBody(status: TwoFactorStatus): StatusAnswer {
  return {
    enabled: status.enabled,
    pending: status.pending,
    recovery_codes_left: status.recoveryCodesLeft,
    required: status.required,
    application_passwords: APP_PASSWORDS_NOTE,
  };
}

export function registerTwoFactorRoutes(api: SitewardApi, service: TwoFactorService, store: Store): void {
  // Who asks, for the audit events of enrolling and turning off (docs/audit-log.md).
  const sources = new RequestSources(store.appPasswords);
  // The logged-in user, by a login session (not an application password).
  const permission = named('login_session', (request: RestRequest) => {
    if (request.user.id === 0) return forbidden(false);
    return request.credential ? twoFactorError('session_only') : true;
  });
  const userOf = async (request: RestRequest) => {
    const user = await store.users.byId(request.user.id);
    if (!user) throw new Error('the logged-in user vanished');
    return user;
  };

  api.registerRoute(SITEWARD_NAMESPACE, '/two-factor', [
    defineRoute({
      permission,
      response: answers<StatusAnswer>(),
      handler: async ({ request }) => statusBody(await service.status(request.user.id, request.user.roles)),
    }),
    defineRoute({
      methods: 'DELETE',
      body: Type.Object({ password: Type.String({ description: 'The account password, to turn two-factor off.' }) }),
      permission,
      response: answers<StatusAnswer>(),
      handler: async ({ body, request }) => {
        const user = await userOf(request);
        if (!(await verifyPassword(user.passHash, body.password))) return twoFactorError('wrong_password');
        await service.remove(user.id, await sources.of(request));
        return statusBody(await service.status(user.id, request.user.roles));
      },
    }),
  ]);
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/two-factor/enrol',
    defineRoute({
      methods: 'POST',
      permission,
      response: answers<TwoFactorEnrolment>(),
      handler: async ({ request }) => {
        const enrolment = await service.begin(await userOf(request), await sources.of(request));
        if (!enrolment) return twoFactorError('already_enabled');
        return { secret: enrolment.secret, uri: enrolment.uri, qr: enrolment.qr, application_passwords: APP_PASSWORDS_NOTE };
      },
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/two-factor/confirm',
    defineRoute({
      methods: 'POST',
      body: Type.Object({ code: Type.String({ description: 'The current 6-digit code of the authenticator app.' }) }),
      permission,
      response: answers<TwoFactorCodes>(),
      handler: async ({ body, request }) => {
        const result = await service.confirm(request.user.id, body.code, await sources.of(request));
        if (!result.ok)
          return twoFactorError(
            result.why === 'not-started' ? 'not_started' : result.why === 'already-enabled' ? 'already_enabled' : 'invalid_code',
          );
        return { enabled: true as const, recovery_codes: result.recoveryCodes };
      },
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/two-factor/recovery-codes',
    defineRoute({
      methods: 'POST',
      permission,
      response: answers<TwoFactorCodes>(),
      handler: async ({ request }) => {
        if (!(await service.enabled(request.user.id))) return twoFactorError('not_enabled');
        return { recovery_codes: await service.regenerate(request.user.id, await sources.of(request)) };
      },
    }),
  );
}
