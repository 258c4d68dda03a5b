import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let app: TestApp;
let admin: LoggedIn;
let subscriber: LoggedIn;
beforeAll(async () => {
  app = await createTestApp();
  admin = await app.loginAs('administrator');
  subscriber = await app.loginAs('subscriber');
});
afterAll(() => app.close());

async function showJumpstart(): Promise<string> {
  const page = await app.request({ path: '/admin/', headers: { Cookie: admin.cookie } });
  return JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(page.text)![1]!).showJumpstart;
}

async function resetOptions(): Promise<void> {
  expect((await app.request({ method: 'POST', path: '/wp-json/jetpack/v4/reset/options', headers: app.auth(admin) })).status).toBe(200);
}

describe('what closes the Jump Start offer', () => {
  it('is not an activation of a module that is already active', async () => {
    await resetOptions();
    expect(await showJumpstart()).toBe('1');
    const res = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/protect/active',
      headers: { ...app.auth(admin), 'Content-type': 'application/json' },
      body: '{"active":true}',
    });
    expect(res.status).toBe(200);
    const bulk = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/modules/activate',
      headers: app.auth(admin),
      body: { modules: ['protect', 'widgets'] },
    });
    expect(bulk.status).toBe(200);
    expect(await showJumpstart()).toBe('1');
  });

  it('is not a subscriber dismissing a notice, but is an administrator doing so', async () => {
    await resetOptions();
    const bySubscriber = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/notice/welcome/dismiss',
      headers: app.auth(subscriber),
    });
    expect(bySubscriber.json).toEqual({ welcome: true });
    expect(await showJumpstart()).toBe('1');
    await app.request({ method: 'PUT', path: '/wp-json/jetpack/v4/notice/feedback_dash_request/dismiss', headers: app.auth(admin) });
    expect(await showJumpstart()).toBe('');
  });

  it('is a real activation by the administrator', async () => {
    await resetOptions();
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/markdown/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    expect(await showJumpstart()).toBe('');
  });
});

describe('Initial_State in development mode', () => {
  it('gives getModules only to users who may read module/all', async () => {
    const dev = await createTestApp({ env: { SITEWARD_OFFLINE: '1' } });
    try {
      const sub = await dev.loginAs('subscriber');
      const refused = await dev.request({ path: '/wp-json/jetpack/v4/module/all', headers: dev.auth(sub) });
      expect(refused.status).toBe(403);
      const page = await dev.request({ path: '/admin/', headers: { Cookie: sub.cookie } });
      expect(JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(page.text)![1]!).getModules).toEqual({});
      const boss = await dev.loginAs('administrator');
      const adminPage = await dev.request({ path: '/admin/', headers: { Cookie: boss.cookie } });
      expect(Object.keys(JSON.parse(/var Initial_State = (.*?);<\/script>/.exec(adminPage.text)![1]!).getModules)).toHaveLength(37);
    } finally {
      await dev.close();
    }
  });
});

describe('option values', () => {
  it('refuses a positive integer beyond the safe range', async () => {
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/custom-content-types/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    const res = await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/custom-content-types',
      headers: app.auth(admin),
      body: { jetpack_portfolio_posts_per_page: '99999999999999999999999' },
    });
    expect(res.status).toBe(400);
    expect((res.json as { data: { params: unknown } }).data.params).toEqual({
      jetpack_portfolio_posts_per_page: 'jetpack_portfolio_posts_per_page must be a positive integer.',
    });
  });

  it('lets a null `active` fall back to its default (activate), as get_param skips unset values', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/carousel/active',
      headers: app.auth(admin),
      body: { active: null },
    });
    expect(res.json).toEqual({ code: 'success', message: 'The requested Jetpack module was activated.' });
  });
});
