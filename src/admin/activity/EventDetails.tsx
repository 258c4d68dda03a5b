/** One event's details: who, from where, with which credential, and each field before → after. */
import { __, sprintf } from '@wordpress/i18n';
import type { AuditChange, AuditEvent } from '../../wire/audit';
import { dateTime } from '../ui/format';
import { actorText, credentialText } from './sentence';

/** A value of a change as text: strings as they are, the rest as JSON; null is "not set". */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return __('(not set)', 'siteward');
  if (typeof value === 'string') return value === '' ? __('(empty)', 'siteward') : value;
  return JSON.stringify(value);
}

const isList = (v: unknown): v is (string | number | boolean)[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean');

/** A list changed (the active modules, a role list): what left and what came, rather than both whole lists. */
export function listChangeText(before: readonly unknown[], after: readonly unknown[]): string {
  const removed = before.filter((x) => !after.includes(x)).map(String);
  const added = after.filter((x) => !before.includes(x)).map(String);
  const parts: string[] = [];
  // translators: %s: items, comma-separated.
  if (removed.length > 0) parts.push(sprintf(__('removed: %s', 'siteward'), removed.join(', ')));
  // translators: %s: items, comma-separated.
  if (added.length > 0) parts.push(sprintf(__('added: %s', 'siteward'), added.join(', ')));
  if (parts.length === 0) parts.push(__('the same items, reordered', 'siteward'));
  // translators: 1: what changed, 2: items before, 3: items after.
  return sprintf(__('%1$s (%2$d → %3$d items)', 'siteward'), parts.join(' · '), before.length, after.length);
}

function ChangeRow({ field, change }: { field: string; change: AuditChange }) {
  return (
    <tr>
      <th scope="row" className="sw-break">
        {field}
      </th>
      {'secret' in change ? (
        <td colSpan={2} className="sw-muted">
          {__('changed (a secret: its values are never recorded)', 'siteward')}
        </td>
      ) : isList(change.before) && isList(change.after) ? (
        <td colSpan={2} className="sw-break">
          {listChangeText(change.before, change.after)}
        </td>
      ) : (
        <>
          <td className="sw-break sw-activity-before">{valueText(change.before)}</td>
          <td className="sw-break sw-activity-after">{valueText(change.after)}</td>
        </>
      )}
    </tr>
  );
}

export function EventDetails({ event }: { event: AuditEvent }) {
  const fields = Object.entries(event.changes);
  return (
    <div className="sw-activity-details" data-testid="activity-details">
      {fields.length > 0 ? (
        <table className="sw-activity-changes">
          <caption className="sw-visually-hidden">{__('What changed', 'siteward')}</caption>
          <thead>
            <tr>
              <th scope="col">{__('Field', 'siteward')}</th>
              <th scope="col">{__('Before', 'siteward')}</th>
              <th scope="col">{__('After', 'siteward')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map(([field, change]) => (
              <ChangeRow key={field} field={field} change={change} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="sw-muted">{__('No field changed (the event itself is the record).', 'siteward')}</p>
      )}
      <dl className="sw-protect-facts">
        <dt>{__('Who', 'siteward')}</dt>
        <dd className="sw-break">
          {/* translators: 1: who acted, 2: how they proved it. */}
          {sprintf(__('%1$s, with %2$s', 'siteward'), actorText(event.actor), credentialText(event.actor))}
        </dd>
        {event.client_ip !== '' && (
          <>
            <dt>{__('From', 'siteward')}</dt>
            <dd className="sw-break">{event.client_ip}</dd>
          </>
        )}
        {event.user_agent !== '' && (
          <>
            <dt>{__('Browser or client', 'siteward')}</dt>
            <dd className="sw-break">{event.user_agent}</dd>
          </>
        )}
        {event.count !== undefined && event.first_time !== undefined && event.last_time !== undefined && (
          <>
            <dt>{__('First and last', 'siteward')}</dt>
            <dd>
              {dateTime(event.first_time)} – {dateTime(event.last_time)}
            </dd>
          </>
        )}
        <dt>{__('Event', 'siteward')}</dt>
        <dd className="sw-break">
          {/* translators: 1: the event's number, 2: its action's dotted name, 3: the host that wrote it. */}
          {sprintf(__('#%1$d · %2$s · host %3$s', 'siteward'), event.id, event.action, event.host_id)}
          {event.request_id !== '' && (
            <>
              {' · '}
              {/* translators: %s: a request id. */}
              {sprintf(__('request %s', 'siteward'), event.request_id)}
            </>
          )}
        </dd>
      </dl>
    </div>
  );
}
