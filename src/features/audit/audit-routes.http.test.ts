/**
 * `GET siteward/v1/audit` and `/audit/{id}` over HTTP: administrators only, filtered, paged with
 * X-WP-Total, X-WP-TotalPages and Link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import type { AuditEvent } from '../../wire/audit.js';

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

  it('shows one event, and 404 for an id that does not exist', async () => {
    const [latest] = (await get('/audit?per_page=1', admin)).json as AuditEvent[];
    const one = await get(`/audit/${latest!.id}`, admin);
    expect(one.json).toEqual(latest);
    const missing = await get('/audit/999999', admin);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 'audit_event_not_found', message: 'No audit event has id 999999.' });
  });
});
