/**
 * `GET siteward/v1/audit/checkpoint`, administrators only: the newest signed checkpoint and whether
 * its signature verifies, for the Activity screen's "verified up to" mark. It checks the signature
 * only; walking the chain up to it is `siteward audit verify`'s job (a million rows is no page view).
 */
import { answers, defineRoute, permission } from '../../rest/define-route.js';
import type { RestRequest } from '../../rest/types.js';
import type { KeyObject } from 'node:crypto';
import type { SitewardApi } from '../../plugins/api.js';
import type { AuditLogRepo } from '../../store/types.js';
import type { AuditCheckpointStatus } from '../../wire/audit-checkpoint.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { checkpointSignatureHolds } from './signing.js';

const administrators = permission('custom', (request: RestRequest) => request.user.can('manage_options'));

export async function checkpointStatus(log: AuditLogRepo, publicKey: KeyObject): Promise<AuditCheckpointStatus> {
  const newest = (await log.checkpoints()).at(-1);
  if (newest === undefined) return { checkpoint: null, signature_valid: false };
  const { last_id, head_hash, count, time } = newest;
  return { checkpoint: { last_id, head_hash, count, time }, signature_valid: checkpointSignatureHolds(publicKey, newest) };
}

export function registerCheckpointRoute(api: Pick<SitewardApi, 'registerRoute'>, log: AuditLogRepo, publicKey: KeyObject): void {
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/audit/checkpoint',
    defineRoute({
      permission: administrators,
      response: answers<AuditCheckpointStatus>(),
      handler: () => checkpointStatus(log, publicKey),
    }),
  );
}
