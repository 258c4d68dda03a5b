/**
 * An audit event as a test appends it through the store API (`store.auditLog.append`): an
 * administrator `root` acting with no credential, on an option; `fields` replaces any part.
 */
import type { AuditEventInput } from '../../src/wire/audit.js';

export function auditInput(fields: Partial<AuditEventInput> & Pick<AuditEventInput, 'action'>): AuditEventInput {
  return {
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: 'root', credential: { type: 'none' } },
    client_ip: '',
    user_agent: '',
    request_id: '',
    object: { type: 'option', id: 'o', name: 'o' },
    changes: {},
    ...fields,
  };
}
