/**
 * The Activity screen (issue 41): the audit log, newest first, filtered by action group, user,
 * object, result, days and text; each event as a sentence with its before/after on demand; the
 * signed checkpoint as a "signed up to" mark in the list; the forwarding sinks' backlog and failures.
 * `#/activity/<id>` shows one event.
 */
import { Button, Card, CardBody, SelectControl } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useState, type FormEvent } from 'react';
import type { CollectionPage } from '../api';
import type { AuditEvent } from '../../wire/audit';
import { useRest } from '../data/use-rest';
import { TextRow } from '../ui/form-rows';
import { dateTime } from '../ui/format';
import { Loaded } from '../ui/Loaded';
import { Pager } from '../ui/Pager';
import { CheckpointMark, useCheckpoint } from './CheckpointMark';
import { EventDetails } from './EventDetails';
import { ForwardingStatus } from './ForwardingStatus';
import { AUDIT, auditListPath, NO_FILTER, type ActivityFilter } from './paths';
import { actionGroups, eventSentence, resultText } from './sentence';

const PER_PAGE = 20;

function ResultBadge({ result }: { result: AuditEvent['result'] }) {
  const text = resultText(result);
  return text === null ? null : <span className="sw-badge sw-badge-down">{text}</span>;
}

/** One event in the list: time, sentence, result, and its details behind a button. */
export function EventRow({ event }: { event: AuditEvent }) {
  const [open, setOpen] = useState(false);
  const detailsId = `activity-event-${event.id}`;
  return (
    <li className="sw-activity-row" data-testid="activity-event">
      <div className="sw-activity-head">
        <time className="sw-activity-time sw-muted" dateTime={new Date(event.time).toISOString()}>
          {dateTime(event.time)}
        </time>
        <span className="sw-activity-sentence">{eventSentence(event)}</span>
        <ResultBadge result={event.result} />
        <Button variant="link" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
          {open ? __('Hide details', 'siteward') : __('Details', 'siteward')}
          {/* translators: %d: an event's number. */}
          <span className="sw-visually-hidden"> {sprintf(__('of event %d', 'siteward'), event.id)}</span>
        </Button>
      </div>
      <div id={detailsId}>{open && <EventDetails event={event} />}</div>
    </li>
  );
}

