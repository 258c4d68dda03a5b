import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';

let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('Monitor without an address to check', () => {
  it('is unavailable with the reason, and cannot be turned on', async () => {
    app = await createTestApp({ startJobs: false, env: { SITEWARD_HOME_URL: 'http://127.0.0.1:8080' } });
    const admin = await app.loginAs('administrator');
    const all = (await call(app, 'GET', '/module/all', { as: admin })).json as Record<string, Record<string, unknown>>;
    expect(all.monitor).toMatchObject({
      available: false,
      activated: false,
      unavailable_reason: { code: 'not_configured', settings: ['SITEWARD_MONITOR_URL', 'SITEWARD_HOME_URL'] },
    });
    const refused = await call(app, 'POST', '/module/monitor/active', { as: admin, body: { active: true } });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([424, 'activation_failed']);
    expect((refused.json as { message: string }).message).toContain(
      'Set SITEWARD_MONITOR_URL to the URL to check (for a local trial, the home URL itself: SITEWARD_MONITOR_URL=http://127.0.0.1:8080/)',
    );
  });

  it('is available with a public home URL', async () => {
    app = await createTestApp({ startJobs: false });
    const admin = await app.loginAs('administrator');
    const all = (await call(app, 'GET', '/module/all', { as: admin })).json as Record<string, Record<string, unknown>>;
    expect(all.monitor).toMatchObject({ available: true, unavailable_reason: null });
  });
});
