/**
 * An audit event as a sentence a person reads ("admin switched off Protect"), from its action,
 * actor and object (docs/audit-log.md "What is recorded"). Each sentence is whole for translation.
 */
import { __, _n, sprintf } from '@wordpress/i18n';
import type { AuditActor, AuditEvent } from '../../wire/audit';

/** Who acted, in words. */
export function actorText(actor: AuditActor): string {
  if (actor.kind === 'user') return actor.login !== '' ? actor.login : sprintf(__('user %d', 'siteward'), actor.user_id);
  if (actor.kind === 'cli')
    return actor.login !== ''
      ? // translators: %s: a username.
        sprintf(__('%s (command line)', 'siteward'), actor.login)
      : __('the command line', 'siteward');
  if (actor.kind === 'job')
    return actor.job
      ? // translators: %s: a background job's name.
        sprintf(__('the job %s', 'siteward'), actor.job)
      : __('a background job', 'siteward');
  return __('someone not logged in', 'siteward');
}

/** How the actor proved who it is, in words (never a secret: the event holds none). */
export function credentialText(actor: AuditActor): string {
  const c = actor.credential;
  if (c.type === 'session') return __('login session', 'siteward');
  // translators: %s: the application password's name.
  if (c.type === 'application_password') return sprintf(__('application password “%s”', 'siteward'), c.name);
  // translators: %s: an OAuth client id.
  if (c.type === 'oauth') return sprintf(__('OAuth client %s', 'siteward'), c.client_id);
  // translators: %s: an operating-system user.
  if (c.type === 'os_user') return sprintf(__('system user %s', 'siteward'), c.name);
  return __('none', 'siteward');
}

