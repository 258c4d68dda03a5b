/**
 * The events of a password set outside `wp/v2/users` (`siteward user set-password`, a reset
 * link): the change itself and, when it ended sessions, `session.ended`. The user service writes
 * them in the transaction that sets the password and deletes the sessions.
 */
import type { PasswordEvents } from '../../auth/user-service.js';
import { auditEvent, type AuditSource } from './source.js';

export function passwordSetEvents(source: AuditSource, action: 'user.password_changed' | 'user.password_reset'): PasswordEvents {
  return (user, ended) => {
    const object = { type: 'user', id: String(user.id), name: user.login };
    // Never the password or its hash: only "changed".
    const events = [auditEvent(source, action, object, { password: { secret: true } })];
    if (ended > 0) events.push(auditEvent(source, 'session.ended', object, { sessions: { before: ended, after: 0 } }));
    return events;
  };
}
