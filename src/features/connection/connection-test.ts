/**
 * `GET connection/test` (docs/spec/current-clients.md A.7): the connection's own health as named
 * checks. Each failing check is a `failed_<check>` error whose message says what is wrong and
 * whose `data.resolution` says what an operator can do; like Jetpack's, the data carries no
 * status, so a failure answers 500. Checks that depend on a failed one are skipped, not failed.
 */
import { RestError } from '../../rest/errors.js';
import type { UsersRepo } from '../../store/types.js';
import type { ConnectionService } from './connection-service.js';
import { probeProvider, withDeadline } from './provider-calls.js';

export type ConnectionCheck =
  | 'configured'
  | 'provider_reachable'
  | 'discovery_valid'
  | 'tokens_decryptable'
  | 'master_user'
  | 'master_user_administrator'
  | 'refresh_possible';

/** One failing check; `detail` is the engine's one-line account (never a secret). */
export interface CheckFailure {
  readonly check: ConnectionCheck;
  readonly detail: string;
}

/** What each failing check says, and what to do about it. */
const catalogue: Record<ConnectionCheck, { message: (detail: string) => string; resolution: string }> = {
  configured: {
    message: () => 'No central account service is configured for this site.',
    resolution:
      "Set SITEWARD_ACCOUNTS_ISSUER (config accountsIssuer) to the account service's issuer URL, with SITEWARD_ACCOUNTS_CLIENT_ID or SITEWARD_ACCOUNTS_REGISTRATION_TOKEN, and restart Siteward.",
  },
  provider_reachable: {
    message: (detail) => `The central account service could not be reached: ${detail}.`,
    resolution:
      'Check that the account service is running and reachable from this server (address, DNS, firewall, TLS); if it is only slow, raise SITEWARD_ACCOUNTS_TIMEOUT_MS.',
  },
  discovery_valid: {
    message: (detail) => `The account service's discovery document is not usable: ${detail}.`,
    resolution:
      'Make SITEWARD_ACCOUNTS_ISSUER exactly the issuer the service names in its /.well-known/openid-configuration document, and check that the service answers that document.',
  },
  tokens_decryptable: {
    message: (detail) => `Stored connection data cannot be read: ${detail}.`,
    resolution:
      "The site's secrets changed or the stored data was altered: restore the data directory's secrets (or SITEWARD_SECRET) from before, or disconnect the site and connect it again.",
  },
  master_user: {
    message: (detail) => detail,
    resolution: 'Log in as an administrator and connect the site on the admin page (/admin/).',
  },
  master_user_administrator: {
    message: (detail) => `The user (${detail}) who set up the connection is not an administrator.`,
    resolution: 'Give that user the administrator role again, or disconnect the site and connect it again as an administrator.',
  },
  refresh_possible: {
    message: (detail) => `The account service did not renew the connection owner's tokens: ${detail}.`,
    resolution:
      'Have the connection owner connect again from the admin page; if the account service is only slow, raise SITEWARD_ACCOUNTS_TIMEOUT_MS.',
  },
};

/** Why there is no usable master user (the `master_user` check's message). */
const masterProblems = {
  none: "No administrator is linked as the connection's owner: the site is not connected.",
  gone: 'The user who set up the connection no longer exists on this site.',
} as const;

/** Runs every check, in order; the failing ones. Each call to the provider is bounded by `timeoutMs`. */
export async function runConnectionTest(service: ConnectionService, users: UsersRepo, timeoutMs: number): Promise<CheckFailure[]> {
  const engine = service.engine;
  if (engine === null) return [{ check: 'configured', detail: '' }];
  const failures: CheckFailure[] = [];

  const probe = await probeProvider(engine.issuer, timeoutMs);
  const providerUp = probe.ok;
  if (!probe.ok) {
    const down = probe.error.kind === 'provider_down' || probe.error.kind === 'provider_timeout';
    failures.push({ check: down ? 'provider_reachable' : 'discovery_valid', detail: probe.error.message });
  }

  const unreadable = await engine.unreadableRecords();
  if (unreadable.length > 0) failures.push({ check: 'tokens_decryptable', detail: unreadable.join(', ') });

  const facts = await service.facts();
  const master = facts.master === null ? undefined : await users.byId(facts.master);
  if (facts.master === null || master === undefined) {
    failures.push({ check: 'master_user', detail: facts.master === null ? masterProblems.none : masterProblems.gone });
    return failures;
  }
  if (!(await users.roles(master.id)).includes('administrator'))
    failures.push({ check: 'master_user_administrator', detail: master.login });

  // Renewing needs the provider and the owner's readable tokens; without them it is not tried.
  if (providerUp && !unreadable.some((key) => key.endsWith(`:${master.id}`))) {
    const renewed = await withDeadline(timeoutMs, () => engine.getUser(master.id, { maxAgeMs: 0 }));
    if (!renewed.ok) failures.push({ check: 'refresh_possible', detail: renewed.error.message });
  }
  return failures;
}

/** The wire answer: 200 success, or the failures as one error (the first on top, the rest in `additional_errors`). */
export function connectionTestAnswer(
  failures: readonly CheckFailure[],
  successMessage: string,
): { code: 'success'; message: string } | RestError {
  if (failures.length === 0) return { code: 'success', message: successMessage };
  const [first, ...rest] = failures.map(({ check, detail }) => {
    const entry = catalogue[check];
    return new RestError(`failed_${check}`, entry.message(detail), { resolution: entry.resolution });
  });
  for (const error of rest) first!.add(error);
  return first!;
}
