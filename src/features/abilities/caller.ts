/**
 * Who ran an ability, as the audit log names them: the one home of this mapping, for the audit
 * feature's `ability.run` events and for the operations an ability runs (backups).
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { AuditActor, AuditCredential } from '../../wire/audit.js';

/** The caller's credential: an application password by uuid, an OAuth client (`oauth:<id>`) by client id. */
export function callerCredential(caller: AbilityCaller): AuditCredential {
  const credential = caller.credential;
  if (credential === null) return { type: 'none' };
  if (credential.startsWith('oauth:')) return { type: 'oauth', client_id: credential.slice('oauth:'.length) };
  return { type: 'application_password', uuid: credential, name: '' };
}

export function callerActor(caller: AbilityCaller): AuditActor {
  return {
    kind: caller.user.id === 0 ? 'anonymous' : 'user',
    user_id: caller.user.id,
    login: caller.user.login,
    credential: callerCredential(caller),
  };
}
