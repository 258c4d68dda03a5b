/**
 * Two-factor enrolled and turned off are recorded in the same transaction as the change, with
 * the request's actor; the secret and recovery codes never appear.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let now = Date.UTC(2026, 10, 27, 8, 0, 0);

describe('audit events of two-factor', () => {
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, startJobs: false });
    admin = await t.loginAs('administrator', { login: 'careful' });
  });
  afterAll(() => t.close());

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

    const events = await t.store.auditLog.list({ action: 'two_factor.' }, { limit: 10, offset: 0, order: 'asc' });
    expect(events.map((e) => [e.action, e.object?.id, e.changes.two_factor])).toEqual([
      ['two_factor.enrolled', String(admin.userId), { before: false, after: true }],
      ['two_factor.disabled', String(admin.userId), { before: true, after: false }],
    ]);
    for (const e of events) expect(e.actor).toMatchObject({ kind: 'user', login: 'careful', credential: { type: 'session' } });
    const all = JSON.stringify(events);
    expect(all).not.toContain(secret);
    for (const r of recovery) expect(all).not.toContain(r);
  });
});
