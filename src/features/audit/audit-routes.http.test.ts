/**
 * `GET siteward/v1/audit` and `/audit/{id}` over HTTP: administrators only, filtered, paged with
 * X-WP-Total, X-WP-TotalPages and Link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import type { AuditEvent, AuditEventInput } from '../../wire/audit.js';
import { auditInput } from '../../../test/helpers/audit-event.js';

describe('siteward/v1/audit', () => {
  let t: TestApp;
  let admin: LoggedIn;
  let editor: LoggedIn;
  const get = (path: string, as?: LoggedIn) => t.request({ path: `/wp-json/siteward/v1${path}`, headers: as ? t.auth(as) : {} });

  beforeAll(async () => {
    t = await createTestApp({ startJobs: false });
    admin = await t.loginAs('administrator', { login: 'root' });
    editor = await t.loginAs('editor', { login: 'ed' });
    // Five changes: protect off and on, twice, and a notice.
    for (const active of [false, true, false, true]) await call(t, 'POST', '/module/protect/active', { as: admin, body: { active } });
    await call(t, 'POST', '/notice/welcome', { as: admin, body: { dismissed: true } });
  });
  afterAll(() => t.close());

  it('answers administrators only', async () => {
    expect((await get('/audit')).status).toBe(401);
    expect((await get('/audit', editor)).status).toBe(403);
    expect((await get('/audit/1', editor)).status).toBe(403);
  });

  it('filters and pages newest first with the paging headers', async () => {
    const first = await get('/audit?action=module.&per_page=3', admin);
    expect(first.status).toBe(200);
    expect(first.headers['x-wp-total']).toBe('4');
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.headers.link).toMatch(/<http:\/\/[^>]+\/siteward\/v1\/audit\?action=module\.&per_page=3&page=2>; rel="next"/);
    const events = first.json as AuditEvent[];
    expect(events.map((e) => e.action)).toEqual(['module.activated', 'module.deactivated', 'module.activated']);
    expect(events[0]!.id).toBeGreaterThan(events[1]!.id);
    const second = await get('/audit?action=module.&per_page=3&page=2', admin);
    expect((second.json as AuditEvent[]).map((e) => e.action)).toEqual(['module.deactivated']);
    expect(second.headers.link).toMatch(/rel="prev"/);
    expect((await get('/audit?action=module.&per_page=3&page=3', admin)).json).toMatchObject({ code: 'rest_invalid_page_number' });

    const notices = await get(`/audit?object_type=notice&actor=${admin.userId}&result=ok`, admin);
    expect((notices.json as AuditEvent[]).map((e) => e.object?.id)).toEqual(['welcome']);
    expect((await get('/audit?search=WELCOME', admin)).headers['x-wp-total']).toBe('1');
    expect((await get('/audit?after=2999-01-01T00:00:00Z', admin)).headers['x-wp-total']).toBe('0');
    expect((await get('/audit?result=maybe', admin)).status).toBe(400);
  });

  it('answers the bytes of the parsed events encoded again, also with _fields, _envelope and _jsonp', async () => {
    const events = await t.store.auditLog.list({}, { limit: 3, offset: 0 });
    const expected = JSON.stringify(events);
    expect((await get('/audit?per_page=3', admin)).text).toBe(expected);
    expect((await get('/audit?per_page=3&_jsonp=cb', admin)).text).toBe(`/**/cb(${expected})`);
    const fields = await get('/audit?per_page=3&_fields=id,action,object.id', admin);
    expect(fields.text).toBe(JSON.stringify(events.map((e) => ({ id: e.id, action: e.action, object: { id: e.object?.id } }))));
    const envelope = await get('/audit?per_page=3&_envelope=1', admin);
    expect(envelope.text.startsWith(`{"body":${expected},"status":200,`)).toBe(true);
  });

  it('shows one event, and 404 for an id that does not exist', async () => {
    const [latest] = (await get('/audit?per_page=1', admin)).json as AuditEvent[];
    const one = await get(`/audit/${latest!.id}`, admin);
    expect(one.json).toEqual(latest);
    const missing = await get('/audit/999999', admin);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'audit_event_not_found', message: 'No audit event has id 999999.' });
  });
});

const DAY = 86_400_000;

function stored(action: string, i: number): AuditEventInput {
  return auditInput({ action, request_id: `req-${i}`, object: { type: 'option', id: `o${i}`, name: `o${i}` } });
}

describe('siteward/v1/audit totals', () => {
  let now = Date.now();
  let t: TestApp;
  let admin: LoggedIn;
  const list = async (query: string) => {
    const res = await t.request({ path: `/wp-json/siteward/v1/audit?per_page=100&${query}`, headers: t.auth(admin) });
    return { total: Number(res.headers['x-wp-total']), actions: (res.json as AuditEvent[]).map((e) => e.action) };
  };

  beforeAll(async () => {
    t = await createTestApp({ startJobs: false, clock: () => now });
    admin = await t.loginAs('administrator', { login: 'root' });
  });
  afterAll(() => t.close());

  it('counts the events kept after the retention purged old ones, not the head’s count of all ever written', async () => {
    await t.store.auditLog.append([0, 1, 2].map((i) => stored('option.updated', i)));
    now += 366 * DAY;
    await t.app.jobs.tick();
    await t.store.auditLog.append([3, 4].map((i) => stored('option.updated', i)));
    const all = await list('');
    const kept = await t.store.auditLog.rows(0, 1000);
    expect(all.total).toBe(kept.length);
    expect(all.actions).toHaveLength(kept.length);
    // The head counts every event the chain ever numbered (its checkpoints sign that), purged ones too.
    expect((await t.store.auditLog.head()).count).toBeGreaterThan(kept.length);
  });

  it('matches a prefix with % and _ as plain characters, in any ASCII case, and counts what it lists', async () => {
    const actions = [
      'plugin.a%b.x',
      'plugin.axb.y',
      'plugin.a%bb.z',
      'PLUGIN.A%B.w',
      'plugin.a_b.v',
      'plugin.ab.u',
      'plugin.a%b',
      'plugin.a%c.t',
    ];
    await t.store.auditLog.append(actions.map((action, i) => stored(action, 10 + i)));
    const cases: [string, string[]][] = [
      ['plugin.a%b.', ['plugin.a%b.x', 'PLUGIN.A%B.w']],
      ['Plugin.A%B.*', ['plugin.a%b.x', 'PLUGIN.A%B.w']],
      ['plugin.a%b*', ['plugin.a%b.x', 'plugin.a%bb.z', 'PLUGIN.A%B.w', 'plugin.a%b']],
      ['plugin.a_b.', ['plugin.a_b.v']],
      [
        'plugin.*',
        ['plugin.a%b.x', 'plugin.axb.y', 'plugin.a%bb.z', 'PLUGIN.A%B.w', 'plugin.a_b.v', 'plugin.ab.u', 'plugin.a%b', 'plugin.a%c.t'],
      ],
      ['PL*', actions],
      ['p*', [...actions]],
      ['*', []],
    ];
    for (const [prefix, expected] of cases) {
      const found = await list(`action=${encodeURIComponent(prefix)}`);
      if (prefix === '*') {
        // The empty prefix: every event.
        expect(found.total).toBe((await t.store.auditLog.rows(0, 1000)).length);
        continue;
      }
      expect(found.actions.sort(), prefix).toEqual([...expected].sort());
      expect(found.total, prefix).toBe(expected.length);
    }
  });
});
