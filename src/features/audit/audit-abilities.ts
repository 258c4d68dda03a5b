/**
 * The audit log as an ability (issue 42 item 2, "the audit log: read"): `siteward/list-audit-events`
 * runs the query of `GET siteward/v1/audit` — the same filters, the same paging, the same
 * permission (administrators) — and answers the page with its totals (an ability has no headers).
 * The Siteward MCP server also offers the newest events as a resource, through this ability.
 */
import type { SitewardApi } from '../../plugins/api.js';
import type { AuditLogRepo } from '../../store/types.js';
import { auditError, filterOf, type AuditFilterQuery } from './audit-routes.js';

export const LIST_AUDIT_EVENTS = 'siteward/list-audit-events';

const text = (description: string) => ({ type: 'string', description });
const time = (description: string) => ({ type: 'string', format: 'date-time', description });

const EVENT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    time: { type: 'integer', description: 'UTC milliseconds since the epoch.' },
    action: { type: 'string' },
    result: { type: 'string', enum: ['ok', 'denied', 'failed'] },
    actor: { type: 'object' },
    object: { type: ['object', 'null'] },
    changes: { type: 'object' },
    client_ip: { type: 'string' },
    user_agent: { type: 'string' },
    request_id: { type: 'string' },
    host_id: { type: 'string' },
  },
  required: ['id', 'time', 'action', 'result', 'actor', 'object', 'changes'],
} as const;

export function registerAuditAbilities(api: SitewardApi, log: AuditLogRepo): void {
  api.registerAbilityCategory('siteward-audit', {
    label: 'Audit log',
    description: 'Who changed what on the site, when, from where and with which credential.',
  });
  api.registerAbility(LIST_AUDIT_EVENTS, {
    label: 'List audit events',
    description:
      'The audit log, newest first, filtered and paged as GET siteward/v1/audit: by action (or a prefix such as `module.`), acting user, object, result, time and text.',
    category: 'siteward-audit',
    input_schema: {
      type: 'object',
      default: {},
      properties: {
        action: text('An action (`module.activated`) or a prefix ending with `.` or `*` (`module.`).'),
        actor: { type: 'integer', minimum: 0, description: 'The acting user id.' },
        object_type: text('The object type (`module`, `user`, `option`, …).'),
        object_id: text('The object id.'),
        result: { type: 'string', enum: ['ok', 'denied', 'failed'], description: 'How the event ended.' },
        after: time('Events at or after this time.'),
        before: time('Events before this time.'),
        search: text('Text in the event (case-insensitive).'),
        page: { type: 'integer', minimum: 1, default: 1, description: 'Page of the list.' },
        per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Events per page, newest first.' },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        events: { type: 'array', items: EVENT_SCHEMA },
        total: { type: 'integer', description: 'Events matching the filters.' },
        total_pages: { type: 'integer' },
      },
      required: ['events', 'total', 'total_pages'],
    },
    permission: (_input, caller) => caller.user.can('manage_options'),
    execute: async (input) => {
      const query = (input ?? {}) as AuditFilterQuery & { page?: number; per_page?: number };
      const filter = filterOf(query);
      const page = query.page ?? 1;
      const perPage = query.per_page ?? 20;
      const total = await log.count(filter);
      const totalPages = Math.ceil(total / perPage);
      if (total > 0 && page > totalPages) return auditError('invalid_page_number');
      const events = total === 0 ? [] : await log.list(filter, { limit: perPage, offset: (page - 1) * perPage });
      return { events, total, total_pages: totalPages };
    },
    meta: {
      annotations: {
        readonly: true,
        destructive: false,
        idempotent: true,
        instructions: 'Use action=ability.run to see what agents ran, result=denied for refusals.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });
}
