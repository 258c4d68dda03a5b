/**
 * Where the audit log is forwarded (docs/audit-log.md "Forwarding"): per sink its kind and target,
 * the events it has not taken yet, its last delivery and, while it fails, the error, the next
 * try, since when, and whether the retention still waits for it. Nothing when no sink is configured or the server has no such route (an older server).
 */
import { __, _n, sprintf } from '@wordpress/i18n';
import { useRest } from '../data/use-rest';
import { dateTime, humanTimes } from '../ui/format';
import { Failed, isMissingRoute } from '../ui/Loaded';
import { TitledCard } from '../ui/TitledCard';
import { AUDIT_FORWARDING } from './paths';
import type { AuditForwardStatus } from '../../wire/siteward-v1';

/** One sink as `GET siteward/v1/audit/forwarding` answers it. */
export type ForwardingSink = AuditForwardStatus;

function kindText(kind: string): string {
  switch (kind) {
    case 'syslog-udp':
      return __('Syslog over UDP', 'siteward');
    case 'syslog-tcp':
      return __('Syslog over TCP', 'siteward');
    case 'syslog-tls':
      return __('Syslog over TLS', 'siteward');
    case 'otlp-http':
      return __('OpenTelemetry logs (OTLP/HTTP)', 'siteward');
    case 'webhook-json':
      return __('Webhook (JSON)', 'siteward');
    case 'webhook-slack':
      return __('Slack webhook', 'siteward');
    case 'webhook-discord':
      return __('Discord webhook', 'siteward');
    default:
      return kind;
  }
}

function backlogText(backlog: number): string {
  if (backlog === 0) return __('Nothing: every event has been sent', 'siteward');
  // translators: %d: how many events.
  return sprintf(_n('%d event', '%d events', backlog, 'siteward'), backlog);
}

/** An error with its time: "connect ECONNREFUSED 127.0.0.1:514 (Dec 2, 2026, 7:40 AM)". */
function errorText(error: string, at: string | null): string {
  // translators: 1: the error's text, 2: date and time.
  return at === null ? humanTimes(error) : sprintf(__('%1$s (%2$s)', 'siteward'), humanTimes(error), dateTime(at));
}

function SinkRow({ sink }: { sink: ForwardingSink }) {
  const next = sink.next_attempt_at;
  const failing = next !== null;
  return (
    <li className="sw-protect-row" data-testid="activity-forwarding-sink">
      <div className="sw-protect-head">
        <h3 className="sw-card-title">{kindText(sink.kind)}</h3>
        <code className="sw-break">{sink.target}</code>
        {failing ? (
          <span className="sw-badge sw-badge-down">{__('Failing', 'siteward')}</span>
        ) : (
          <span className="sw-badge">{__('Working', 'siteward')}</span>
        )}
      </div>
      <dl className="sw-protect-facts">
        <dt>{__('Waiting to be sent', 'siteward')}</dt>
        <dd>{backlogText(sink.backlog)}</dd>
        <dt>{__('Last sent', 'siteward')}</dt>
        <dd>{sink.last_success_at === null ? __('Never yet', 'siteward') : dateTime(sink.last_success_at)}</dd>
        {next !== null && (
          <>
            <dt>{__('Last error', 'siteward')}</dt>
            <dd className="sw-break sw-status-down">
              {sink.last_error === null ? __('Unknown', 'siteward') : errorText(sink.last_error, sink.last_error_at)}
            </dd>
            <dt>{__('Next try', 'siteward')}</dt>
            <dd>{dateTime(next)}</dd>
            {/* An older server sends neither field: nothing is said then. */}
            {typeof sink.failing_since === 'string' && (
              <>
                <dt>{__('Failing since', 'siteward')}</dt>
                <dd>{dateTime(sink.failing_since)}</dd>
              </>
            )}
            {typeof sink.holds_retention === 'boolean' && (
              <>
                <dt>{__('Old events', 'siteward')}</dt>
                <dd className={sink.holds_retention ? undefined : 'sw-status-down'}>
                  {sink.holds_retention
                    ? __('Kept until this receiver has taken them', 'siteward')
                    : __('No longer kept for this receiver: it has failed too long, events past the retention are purged', 'siteward')}
                </dd>
              </>
            )}
          </>
        )}
        {!failing && sink.last_error !== null && (
          <>
            <dt>{__('Last problem', 'siteward')}</dt>
            <dd className="sw-break sw-muted">{errorText(sink.last_error, sink.last_error_at)}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

export function ForwardingStatus() {
  const status = useRest<ForwardingSink[]>(AUDIT_FORWARDING, { live: true });
  if (status.state === 'loading') return null;
  if (status.state === 'error' && isMissingRoute(status.error)) return null;
  if (status.state === 'ok' && status.data.length === 0) return null;
  return (
    <TitledCard title={__('Forwarding', 'siteward')} testId="activity-forwarding">
      {status.state === 'error' ? (
        <Failed error={status.error} retry={status.reload} />
      ) : (
        <>
          <p className="sw-help">
            {__(
              'Every event and signed checkpoint is also sent to these receivers. One that fails is tried again later, from the first event it has not taken.',
              'siteward',
            )}
          </p>
          <ul className="sw-protect-list" aria-label={__('Receivers', 'siteward')}>
            {status.data.map((sink) => (
              <SinkRow key={sink.sink} sink={sink} />
            ))}
          </ul>
        </>
      )}
    </TitledCard>
  );
}
