/**
 * Siteward's own monitor routes (`siteward/v1/monitor…`), administrators only: the overview
 * the Monitor screen shows, each check's history, the checks, maintenance windows, who is
 * notified, and a test notification. They show in the namespace index with their arguments.
 */
import type { SitewardApi } from '../../plugins/api.js';
import type { ArgDefinition, EndpointDefinition, PermissionCallback, RestRequest } from '../../rest/types.js';
import { registerHistoryRoute, SITEWARD_NAMESPACE } from '../history-route.js';
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

/** Arguments whose values the operation validates: name → [type, description] (shown in the index). */
type LooseArgs = Readonly<Record<string, readonly [type: string, description: string]>>;

const checkArgs: LooseArgs = {
  url: ['string', 'The URL checked (of the same site: its API, its CDN). Null for check 1: the site URL.'],
  expectedStatus: ['string', 'Accepted statuses: "200", "2xx", "200-299", comma-separated; empty: 2xx and 3xx.'],
  keyword: ['string', 'Text that must appear in the body (or must not, with keywordAbsent).'],
  keywordAbsent: ['boolean', 'True: the keyword must NOT appear.'],
  slowMs: ['integer', 'A response slower than this many milliseconds counts as slow.'],
};

const windowArgs: LooseArgs = {
  kind: ['string', 'once, weekly or cron.'],
  starts: ['string', 'once: the start, ISO 8601.'],
  ends: ['string', 'once: the end, ISO 8601.'],
  days: ['array', 'weekly: weekday numbers, 0 (Sunday) to 6.'],
  time: ['string', 'weekly: HH:MM in the site’s time zone.'],
  cron: ['string', 'cron: a five-field cron expression in the site’s time zone, e.g. "0 3 * * 0".'],
  durationMinutes: ['integer', 'weekly, cron: how long each occurrence lasts.'],
  note: ['string', 'What the window is for.'],
};

const notificationArgs: LooseArgs = {
  administrators: ['array', 'User ids of the administrators who get e-mails; null: all of them.'],
  emails: ['array', 'Further e-mail addresses.'],
  repeatMinutes: ['integer', 'Minutes between "still down" reminders; 0: none.'],
  email: [
    'boolean',
    'Whether real alerts go out by e-mail (the module option monitor_receive_notifications). The webhook, when set, is called regardless.',
  ],
};

/** The JSON body is validated by the operation (one parser for REST and the CLI), so the schema sanitizing is off. */
function loose(args: LooseArgs): Record<string, ArgDefinition> {
  return Object.fromEntries(
    Object.entries(args).map(([name, [type, description]]): [string, ArgDefinition] => [
      name,
      { description, type, sanitizeCallback: null, validateCallback: () => true },
    ]),
  );
}

const deleted = () => ({ deleted: true });

export function registerMonitorRoutes(api: SitewardApi, service: MonitorService, permission: PermissionCallback): void {
  /** Registers `siteward/v1{path}`, every endpoint behind `permission`. */
  const route = (path: string, ...endpoints: EndpointDefinition[]) =>
    api.registerRoute(
      SITEWARD_NAMESPACE,
      path,
      endpoints.map((endpoint) => ({ permissionCallback: permission, ...endpoint })),
    );
  /** An endpoint that writes the JSON body with `run` and answers its outcome. */
  const write = <T>(
    methods: string,
    args: LooseArgs,
    run: (request: RestRequest) => Promise<Outcome<T>>,
    json?: (value: T) => unknown,
  ): EndpointDefinition => ({
    methods,
    args: loose(args),
    // The largest write (a check: a 2048-character URL, a 1000-character keyword) fits many times over.
    maxBodyBytes: 64 * 1024,
    callback: async (request) => answer(await run(request), json),
  });
  const remove = (run: (id: number) => Promise<Outcome<unknown>>): EndpointDefinition => ({
    methods: 'DELETE',
    callback: async (request) => answer(await run(id(request)), deleted),
  });

  route('/monitor', { methods: 'GET', callback: () => service.overview() });
  route(
    '/monitor/checks',
    { methods: 'GET', callback: async () => ({ checks: (await service.overview()).checks }) },
    write('POST', checkArgs, (request) => service.addCheck(body(request))),
  );
  route(
    `/monitor/checks/${ID}`,
    write('POST, PUT, PATCH', checkArgs, (request) => service.updateCheck(id(request), body(request))),
    remove((checkId) => service.removeCheck(checkId)),
  );
  registerHistoryRoute(api, `/monitor/checks/${ID}/history`, permission, async (days, request) =>
    answer(await service.history(id(request), days)),
  );
  route(
    '/monitor/maintenance',
    { methods: 'GET', callback: async () => ({ windows: (await service.windows()).map(windowJson) }) },
    write('POST', windowArgs, (request) => service.addWindow(body(request)), windowJson),
  );
  route(
    `/monitor/maintenance/${ID}`,
    remove((windowId) => service.removeWindow(windowId)),
  );
  route(
    '/monitor/notifications',
    { methods: 'GET', callback: () => service.notifications() },
    write('POST, PUT, PATCH', notificationArgs, (request) => service.setNotifications(body(request))),
  );
  route('/monitor/notifications/test', { methods: 'POST', callback: async () => answer(await service.sendTest()) });
}
