/** At a Glance's recent activity: the last five events as sentences, and the way to the Activity screen. */
import { __ } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import type { CollectionPage } from '../api';
import type { AuditEvent } from '../../wire/audit';
import { useRest } from '../data/use-rest';
import { GlanceCard } from '../GlanceCard';
import { useConnection } from '../site';
import { dateTime } from '../ui/format';
import { isMissingRoute, Loaded } from '../ui/Loaded';
import { AUDIT } from './paths';
import { eventSentence, resultText } from './sentence';

export const RECENT_ACTIVITY = addQueryArgs(AUDIT, { per_page: 5 });

/** Administrators only (the audit log is theirs); nothing on a server without the audit log. */
export function RecentActivityCard() {
  const { user } = useConnection();
  const mayRead = user.currentUser.permissions.manage_options !== false;
  const recent = useRest<CollectionPage<AuditEvent>>(mayRead ? RECENT_ACTIVITY : null, { page: true, live: true });
  if (!mayRead || (recent.state === 'error' && isMissingRoute(recent.error))) return null;
  return (
    <GlanceCard title={__('Recent activity', 'siteward')} id="activity">
      <Loaded load={recent} loading={__('Loading recent activity…', 'siteward')}>
        {(data) => (
          <>
            {data.items.length === 0 ? (
              <p className="sw-muted">{__('Nothing recorded yet.', 'siteward')}</p>
            ) : (
              <ul className="sw-glance-activity" data-testid="recent-activity">
                {data.items.map((e) => (
                  <li key={e.id}>
                    <a href={`#/activity/${e.id}`}>{eventSentence(e)}</a>
                    {resultText(e.result) !== null && <span className="sw-status-down"> ({resultText(e.result)})</span>}
                    <span className="sw-muted sw-glance-activity-time">{dateTime(e.time)}</span>
                  </li>
                ))}
              </ul>
            )}
            <p>
              <a href="#/activity">{__('All activity', 'siteward')}</a>
            </p>
          </>
        )}
      </Loaded>
    </GlanceCard>
  );
}