function Filters({ filter, onApply }: { filter: ActivityFilter; onApply: (filter: ActivityFilter) => void }) {
  const [draft, setDraft] = useState(filter);
  const set =
    <K extends keyof ActivityFilter>(key: K) =>
    (value: ActivityFilter[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  return (
    <form className="sw-activity-filters" onSubmit={submit} aria-label={__('Filter the activity', 'siteward')}>
      <SelectControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label={__('Action', 'siteward')}
        value={draft.action}
        options={actionGroups()}
        onChange={set('action')}
      />
      <SelectControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label={__('Result', 'siteward')}
        value={draft.result}
        options={[
          { value: '', label: __('Any result', 'siteward') },
          { value: 'ok', label: __('Done', 'siteward') },
          { value: 'denied', label: __('Refused', 'siteward') },
          { value: 'failed', label: __('Failed', 'siteward') },
        ]}
        onChange={(v) => set('result')(v as ActivityFilter['result'])}
      />
      <TextRow label={__('User id', 'siteward')} type="number" min={0} value={draft.actor} onChange={set('actor')} />
      <TextRow label={__('Object type (module, user…)', 'siteward')} value={draft.object_type} onChange={set('object_type')} />
      <TextRow label={__('Object id', 'siteward')} value={draft.object_id} onChange={set('object_id')} />
      <TextRow label={__('From (day)', 'siteward')} type="date" value={draft.after} onChange={set('after')} />
      <TextRow label={__('To (day)', 'siteward')} type="date" value={draft.before} onChange={set('before')} />
      <TextRow label={__('Text in the event', 'siteward')} type="search" value={draft.search} onChange={set('search')} />
      <div className="sw-actions sw-activity-filter-actions">
        <Button variant="primary" type="submit" __next40pxDefaultSize>
          {__('Filter', 'siteward')}
        </Button>
        <Button
          variant="tertiary"
          onClick={() => {
            setDraft(NO_FILTER);
            onApply(NO_FILTER);
          }}
          __next40pxDefaultSize
        >
          {__('Clear', 'siteward')}
        </Button>
      </div>
    </form>
  );
}

/** The list of one page, with the signed checkpoint's mark between the events it covers and the newer ones. */
function EventList({ events, signedUpTo }: { events: readonly AuditEvent[]; signedUpTo: number | null }) {
  const markAt = signedUpTo === null ? -1 : events.findIndex((e) => e.id <= signedUpTo);
  return (
    <ol className="sw-activity-list" data-testid="activity-list">
      {events.map((event, i) => (
        <EventRowWithMark key={event.id} event={event} mark={i === markAt ? signedUpTo : null} />
      ))}
    </ol>
  );
}

function EventRowWithMark({ event, mark }: { event: AuditEvent; mark: number | null }) {
  return (
    <>
      {mark !== null && (
        <li className="sw-activity-mark" data-testid="activity-signed-mark">
          {/* translators: %d: an event's number. */}
          {sprintf(__('Signed checkpoint at event #%d: the events below are covered by its signature.', 'siteward'), mark)}
        </li>
      )}
      <EventRow event={event} />
    </>
  );
}

export function ActivityScreen({ id }: { id?: number }) {
  const checkpoint = useCheckpoint();
  if (id !== undefined) return <OneEvent id={id} />;
  return <ActivityList checkpoint={checkpoint} />;
}

function ActivityList({ checkpoint }: { checkpoint: ReturnType<typeof useCheckpoint> }) {
  const [filter, setFilter] = useState<ActivityFilter>(NO_FILTER);
  const [page, setPage] = useState(1);
  const list = useRest<CollectionPage<AuditEvent>>(auditListPath(filter, page, PER_PAGE), { page: true, live: true });
  const signedUpTo = checkpoint?.signature_valid && checkpoint.checkpoint ? checkpoint.checkpoint.last_id : null;
  return (
    <div className="sw-stack" data-testid="activity-screen">
      <Card className="sw-card">
        <CardBody size="small">
          <Filters
            filter={filter}
            onApply={(f) => {
              setFilter(f);
              setPage(1);
            }}
          />
        </CardBody>
      </Card>
      <CheckpointMark status={checkpoint} />
      <ForwardingStatus />
      <Loaded load={list} loading={__('Loading the activity…', 'siteward')}>
        {(data) => (
          <>
            <p role="status" data-testid="activity-total">
              {data.total === 0
                ? filter === NO_FILTER
                  ? __('Nothing recorded yet.', 'siteward')
                  : __('No event matches these filters.', 'siteward')
                : // translators: %d: how many events.
                  sprintf(_n('%d event', '%d events', data.total, 'siteward'), data.total)}
            </p>
            {data.items.length > 0 && <EventList events={data.items} signedUpTo={signedUpTo} />}
            <Pager page={page} totalPages={data.totalPages} onPage={setPage} label={__('Pages of activity', 'siteward')} />
          </>
        )}
      </Loaded>
    </div>
  );
}

function OneEvent({ id }: { id: number }) {
  const event = useRest<AuditEvent>(`${AUDIT}/${id}`);
  return (
    <div className="sw-stack" data-testid="activity-screen">
      <p>
        <a href="#/activity" className="sw-link">
          {__('← All activity', 'siteward')}
        </a>
      </p>
      <Loaded load={event} loading={__('Loading the event…', 'siteward')}>
        {(e) => (
          <Card className="sw-card">
            <CardBody size="small">
              <p>
                <time className="sw-muted" dateTime={new Date(e.time).toISOString()}>
                  {dateTime(e.time)}
                </time>{' '}
                <strong>{eventSentence(e)}</strong> <ResultBadge result={e.result} />
              </p>
              <EventDetails event={e} />
            </CardBody>
          </Card>
        )}
      </Loaded>
    </div>
  );
}
