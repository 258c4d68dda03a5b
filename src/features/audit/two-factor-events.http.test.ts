/**
 * Two-factor enrolled and turned off are recorded in the same transaction as the change, with
 * the request's actor; the secret and recovery codes never appear.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let now = Date.UTC(2026, 10, 27, 8, 0, 0);
const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('audit events of two-factor on %s', (backend) => {
  let t: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({ clock: () => now, startJobs: false, env: schema ? { SITEWARD_DATABASE_URL: schema.url } : {} });
    admin = await t.loginAs('administrator', { login: 'careful' });
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  it('records enrolled and disabled', async () => {
    const started = await t.request({ method: 'POST', path: '/wp-json/siteward/v1/two-factor/enrol', headers: t.auth(admin) });
    const { secret } = started.json as { secret: string };
    now += 30_000;
    const code = await generate({ secret, epoch: Math.floor(now / 1000) });
    const confirmed = await t.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/two-factor/confirm',
      headers: t.auth(admin),
      body: { code },
    });
    expect(confirmed.status).toBe(200);
    const recovery = (confirmed.json as { recovery_codes: string[] }).recovery_codes;
    const off = await t.request({
      method: 'DELETE',
      path: '/wp-json/siteward/v1/two-factor',
      headers: t.auth(admin),
      body: { password: admin.password },
    });
    expect(off.status).toBe(200);

    const events = await t.store.auditLog.list(
      { action: 'two_factor.', actorUserId: admin.userId },
      { limit: 10, offset: 0, order: 'asc' },
    );
    expect(events.map((e) => [e.action, e.object?.id, e.changes])).toEqual([
      ['two_factor.enrolment_started', String(admin.userId), { enrolling: { before: false, after: true } }],
      ['two_factor.enrolled', String(admin.userId), { two_factor: { before: false, after: true } }],
      ['two_factor.disabled', String(admin.userId), { two_factor: { before: true, after: false } }],
    ]);
    for (const e of events) expect(e.actor).toMatchObject({ kind: 'user', login: 'careful', credential: { type: 'session' } });
    const all = JSON.stringify(events);
    expect(all).not.toContain(secret);
    for (const r of recovery) expect(all).not.toContain(r);
  });

  it('records recovery codes regenerated (only "changed", never a code) with the request that asked', async () => {
    const user = await t.loginAs('editor', { login: 'codekeeper' });
    const started = await t.request({ method: 'POST', path: '/wp-json/siteward/v1/two-factor/enrol', headers: t.auth(user) });
    const { secret } = started.json as { secret: string };
    now += 30_000;
    const code = await generate({ secret, epoch: Math.floor(now / 1000) });
    const confirmed = await t.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/two-factor/confirm',
      headers: t.auth(user),
      body: { code },
    });
    expect(confirmed.status).toBe(200);
    const fresh = await t.request({
      method: 'POST',
      path: '/wp-json/siteward/v1/two-factor/recovery-codes',
      headers: { ...t.auth(user), 'x-request-id': 'regen-1' },
    });
    expect(fresh.status).toBe(200);
    const codes = (fresh.json as { recovery_codes: string[] }).recovery_codes;

    const events = await t.store.auditLog.list({ action: 'two_factor.', actorUserId: user.userId }, { limit: 10, offset: 0, order: 'asc' });
    // The first codes come with the enrolment: only the regeneration is an event of its own.
    expect(events.map((e) => e.action)).toEqual([
      'two_factor.enrolment_started',
      'two_factor.enrolled',
      'two_factor.recovery_codes_regenerated',
    ]);
    const regenerated = events[2];
    expect(regenerated?.changes).toEqual({ recovery_codes: { secret: true } });
    expect(regenerated).toMatchObject({
      request_id: 'regen-1',
      actor: { kind: 'user', login: 'codekeeper', credential: { type: 'session' } },
    });
    const all = JSON.stringify(events);
    for (const c of codes) expect(all).not.toContain(c);
  });

  it("records the setup page's enrolment with the cookie's session and the request", async () => {
    const user = await t.loginAs('author', { login: 'pageuser' });
    const headers = { cookie: user.cookie, 'x-request-id': 'enrol-page-1' };
    const page = await t.request({ path: '/login/two-factor/setup', headers });
    expect(page.status).toBe(200);
    const secret = /id="two-factor-secret">([A-Z2-7]+)</.exec(page.text)![1]!;
    const formToken = /name="_siteward_form" value="([^"]+)"/.exec(page.text)![1]!;
    now += 30_000;
    const code = await generate({ secret, epoch: Math.floor(now / 1000) });
    const done = await t.request({
      method: 'POST',
      path: '/login/two-factor/setup',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
      body: new URLSearchParams({ _siteward_form: formToken, code, redirect_to: '/admin/' }).toString(),
    });
    expect(done.status).toBe(200);
    const events = await t.store.auditLog.list({ action: 'two_factor.', actorUserId: user.userId }, { limit: 10, offset: 0, order: 'asc' });
    expect(events.map((e) => [e.action, e.request_id, e.actor.credential.type])).toEqual([
      ['two_factor.enrolment_started', 'enrol-page-1', 'session'],
      ['two_factor.enrolled', 'enrol-page-1', 'session'],
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});
