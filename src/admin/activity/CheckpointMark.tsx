/** "Signed up to event N": the newest signed checkpoint of the audit log and whether its signature holds. */
import { __, sprintf } from '@wordpress/i18n';
import type { AuditCheckpointStatus } from '../../wire/audit-checkpoint';
import { useRest } from '../data/use-rest';
import { dateTime } from '../ui/format';
import { AUDIT_CHECKPOINT } from './paths';

/** The newest checkpoint, or null while loading, when none is signed, or when the server has no such route. */
export function useCheckpoint(): AuditCheckpointStatus | null {
  const status = useRest<AuditCheckpointStatus>(AUDIT_CHECKPOINT);
  return status.state === 'ok' ? status.data : null;
}

export function CheckpointMark({ status }: { status: AuditCheckpointStatus | null }) {
  if (status === null) return null;
  const c = status.checkpoint;
  if (c === null)
    return (
      <p className="sw-muted" data-testid="activity-checkpoint">
        {__('No checkpoint is signed yet: the server signs one every hour.', 'siteward')}
      </p>
    );
  if (!status.signature_valid)
    return (
      <p className="sw-status-down" role="alert" data-testid="activity-checkpoint">
        {/* translators: %d: an event's number. */}
        {sprintf(
          __(
            'The newest checkpoint (event #%d) does not carry this server’s signature: the log may have been altered. Run “npx siteward audit verify” on the server.',
            'siteward',
          ),
          c.last_id,
        )}
      </p>
    );
  return (
    <p className="sw-activity-signed" data-testid="activity-checkpoint">
      {/* translators: 1: an event's number, 2: date and time. */}
      {sprintf(__('Signed up to event #%1$d (%2$s): the signature holds.', 'siteward'), c.last_id, dateTime(c.time))}{' '}
      <span className="sw-muted">{__('“npx siteward audit verify” checks every event against it.', 'siteward')}</span>
    </p>
  );
}
