/**
 * Siteward's own monitor routes (`siteward/v1/monitor…`), administrators only: the overview
 * the Monitor screen shows, each check's history, the checks, maintenance windows, who is
 * notified, and a test notification. They show in the namespace index with their arguments.
 */
import type { SitewardApi } from '../../plugins/api.js';
import type { ArgDefinition, PermissionCallback, RestRequest } from '../../rest/types.js';
import { HISTORY_DAYS_ARG, SITEWARD_NAMESPACE } from '../history-route.js';
import { monitorError } from './monitor-errors.js';
import { windowJson, type MonitorService, type Outcome } from './monitor-service.js';

const ID = '(?P<id>\\d+)';

function answer<T>(outcome: Outcome<T>, json: (value: T) => unknown = (v) => v): unknown {
  return outcome.ok ? json(outcome.value) : monitorError(outcome.error, outcome.detail);
}

/** The JSON body (or form fields) as an object. */
function body(request: RestRequest): Record<string, unknown> {
  const json = request.json;
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : request.bodyParams;
}

const id = (request: RestRequest): number => Number(request.urlParams.id);

export function registerMonitorRoutes(api: SitewardApi, service: MonitorService, permission: PermissionCallback): void {
  const checkArgs = {
    url: { type: 'string', description: 'The URL checked (of the same site: its API, its CDN). Null for check 1: the site URL.' },
    expectedStatus: { type: 'string', description: 'Accepted statuses: "200", "2xx", "200-299", comma-separated; empty: 2xx and 3xx.' },
    keyword: { type: 'string', description: 'Text that must appear in the body (or must not, with keywordAbsent).' },
    keywordAbsent: { type: 'boolean', description: 'True: the keyword must NOT appear.' },
    slowMs: { type: 'integer', description: 'A response slower than this many milliseconds counts as slow.' },
  } as const;
  // The JSON body is validated by the operation (one parser for REST and the CLI), so the schema sanitizing is off.
  const loose = (definitions: Record<string, { type: string; description: string }>): Record<string, ArgDefinition> =>
    Object.fromEntries(Object.entries(definitions).map(([k, v]): [string, ArgDefinition] => [k, { description: v.description, type: v.type, sanitizeCallback: null, validateCallback: () => true }]));

  api.registerRoute(SITEWARD_NAMESPACE, '/monitor', {
    methods: 'GET',
    permissionCallback: permission,
    callback: () => service.overview(),
  });
  api.registerRoute(SITEWARD_NAMESPACE, '/monitor/checks', [
    { methods: 'GET', permissionCallback: permission, callback: async () => ({ checks: (await service.overview()).checks }) },
    { methods: 'POST', permissionCallback: permission, args: loose(checkArgs), callback: async (request) => answer(await service.addCheck(body(request))) },
  ]);
  api.registerRoute(SITEWARD_NAMESPACE, `/monitor/checks/${ID}`, [
    { methods: 'POST, PUT, PATCH', permissionCallback: permission, args: loose(checkArgs), callback: async (request) => answer(await service.updateCheck(id(request), body(request))) },
    { methods: 'DELETE', permissionCallback: permission, callback: async (request) => answer(await service.removeCheck(id(request)), () => ({ deleted: true })) },
  ]);
  api.registerRoute(SITEWARD_NAMESPACE, `/monitor/checks/${ID}/history`, {
    methods: 'GET',
    args: { days: HISTORY_DAYS_ARG },
    permissionCallback: permission,
    callback: async (request) => answer(await service.history(id(request), Number(request.params.days))),
  });
  const windowArgs = {
    kind: { type: 'string', description: 'once, weekly or cron.' },
    starts: { type: 'string', description: 'once: the start, ISO 8601.' },
    ends: { type: 'string', description: 'once: the end, ISO 8601.' },
    days: { type: 'array', description: 'weekly: weekday numbers, 0 (Sunday) to 6.' },
    time: { type: 'string', description: 'weekly: HH:MM in the site’s time zone.' },
    cron: { type: 'string', description: 'cron: a five-field cron expression in the site’s time zone, e.g. "0 3 * * 0".' },
    durationMinutes: { type: 'integer', description: 'weekly, cron: how long each occurrence lasts.' },
    note: { type: 'string', description: 'What the window is for.' },
  };
  api.registerRoute(SITEWARD_NAMESPACE, '/monitor/maintenance', [
    { methods: 'GET', permissionCallback: permission, callback: async () => ({ windows: (await service.windows()).map(windowJson) }) },
    { methods: 'POST', permissionCallback: permission, args: loose(windowArgs), callback: async (request) => answer(await service.addWindow(body(request)), windowJson) },
  ]);
  api.registerRoute(SITEWARD_NAMESPACE, `/monitor/maintenance/${ID}`, {
    methods: 'DELETE',
    permissionCallback: permission,
    callback: async (request) => answer(await service.removeWindow(id(request)), () => ({ deleted: true })),
  });
  const notificationArgs = {
    administrators: { type: 'array', description: 'User ids of the administrators who get e-mails; null: all of them.' },
    emails: { type: 'array', description: 'Further e-mail addresses.' },
    repeatMinutes: { type: 'integer', description: 'Minutes between "still down" reminders; 0: none.' },
  } as const;
  api.registerRoute(SITEWARD_NAMESPACE, '/monitor/notifications', [
    { methods: 'GET', permissionCallback: permission, callback: () => service.notifications() },
    { methods: 'POST, PUT, PATCH', permissionCallback: permission, args: loose(notificationArgs), callback: async (request) => answer(await service.setNotifications(body(request))) },
  ]);
  api.registerRoute(SITEWARD_NAMESPACE, '/monitor/notifications/test', {
    methods: 'POST',
    permissionCallback: permission,
    callback: async () =>
      answer(await service.sendTest(), (results) => ({
        results: results.map((r) => ({ channel: r.channel, ok: r.ok, ...(r.ok ? {} : { error: r.error }) })),
      })),
  });
}
