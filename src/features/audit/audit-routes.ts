/**
 * `GET siteward/v1/audit` (filtered, paged with X-WP-Total, X-WP-TotalPages and Link) and
 * `GET siteward/v1/audit/{id}` and the streamed `GET siteward/v1/audit/export`, for administrators only (docs/audit-log.md "REST").
 */
import { errorCatalogue } from '../../rest/errors.js';
import { RestResponse, StreamedResponse, type RestRequest } from '../../rest/types.js';
import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, permission } from '../../rest/define-route.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { AuditFilter, AuditLogRepo } from '../../store/types.js';
import type { AuditResult } from '../../wire/audit.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { pagingHeaders } from '../pagination.js';
import type { Forwarder } from './forwarding/forwarder.js';
import { eventsJson } from './event-json.js';
import { EXPORT_CONTENT_TYPES, exportChunks, exportFileName, type ExportFormat } from './export.js';

export const auditError = errorCatalogue({
  not_found: { code: 'audit_event_not_found', message: 'No audit event has id {id}.', status: 404 },
  invalid_page_number: {
    code: 'rest_invalid_page_number',
    message: 'The page number requested is larger than the number of pages available.',
    status: 400,
  },
});

const text = (description: string) => Type.Optional(Type.String({ description }));
const time = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));

const filterQuery = Type.Object({
  action: text('An action (`module.activated`) or a prefix ending with `.` or `*` (`module.`).'),
  actor: Type.Optional(Type.Integer({ minimum: 0, description: 'The acting user id.' })),
  object_type: text('The object type (`module`, `user`, `option`, …).'),
  object_id: text('The object id.'),
  result: Type.Optional(
    Type.Unsafe<AuditResult>({ type: 'string', enum: ['ok', 'denied', 'failed'], description: 'How the event ended.' }),
  ),
  after: time('Events at or after this time.'),
  before: time('Events before this time.'),
  search: text('Text in the event (case-insensitive).'),
});

/** The filters of the list, as the route and the `siteward/list-audit-events` ability read them. */
export type AuditFilterQuery = Static<typeof filterQuery>;

export function filterOf(p: AuditFilterQuery): AuditFilter {
  const filter: { -readonly [K in keyof AuditFilter]: AuditFilter[K] } = {};
  if (typeof p.action === 'string' && p.action !== '') filter.action = p.action;
  if (typeof p.actor === 'number') filter.actorUserId = p.actor;
  if (typeof p.object_type === 'string' && p.object_type !== '') filter.objectType = p.object_type;
  if (typeof p.object_id === 'string' && p.object_id !== '') filter.objectId = p.object_id;
  if (typeof p.result === 'string') filter.result = p.result;
  if (typeof p.after === 'string') filter.after = Date.parse(p.after);
  if (typeof p.before === 'string') filter.before = Date.parse(p.before);
  if (typeof p.search === 'string' && p.search !== '') filter.search = p.search;
  return filter;
}

const administrators = permission('custom', (request: RestRequest) => request.user.can('manage_options'));

export function registerAuditRoutes(
  api: Pick<SitewardApi, 'registerRoute' | 'restUrl'>,
  log: AuditLogRepo,
  clock: () => number,
  forwarder: Pick<Forwarder, 'status'>,
  /** SITEWARD_AUDIT_FORWARD_HOLD_DAYS: which sinks hold the retention back. */
  holdDays: number,
): void {
  const collectionUrl = api.restUrl(`/${SITEWARD_NAMESPACE}/audit`);
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/audit',
    defineRoute({
      query: Type.Object({
        ...filterQuery.properties,
        page: Type.Integer({ minimum: 1, default: 1, description: 'Page of the list.' }),
        per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Events per page, newest first.' }),
      }),
      permission: administrators,
      handler: async ({ query, request }) => {
        const filter = filterOf(query);
        // PHP's (int) makes page=1e400 0, which WordPress's queries read as the first page.
        const page = Math.max(1, query.page);
        const perPage = query.per_page;
        const total = await log.count(filter);
        if (total > 0 && page > Math.ceil(total / perPage)) return auditError('invalid_page_number');
        // A page past an empty list is never queried: its offset may not even fit the database's integers.
        const rows = total === 0 ? [] : await log.listStored(filter, { limit: perPage, offset: (page - 1) * perPage });
        // Speed: the body is the stored JSON with the ids spliced in when that is the same bytes (event-json.ts).
        return new RestResponse(eventsJson(rows), 200, pagingHeaders(total, page, perPage, request, collectionUrl));
      },
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/audit/export',
    defineRoute({
      query: Type.Object({
        ...filterQuery.properties,
        format: Type.Unsafe<ExportFormat>({
          type: 'string',
          enum: ['ndjson', 'csv'],
          default: 'ndjson',
          description: 'NDJSON (one event per line) or CSV (RFC 4180, header row, formula-safe).',
        }),
      }),
      permission: administrators,
      // Streamed from keyed pages (export.ts): memory stays flat for any number of events.
      handler: ({ query }) =>
        new StreamedResponse(exportChunks(log, filterOf(query), query.format), 200, {
          'Content-Type': EXPORT_CONTENT_TYPES[query.format],
          'Content-Disposition': `attachment; filename="${exportFileName(query.format, clock())}"`,
          'X-Content-Type-Options': 'nosniff',
        }),
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/audit/forwarding',
    defineRoute({
      permission: administrators,
      // Each configured sink: kind, target without secrets, backlog, last delivery and last failure, whether it holds the retention.
      handler: () => forwarder.status(clock(), holdDays),
    }),
  );
  api.registerRoute(
    SITEWARD_NAMESPACE,
    '/audit/(?P<id>\\d+)',
    defineRoute({
      params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'The event id.', asArgument: true }) }),
      permission: administrators,
      handler: async ({ params }) => (await log.get(params.id)) ?? auditError('not_found', { id: String(params.id) }),
    }),
  );
}
