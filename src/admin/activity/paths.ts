/** The audit log's REST paths (docs/audit-log.md "REST"). */
import { addQueryArgs } from '@wordpress/url';

export const AUDIT = '/siteward/v1/audit';
export const AUDIT_CHECKPOINT = `${AUDIT}/checkpoint`;
export const AUDIT_FORWARDING = `${AUDIT}/forwarding`;

/** What the Activity screen filters by; '' is "any". */
export interface ActivityFilter {
  readonly action: string;
  readonly actor: string;
  readonly object_type: string;
  readonly object_id: string;
  readonly result: '' | 'ok' | 'denied' | 'failed';
  /** Days, `YYYY-MM-DD`, in the browser's time zone. */
  readonly after: string;
  readonly before: string;
  readonly search: string;
}

export const NO_FILTER: ActivityFilter = {
  action: '',
  actor: '',
  object_type: '',
  object_id: '',
  result: '',
  after: '',
  before: '',
  search: '',
};

/** A day's start in the browser's time zone as the API's ISO time; `before` takes the day after, so the day is included. */
function dayStart(day: string, plus = 0): string | undefined {
  if (day === '') return undefined;
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(y!, m! - 1, d! + plus);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** One page of the list, filtered (empty filters are left out). */
export function auditListPath(filter: ActivityFilter, page: number, perPage: number): string {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  return addQueryArgs(AUDIT, {
    action: text(filter.action),
    actor: /^\d+$/.test(filter.actor.trim()) ? filter.actor.trim() : undefined,
    object_type: text(filter.object_type),
    object_id: text(filter.object_id),
    result: filter.result === '' ? undefined : filter.result,
    after: dayStart(filter.after),
    before: dayStart(filter.before, 1),
    search: text(filter.search),
    page,
    per_page: perPage,
  });
}
