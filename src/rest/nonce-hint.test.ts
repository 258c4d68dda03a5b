import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

describe('a request with a login cookie but no nonce', () => {
  let app: TestApp;
  let admin: LoggedIn;
  beforeAll(async () => {
    app = await createInProcessApp();
    admin = await app.loginAs('administrator');
  });
  afterAll(() => app.close());

  const settings = (headers: Record<string, string>) => app.request({ path: '/wp-json/jetpack/v4/settings', headers });

  it("keeps WordPress's code and message and explains the missing nonce in data.hint", async () => {
    const res = await settings({ Cookie: admin.cookie });
    expect(res.status).toBe(401);
    const body = res.json as { code: string; message: string; data: { status: number; hint: string } };
    const anonymous = (await settings({})).json as { code: string; message: string };
    expect(body.code).toBe(anonymous.code);
    expect(body.message).toBe(anonymous.message);
    expect(body.data.status).toBe(401);
    expect(body.data.hint).toMatch(/without a nonce/);
    expect(body.data.hint).toMatch(/X-WP-Nonce/);
  });

  it('adds no hint for a visitor without a cookie, nor when the nonce is there', async () => {
    expect((await settings({})).json).not.toHaveProperty('data.hint');
    expect((await settings(app.auth(admin))).status).toBe(200);
  });

  it('adds no hint to errors other than 401 and 403', async () => {
    const res = await app.request({ path: '/wp-json/nothing/here', headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(404);
    expect(res.json).not.toHaveProperty('data.hint');
  });
});
