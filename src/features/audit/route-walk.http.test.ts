/**
 * The route walk (issue 41): every route `siteward routes` lists (the app's route table) with a
 * method other than GET/HEAD must be in COVERAGE: the audit actions it records, or exempt with a
 * reason, or a known gap (`pending`, with why: the list can only shrink). A new route without an
 * entry fails here, and so does an entry whose route is gone. The routes whose change can be made
 * with a plain valid request are then called over HTTP (CALLS) and must add an event of their
 * listed actions; the others are exercised by the event tests beside this file (named in `by`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

type Coverage = { readonly events: readonly string[]; readonly by?: string } | { readonly exempt: string } | { readonly pending: string };

const WP = '/wp-json';
const USERS_ID = `${WP}/wp/v2/users/(?P<id>[\\d]+)`;
const APP_PASSWORDS = `${WP}/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords`;
const JP = `${WP}/jetpack/v4`;
const SW = `${WP}/siteward/v1`;
const SETTINGS_EVENTS = ['settings.updated', 'module.activated', 'module.deactivated', 'options.updated'];

/** By path: every non-GET method of a path shares its entry (POST, PUT and PATCH are one WordPress EDITABLE). */
const COVERAGE: Readonly<Record<string, Coverage>> = {
  '/': { exempt: 'the REST entry of plain permalinks (?rest_route=): what it serves is the routes listed here' },
  '/index.php': { exempt: 'the same REST entry (?rest_route=)' },
  [`${WP}/batch/v1`]: {
    exempt: 'the wrapper changes nothing itself: each item is its own request, recorded (or refused: rest.denied) as such',
  },
  [`${WP}/wp-abilities/v1/abilities/(?P<name>[a-zA-Z0-9\\-\\/]+?)/run`]: {
    events: ['ability.run'],
    by: 'src/features/abilities/siteward-abilities.http.test.ts',
  },
  [`${SW}/two-factor`]: { events: ['two_factor.disabled'], by: 'two-factor-events.http.test.ts' },
  [`${SW}/two-factor/enrol`]: { events: ['two_factor.enrolment_started'], by: 'two-factor-events.http.test.ts' },
  [`${SW}/two-factor/confirm`]: { events: ['two_factor.enrolled'], by: 'two-factor-events.http.test.ts' },
  [`${SW}/two-factor/recovery-codes`]: { events: ['two_factor.recovery_codes_regenerated'], by: 'two-factor-events.http.test.ts' },
  [`${WP}/wp/v2/users`]: { events: ['user.created'] },
  [USERS_ID]: { events: ['user.updated', 'user.role_changed', 'user.password_changed', 'user.deleted'], by: 'user-events.http.test.ts' },
  [`${WP}/wp/v2/users/me`]: { events: ['user.updated', 'user.password_changed', 'user.deleted'], by: 'user-events.http.test.ts' },
  [APP_PASSWORDS]: { events: ['app_password.created', 'app_password.revoked'] },
  [`${APP_PASSWORDS}/(?P<uuid>[\\w\\-]+)`]: {
    events: ['app_password.renamed', 'app_password.revoked'],
    by: 'app-password-events.http.test.ts',
  },
  [`${WP}/wp/v2/settings`]: { events: ['settings.updated'] },
  [`${JP}/disconnect/site`]: { events: ['connection.unlinked', 'connection.disconnected'], by: 'connection-events.http.test.ts' },
  [`${JP}/unlink`]: { events: ['connection.unlinked'], by: 'connection-events.http.test.ts' },
  [`${JP}/recheck-ssl`]: { exempt: "re-runs the HTTPS check and caches its answer in the status table (a probe's result, not a setting)" },
  [`${JP}/connection`]: { events: ['connection.unlinked', 'connection.disconnected'], by: 'connection-events.http.test.ts' },
  [`${JP}/connection/user`]: { events: ['connection.unlinked'], by: 'connection-events.http.test.ts' },
  [`${JP}/module/activate`]: { events: ['module.activated'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/modules/activate`]: { events: ['module.activated'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/module/all/active`]: { events: ['module.activated', 'module.deactivated'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/module/(?P<slug>[a-z\\-]+)/active`]: { events: ['module.activated', 'module.deactivated'] },
  [`${JP}/module/(?P<slug>[a-z\\-]+)`]: { events: ['module.options_updated'] },
  [`${JP}/settings`]: { events: SETTINGS_EVENTS },
  [`${JP}/settings/update`]: { events: SETTINGS_EVENTS, by: 'jetpack-events.http.test.ts' },
  [`${JP}/setting/update`]: { events: SETTINGS_EVENTS, by: 'jetpack-events.http.test.ts' },
  [`${JP}/settings/(?P<module>[a-z\\-]+)`]: { events: SETTINGS_EVENTS, by: 'jetpack-events.http.test.ts' },
  [`${JP}/jumpstart/activate`]: { events: ['jumpstart.activated'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/jumpstart/deactivate`]: { events: ['jumpstart.deactivated'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/jumpstart`]: {
    events: ['jumpstart.activated', 'jumpstart.deactivated', 'jumpstart.dismissed'],
    by: 'jetpack-events.http.test.ts',
  },
  [`${JP}/reset/(?P<options_or_modules>[a-z\\-]+)`]: { events: ['options.reset', 'modules.reset'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/options/(?P<options>[a-z\\-]+)`]: { events: ['options.reset', 'modules.reset'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/notice/(?P<notice>[a-z\\-_]+)/dismiss`]: { events: ['notice.dismissed'], by: 'jetpack-events.http.test.ts' },
  [`${JP}/notice/(?P<notice>[a-z\\-_]+)`]: { events: ['notice.dismissed'] },
  [`${SW}/protect/blocks`]: { events: ['protect.unblocked'], by: 'protect-events.http.test.ts' },
  [`${SW}/protect/blocks/(?P<address>[0-9A-Fa-f:.]+(?:/64)?)`]: { events: ['protect.unblocked'], by: 'protect-events.http.test.ts' },
  [`${SW}/protect/notifications`]: { events: ['protect.notifications_updated'] },
  [`${SW}/monitor/checks`]: { events: ['monitor.check_added'] },
  [`${SW}/monitor/checks/(?P<id>\\d+)`]: { events: ['monitor.check_updated', 'monitor.check_removed'], by: 'monitor-events.http.test.ts' },
  [`${SW}/monitor/maintenance`]: { events: ['monitor.maintenance_added'] },
  [`${SW}/monitor/maintenance/(?P<id>\\d+)`]: { events: ['monitor.maintenance_removed'], by: 'monitor-events.http.test.ts' },
  [`${SW}/monitor/notifications`]: { events: ['monitor.notifications_updated'] },
  [`${SW}/monitor/notifications/test`]: { exempt: 'sends a test message and stores nothing' },
  [`${SW}/backups`]: { events: ['backup.created', 'backup.failed'], by: 'backup-events.http.test.ts' },
  [`${WP}/mcp/mcp-adapter-default-server`]: {
    exempt: "the MCP transport: a tool call is an ability run, recorded as ability.run; DELETE ends a stateless server's nothing",
  },
  [`${SW}/mcp`]: { exempt: 'the MCP transport, as above' },
  [`${SW}/agent-clients/(?P<client_id>[^/]+)`]: {
    events: ['agent_client.revoked'],
    by: 'src/features/mcp/mcp-oauth.http.test.ts',
  },
  '/login/two-factor/setup': { events: ['two_factor.enrolled'], by: 'two-factor-events.http.test.ts' },
  '/login': { events: ['login.succeeded', 'login.failed'], by: 'session-events.http.test.ts' },
  '/wp-login.php': { events: ['login.succeeded', 'login.failed'], by: 'session-events.http.test.ts (the same form handler)' },
  '/logout': { events: ['session.logged_out'], by: 'session-events.http.test.ts' },
  '/setup': { events: ['user.created'], by: 'password-events.http.test.ts' },
  '/login/lost-password': { events: ['user.password_reset_requested'], by: 'password-events.http.test.ts' },
  '/login/reset-password': { events: ['user.password_reset', 'session.ended'], by: 'password-events.http.test.ts' },
  '/login/unlock': { exempt: 'asks for an unlock e-mail: the block is lifted (protect.unblocked) only when the link is confirmed' },
  '/login/unlock/confirm': {
    events: ['protect.unblocked'],
    by: 'src/features/protect/protect-blocks.http.test.ts drives it; the event is the same lift',
  },
};

/** Routes called here with a valid request: the path as requested and a body. */
const CALLS: readonly { readonly route: string; readonly method: string; readonly path: string; readonly body?: object }[] = [
  {
    route: `${WP}/wp/v2/users`,
    method: 'POST',
    path: '/wp/v2/users',
    body: { username: 'walker', email: 'walker@example.org', password: 'a long walk 1234' },
  },
  { route: APP_PASSWORDS, method: 'POST', path: '/wp/v2/users/me/application-passwords', body: { name: 'walk' } },
  { route: `${WP}/wp/v2/settings`, method: 'POST', path: '/wp/v2/settings', body: { title: 'Walked site' } },
  { route: `${JP}/module/(?P<slug>[a-z\\-]+)/active`, method: 'POST', path: '/jetpack/v4/module/stats/active', body: { active: false } },
  {
    route: `${JP}/module/(?P<slug>[a-z\\-]+)`,
    method: 'POST',
    path: '/jetpack/v4/module/protect',
    body: { jetpack_protect_global_whitelist: '198.51.100.9' },
  },
  { route: `${JP}/settings`, method: 'POST', path: '/jetpack/v4/settings', body: { carousel: true } },
  {
    route: `${JP}/notice/(?P<notice>[a-z\\-_]+)`,
    method: 'POST',
    path: '/jetpack/v4/notice/feedback_dash_request',
    body: { dismissed: true },
  },
  { route: `${SW}/protect/notifications`, method: 'POST', path: '/siteward/v1/protect/notifications', body: { webhook: true } },
  { route: `${SW}/monitor/checks`, method: 'POST', path: '/siteward/v1/monitor/checks', body: { url: 'https://walk.example.org/' } },
  {
    route: `${SW}/monitor/maintenance`,
    method: 'POST',
    path: '/siteward/v1/monitor/maintenance',
    body: { kind: 'weekly', days: [1], time: '03:00', durationMinutes: 30, note: 'walk' },
  },
  {
    route: `${SW}/monitor/notifications`,
    method: 'POST',
    path: '/siteward/v1/monitor/notifications',
    body: { emails: ['walk@example.org'] },
  },
];

describe('the route walk', () => {
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({ startJobs: false });
    admin = await t.loginAs('administrator', { login: 'walker-admin' });
  });
  afterAll(() => t.close());

  const writes = () =>
    t.app
      .routes()
      .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.method !== '*')
      .map((r) => r.path);

  it('lists every non-GET route of `siteward routes`, and no route that is gone', () => {
    const served = new Set(writes());
    expect(
      [...served].filter((path) => COVERAGE[path] === undefined),
      'routes without an audit entry',
    ).toEqual([]);
    expect(
      Object.keys(COVERAGE).filter((path) => !served.has(path)),
      'entries whose route is gone',
    ).toEqual([]);
    for (const [path, entry] of Object.entries(COVERAGE)) {
      if ('events' in entry) expect(entry.events.length, path).toBeGreaterThan(0);
      else expect(('exempt' in entry ? entry.exempt : entry.pending).length, path).toBeGreaterThan(10);
    }
  });

  it.each(CALLS)('$method $path records one of its listed actions', async ({ route, method, path, body }) => {
    const entry = COVERAGE[route];
    if (!entry || !('events' in entry)) throw new Error(`${route} is not listed with events`);
    const before = await t.store.auditLog.count({});
    const res = await t.request({ method, path: `${WP}${path}`, headers: t.auth(admin), ...(body ? { body } : {}) });
    expect(res.status, res.text).toBeLessThan(300);
    const added = (await t.store.auditLog.list({}, { limit: 50, offset: 0 })).slice(0, (await t.store.auditLog.count({})) - before);
    expect(
      added.map((e) => e.action).some((a) => entry.events.includes(a)),
      JSON.stringify(added.map((e) => e.action)),
    ).toBe(true);
  });
});