/** 1: who acted; 2: the object's name. Keyed by action. */
const SENTENCES: Record<string, (who: string, what: string) => string> = {
  // translators: 1: who acted, 2: a module's name.
  'module.activated': (who, what) => sprintf(__('%1$s switched on %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a module's name.
  'module.deactivated': (who, what) => sprintf(__('%1$s switched off %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a module's name.
  'module.options_updated': (who, what) => sprintf(__('%1$s changed the settings of %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: what the settings are of.
  'settings.updated': (who, what) => sprintf(__('%1$s changed the settings of %2$s', 'siteward'), who, what),
  // translators: 1: who acted.
  'jumpstart.activated': (who) => sprintf(__('%1$s turned on the Jump Start features', 'siteward'), who),
  // translators: 1: who acted.
  'jumpstart.deactivated': (who) => sprintf(__('%1$s turned off the Jump Start features', 'siteward'), who),
  // translators: 1: who acted.
  'jumpstart.dismissed': (who) => sprintf(__('%1$s dismissed Jump Start', 'siteward'), who),
  // translators: 1: who acted.
  'options.reset': (who) => sprintf(__('%1$s reset all options', 'siteward'), who),
  // translators: 1: who acted.
  'modules.reset': (who) => sprintf(__('%1$s reset the modules to their defaults', 'siteward'), who),
  // translators: 1: who acted, 2: a notice's name.
  'notice.dismissed': (who, what) => sprintf(__('%1$s dismissed the notice %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'user.created': (who, what) => sprintf(__('%1$s created the user %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'user.updated': (who, what) => sprintf(__('%1$s changed the user %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'user.role_changed': (who, what) => sprintf(__('%1$s changed the role of %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'user.password_changed': (who, what) => sprintf(__('%1$s changed the password of %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'user.deleted': (who, what) => sprintf(__('%1$s deleted the user %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the backup's id.
  'backup.created': (who, what) => sprintf(__('%1$s took the backup %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the backup's id.
  'backup.pruned': (who, what) => sprintf(__('%1$s removed the old backup %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the backup's id.
  'backup.failed': (who, what) => sprintf(__('A backup by %1$s failed (%2$s)', 'siteward'), who, what),
  // translators: 1: who acted, 2: the application password's name.
  'app_password.created': (who, what) => sprintf(__('%1$s created the application password %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the application password's name.
  'app_password.renamed': (who, what) => sprintf(__('%1$s renamed the application password %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the application password's name.
  'app_password.revoked': (who, what) => sprintf(__('%1$s revoked the application password %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'two_factor.enrolled': (who, what) => sprintf(__('%1$s turned on two-factor for %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'two_factor.disabled': (who, what) => sprintf(__('%1$s turned off two-factor for %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a username.
  'two_factor.reset': (who, what) => sprintf(__('%1$s reset two-factor of %2$s', 'siteward'), who, what),
  // translators: 1: who acted.
  'server.migrated': (who) => sprintf(__('%1$s updated the database’s tables', 'siteward'), who),
  // translators: 1: who acted, 2: the host.
  'server.started': (who, what) => sprintf(__('%1$s started the server on %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the host.
  'server.stopped': (who, what) => sprintf(__('%1$s stopped the server on %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: an ability's name.
  'ability.run': (who, what) => sprintf(__('%1$s ran the ability %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: an application password's name.
  'app_password.first_used': (who, what) =>
    sprintf(__('%1$s used the application password %2$s for the first time', 'siteward'), who, what),
  // translators: 1: who acted.
  'audit.verify_failed': (who) => sprintf(__('%1$s found the audit log’s chain broken', 'siteward'), who),
  // translators: 1: who acted, 2: an agent client.
  'agent_client.revoked': (who, what) => sprintf(__('%1$s revoked the agent client %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the account service.
  'connection.registered': (who, what) => sprintf(__('%1$s registered the site with %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the account service.
  'connection.connected': (who, what) => sprintf(__('%1$s connected the site to %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the account service.
  'connection.disconnected': (who, what) => sprintf(__('%1$s disconnected the site from %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'connection.linked': (who, what) => sprintf(__('%1$s linked %2$s to an account', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'connection.unlinked': (who, what) => sprintf(__('%1$s unlinked %2$s from their account', 'siteward'), who, what),
  // translators: 1: who acted.
  'login.succeeded': (who) => sprintf(__('%1$s logged in', 'siteward'), who),
  // translators: 1: who acted.
  'session.logged_out': (who) => sprintf(__('%1$s logged out', 'siteward'), who),
  // translators: 1: who acted, 2: a user.
  'session.ended': (who, what) => sprintf(__('%1$s ended the other sessions of %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: the site.
  'monitor.down': (who, what) => sprintf(__('%1$s saw %2$s go down', 'siteward'), who, what),
  // translators: 1: who acted, 2: the site.
  'monitor.up': (who, what) => sprintf(__('%1$s saw %2$s come back up', 'siteward'), who, what),
  // translators: 1: who acted, 2: a monitored address.
  'monitor.check_added': (who, what) => sprintf(__('%1$s added the uptime check %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a monitored address.
  'monitor.check_updated': (who, what) => sprintf(__('%1$s changed the uptime check %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a monitored address.
  'monitor.check_removed': (who, what) => sprintf(__('%1$s removed the uptime check %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a maintenance window.
  'monitor.maintenance_added': (who, what) => sprintf(__('%1$s planned the maintenance window %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a maintenance window.
  'monitor.maintenance_removed': (who, what) => sprintf(__('%1$s removed the maintenance window %2$s', 'siteward'), who, what),
  // translators: 1: who acted.
  'monitor.notifications_updated': (who) => sprintf(__('%1$s changed who Monitor notifies', 'siteward'), who),
  // translators: 1: who acted, 2: an IP address.
  'protect.blocked': (who, what) => sprintf(__('%1$s blocked %2$s after failed logins', 'siteward'), who, what),
  // translators: 1: who acted, 2: an IP address.
  'protect.unblocked': (who, what) => sprintf(__('%1$s unblocked %2$s', 'siteward'), who, what),
  // translators: 1: who acted.
  'protect.notifications_updated': (who) => sprintf(__('%1$s changed who Protect notifies of blocks', 'siteward'), who),
  // translators: 1: who acted, 2: a request.
  'rest.denied': (who, what) => sprintf(__('%1$s was refused %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'two_factor.enrolment_started': (who, what) => sprintf(__('%1$s started setting up two-factor for %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'two_factor.recovery_codes_regenerated': (who, what) => sprintf(__('%1$s made new recovery codes for %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a plugin.
  'update.available': (who, what) => sprintf(__('%1$s found an update of %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'user.password_reset_requested': (who, what) => sprintf(__('%1$s asked for a password reset link for %2$s', 'siteward'), who, what),
  // translators: 1: who acted, 2: a user.
  'user.password_reset': (who, what) => sprintf(__('%1$s reset the password of %2$s with a reset link', 'siteward'), who, what),
};

/** The sentence of one event. */
export function eventSentence(event: AuditEvent): string {
  const who = actorText(event.actor);
  const what = event.object?.name || event.object?.id || (event.action.startsWith('server.') ? event.host_id : '');
  if (event.action === 'login.failed') {
    const count = event.count ?? 1;
    // translators: 1: how many failed logins, 2: the login tried, 3: the client's address.
    return sprintf(
      _n('%1$d failed login as %2$s from %3$s', '%1$d failed logins as %2$s from %3$s', count, 'siteward'),
      count,
      what,
      event.client_ip || '—',
    );
  }
  if (event.action === 'ability.run' && event.count !== undefined) {
    // Identical repeats of a readonly ability's run, collapsed (docs/audit-log.md "Readonly ability runs").
    // translators: 1: who acted, 2: the ability, 3: how many more times.
    return sprintf(
      _n('%1$s ran the ability %2$s %3$d more time', '%1$s ran the ability %2$s %3$d more times', event.count, 'siteward'),
      who,
      what,
      event.count,
    );
  }
  const template = SENTENCES[event.action];
  if (template) return template(who, what);
  // An action this page does not know yet (a plugin's, a newer server's): said as it is.
  return what
    ? // translators: 1: who acted, 2: the action's dotted name, 3: what it is about.
      sprintf(__('%1$s: %2$s (%3$s)', 'siteward'), who, event.action, what)
    : // translators: 1: who acted, 2: the action's dotted name.
      sprintf(__('%1$s: %2$s', 'siteward'), who, event.action);
}

/** A result other than ok, in a word. */
export function resultText(result: AuditEvent['result']): string | null {
  if (result === 'denied') return __('Refused', 'siteward');
  if (result === 'failed') return __('Failed', 'siteward');
  return null;
}

/** The action groups offered by the filter: a prefix each (the API's `action=module.`). */
export function actionGroups(): { value: string; label: string }[] {
  return [
    { value: '', label: __('All actions', 'siteward') },
    { value: 'module.', label: __('Modules', 'siteward') },
    { value: 'settings.', label: __('Settings', 'siteward') },
    { value: 'user.', label: __('Users', 'siteward') },
    { value: 'app_password.', label: __('Application passwords', 'siteward') },
    { value: 'two_factor.', label: __('Two-factor', 'siteward') },
    { value: 'login.', label: __('Logins', 'siteward') },
    { value: 'session.', label: __('Sessions', 'siteward') },
    { value: 'protect.', label: __('Protect', 'siteward') },
    { value: 'monitor.', label: __('Monitor', 'siteward') },
    { value: 'connection.', label: __('Connection', 'siteward') },
    { value: 'update.', label: __('Updates', 'siteward') },
    { value: 'rest.denied', label: __('Refused requests', 'siteward') },
    { value: 'audit.', label: __('Audit log', 'siteward') },
    { value: 'backup.', label: __('Backups', 'siteward') },
    { value: 'ability.', label: __('Abilities (agents)', 'siteward') },
    { value: 'agent_client.', label: __('Agent clients', 'siteward') },
    { value: 'server.', label: __('Server', 'siteward') },
  ];
}
