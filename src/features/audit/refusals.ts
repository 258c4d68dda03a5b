/**
 * `denied` events: a REST request that would change something (any method but GET, HEAD and
 * OPTIONS) from an authenticated user, refused by its endpoint's permission check with a 401 or
 * 403, each `batch/v1` item too. The REST layer only tells (`onRequestRefused`); nothing changed,
 * so the event is written in a transaction of its own, after the answer is decided and without
 * delaying it. Anonymous refusals are not recorded: anyone could grow the log with them.
 */
import type { RefusalObserver, RestRequest } from '../../rest/types.js';
import type { RestError } from '../../rest/errors.js';
import type { AuditEventInput } from '../../wire/audit.js';
import { auditEvent, type RequestSources } from './source.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The observer that appends a `rest.denied` event per refused write of a known user. */
export function deniedRequests(
  sources: RequestSources,
  append: (events: readonly AuditEventInput[]) => Promise<unknown>,
  failed: (error: unknown) => void,
): RefusalObserver {
  return (request: RestRequest, error: RestError) => {
    if (READS.has(request.method) || request.user.id === 0) return;
    if (error.status !== 401 && error.status !== 403) return;
    void sources
      .of(request)
      .then((source) => append([deniedEvent(source, request, error)]))
      .catch(failed);
  };
}

function deniedEvent(source: Awaited<ReturnType<RequestSources['of']>>, request: RestRequest, error: RestError): AuditEventInput {
  return auditEvent(
    source,
    'rest.denied',
    { type: 'route', id: `${request.method} ${request.route}`, name: request.matchedRoute },
    { status: { before: null, after: error.status }, code: { before: null, after: error.code } },
    'denied',
  );
}
