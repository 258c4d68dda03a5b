import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let app: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  app = await createTestApp();
  admin = await app.loginAs('administrator');
});
afterAll(() => app.close());

describe('site verification on the home page', () => {
  it('prints the verification meta tags of the active verification-tools module', async () => {
    const set = await app.request({ method: 'POST', path: '/wp-json/jetpack/v4/module/verification-tools', headers: app.auth(admin), body: { google: 'abc-123_X', bing: 'B1NG' } });
    expect(set.status).toBe(200);
    const home = await app.request({ path: '/' });
    expect(home.text).toContain('<meta name="google-site-verification" content="abc-123_X" />');
    expect(home.text).toContain('<meta name="msvalidate.01" content="B1NG" />');
    await app.request({ method: 'POST', path: '/wp-json/jetpack/v4/module/verification-tools/active', headers: app.auth(admin), body: { active: false } });
    expect((await app.request({ path: '/' })).text).not.toContain('google-site-verification');
  });
});
