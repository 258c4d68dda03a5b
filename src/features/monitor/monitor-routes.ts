/**
 * Siteward's own monitor routes (`siteward/v1/monitor…`), administrators only: the overview
 * the Monitor screen shows, each check's history, the checks, maintenance windows, who is
 * notified, and a test notification. They show in the namespace index with their arguments.
 */
import type { RequestSources } from '../audit/index.js';
import { Type, type TProperties } from '@sinclair/typebox';
import type { SitewardApi } from '../../plugins/api.js';
import { answers, checkedByHandler, defineRoute, type NamedPermission } from '../../rest/define-route.js';
import type { RestError } from '../../rest/errors.js';
import type {
  MaintenanceWindowJson,
  MonitorCheckHistory,
  MonitorNotifications,
  MonitorOverview,
  MonitorTestAnswer,
} from '../../wire/siteward-v1.js';
import { HISTORY_QUERY, SITEWARD_NAMESPACE } from '../history-route.js';
import { monitorError } from './monitor-errors.js';
import { windowJson, type MonitorService, type Outcome } from './monitor-service.js';
import type { StoredCheck } from './monitor-store.js';

const ID = '(?P<id>\\d+)';
const ID_PARAMS = Type.Object({ id: Type.Integer() });

function answer<T, J = T>(outcome: Outcome<T>, json: (value: T) => J = (v) => v as unknown as J): J | RestError {
  return outcome.ok ? json(outcome.value) : monitorError(outcome.error, outcome.detail);
}

/**
 * The members of a write's JSON body (or form fields). The operation validates them (one parser
 * for REST and the CLI): the REST layer shows their types and descriptions only.
 */
const members = <P extends TProperties>(properties: P) => Type.Object(properties);
const optional = (type: 'string' | 'boolean' | 'integer' | 'array', description: string) =>
  Type.Optional(checkedByHandler(type, description));

const checkBody = members({
  url: optional('string', 'The URL checked (of the same site: its API, its CDN). Null for check 1: the site URL.'),
  expectedStatus: optional('string', 'Accepted statuses: "200", "2xx", "200-299", comma-separated; empty: 2xx and 3xx.'),
  keyword: optional('string', 'Text that must appear in the body (or must not, with keywordAbsent).'),
  keywordAbsent: optional('boolean', 'True: the keyword must NOT appear.'),
  slowMs: optional('integer', 'A response slower than this many milliseconds counts as slow.'),
});

const windowBody = members({
  kind: optional('string', 'once, weekly or cron.'),
  starts: optional('string', 'once: the start, ISO 8601.'),
  ends: optional('string', 'once: the end, ISO 8601.'),
  days: optional('array', 'weekly: weekday numbers, 0 (Sunday) to 6.'),
  time: optional('string', 'weekly: HH:MM in the site’s time zone.'),
  cron: optional('string', 'cron: a five-field cron expression in the site’s time zone, e.g. "0 3 * * 0".'),
  durationMinutes: optional('integer', 'weekly, cron: how long each occurrence lasts.'),
  note: optional('string', 'What the window is for.'),
});

const notificationBody = members({
  administrators: optional('array', 'User ids of the administrators who get e-mails; null: all of them.'),
  emails: optional('array', 'Further e-mail addresses.'),
  repeatMinutes: optional('integer', 'Minutes between "still down" reminders; 0: none.'),
  email: optional(
    'boolean',
    'Whether real alerts go out by e-mail (the module option monitor_receive_notifications). The webhook, when set, is called regardless.',
  ),
});

const deleted = () => ({ deleted: true });

/** The largest write (a check: a 2048-character URL, a 1000-character keyword) fits many times over. */
const WRITE_BODY_BYTES = 64 * 1024;

export function registerMonitorRoutes(
  api: SitewardApi,
  service: MonitorService,
  permission: NamedPermission,
  sources: RequestSources,
): void {
  const route = (path: string, ...endpoints: ReturnType<typeof defineRoute>[]) => api.registerRoute(SITEWARD_NAMESPACE, path, endpoints);

  route('/monitor', defineRoute({ permission, response: answers<MonitorOverview>(), handler: () => service.overview() }));
  route(
    '/monitor/checks',
    defineRoute({ permission, handler: async () => ({ checks: (await service.overview()).checks }) }),
    defineRoute({
      methods: 'POST',
      body: checkBody,
      maxBodyBytes: WRITE_BODY_BYTES,
      permission,
      response: answers<StoredCheck>(),
      handler: async ({ body, request }) => answer(await service.addCheck(body, await sources.of(request))),
    }),
  );
  route(
    `/monitor/checks/${ID}`,
    defineRoute({
      methods: 'POST, PUT, PATCH',
      params: ID_PARAMS,
      body: checkBody,
      maxBodyBytes: WRITE_BODY_BYTES,
      permission,
      response: answers<StoredCheck>(),
      handler: async ({ params, body, request }) => answer(await service.updateCheck(params.id, body, await sources.of(request))),
    }),
    defineRoute({
      methods: 'DELETE',
      params: ID_PARAMS,
      permission,
      handler: async ({ params, request }) => answer(await service.removeCheck(params.id, await sources.of(request)), deleted),
    }),
  );
  route(
    `/monitor/checks/${ID}/history`,
    defineRoute({
      params: ID_PARAMS,
      query: HISTORY_QUERY,
      permission,
      response: answers<MonitorCheckHistory>(),
      handler: async ({ params, query }) => answer(await service.history(params.id, query.days)),
    }),
  );
  route(
    '/monitor/maintenance',
    defineRoute({ permission, handler: async () => ({ windows: (await service.windows()).map(windowJson) }) }),
    defineRoute({
      methods: 'POST',
      body: windowBody,
      maxBodyBytes: WRITE_BODY_BYTES,
      permission,
      response: answers<MaintenanceWindowJson>(),
      handler: async ({ body, request }) => answer(await service.addWindow(body, await sources.of(request)), windowJson),
    }),
  );
  route(
    `/monitor/maintenance/${ID}`,
    defineRoute({
      methods: 'DELETE',
      params: ID_PARAMS,
      permission,
      handler: async ({ params, request }) => answer(await service.removeWindow(params.id, await sources.of(request)), deleted),
    }),
  );
  route(
    '/monitor/notifications',
    defineRoute({ permission, response: answers<MonitorNotifications>(), handler: () => service.notifications() }),
    defineRoute({
      methods: 'POST, PUT, PATCH',
      body: notificationBody,
      maxBodyBytes: WRITE_BODY_BYTES,
      permission,
      response: answers<MonitorNotifications>(),
      handler: async ({ body, request }) => answer(await service.setNotifications(body, await sources.of(request))),
    }),
  );
  route(
    '/monitor/notifications/test',
    defineRoute({
      methods: 'POST',
      permission,
      response: answers<MonitorTestAnswer>(),
      handler: async () => answer(await service.sendTest()),
    }),
  );
}
