/**
 * Backups' abilities (issue 42 item 2): the list, a backup now, a verification of the newest
 * backups. Each is the operation `siteward/v1/backups` (GET, POST) or the scheduled verification
 * runs, with the routes' permission (manage_settings). Restoring is not an ability: it replaces
 * the whole site and stops it, an administrator's act at the console (`siteward backup restore`).
 */
import type { AuditSource } from '../../wire/audit.js';
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { RestError } from '../../rest/errors.js';
import type { Principal } from '../../rest/types.js';
import type { BackupsList } from '../../wire/siteward-v1.js';
import type { PermissionCheck } from '../jetpack-v4/permissions.js';
import type { VerificationRun } from './scheduled-verification.js';
import { callerActor } from '../abilities/index.js';

export interface BackupOperations {
  list(): Promise<BackupsList | RestError>;
  /** `source`: who asked, for the audit log (the route's request; an ability's run has its own record). */
  start(source?: AuditSource): { started: true } | RestError;
  verify(): Promise<VerificationRun | RestError>;
}

export function registerBackupAbilities(
  api: SitewardApi,
  operations: BackupOperations,
  allows: (check: PermissionCheck, user: Principal) => boolean,
): void {
  const may = (_input: unknown, caller: AbilityCaller) => allows('manage_settings', caller.user);
  api.registerAbilityCategory('siteward-backups', {
    label: 'Backups',
    description: 'Backups of the site’s store to a directory or an S3 bucket, and their verification.',
  });

  api.registerAbility('siteward/list-backups', {
    label: 'List backups',
    description: 'Every backup of each target with its time, size and latest verification, and the last run (as GET siteward/v1/backups).',
    category: 'siteward-backups',
    output_schema: { type: 'object', properties: { running: { type: 'boolean' } }, required: ['running'] },
    permission: may,
    execute: () => operations.list(),
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/backup-now', {
    label: 'Back up now',
    description:
      'Starts a backup at once and answers without waiting (as POST siteward/v1/backups); siteward/list-backups shows it when done.',
    category: 'siteward-backups',
    output_schema: { type: 'object', properties: { started: { type: 'boolean' } }, required: ['started'] },
    permission: may,
    execute: (_input, caller) => operations.start(callerSource(caller)),
    meta: { annotations: { readonly: false, destructive: false, idempotent: false }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/verify-backups', {
    label: 'Verify backups',
    description:
      'Restores the newest backup of each target into a temporary store and checks its integrity, row counts and an administrator login, as the scheduled verification does; records the result.',
    category: 'siteward-backups',
    output_schema: {
      type: 'object',
      properties: { time: { type: 'integer' }, ok: { type: 'boolean' }, targets: { type: 'array', items: { type: 'object' } } },
      required: ['time', 'ok', 'targets'],
    },
    permission: may,
    execute: () => operations.verify(),
    meta: {
      annotations: {
        readonly: false,
        destructive: false,
        idempotent: true,
        instructions: 'Takes a while on a large site; run it once, not in a loop.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });
}

/** Who ran an ability, for the audit log: the user and the credential (one mapping, in the abilities feature). */
function callerSource(caller: AbilityCaller): AuditSource {
  return { actor: callerActor(caller), client_ip: '', user_agent: '', request_id: '' };
}
