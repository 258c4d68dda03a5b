import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

let t: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('administrator', { login: 'ada' });
});
afterAll(async () => t.close());

const get = (path: string) => t.request({ path: `/wp-json${path}`, headers: t.auth(admin) });

describe('_fields on every route', () => {
  it('filters the index as core-data asks for it (no _links)', async () => {
    const res = await get('/?_fields=description,name,url&_locale=user');
    expect(res.json).toEqual({ name: expect.any(String), description: expect.any(String), url: 'http://example.org' });
  });

  it('filters an item, nested members included, and each item of a list', async () => {
    expect((await get('/wp/v2/users/me?_fields=id,avatar_urls.48')).json).toEqual({
      id: admin.userId,
      avatar_urls: { 48: expect.stringContaining('s=48') },
    });
    expect((await get('/wp/v2/users?context=edit&_fields=id,username')).json).toEqual([{ id: admin.userId, username: 'ada' }]);
    expect((await get('/jetpack/v4/module/protect?_fields=sort,name')).json).toEqual({ name: 'Protect', sort: 1 });
  });

  it('leaves errors whole, and filters each item of a batch by its own _fields', async () => {
    expect((await get('/wp/v2/users/999?_fields=id')).json).toMatchObject({ code: 'rest_user_invalid_id', message: 'Invalid user ID.' });
    const batch = await t.request({
      method: 'POST',
      path: '/wp-json/batch/v1',
      headers: t.auth(admin),
      body: {
        requests: [{ method: 'PUT', path: `/wp/v2/users/${admin.userId}?_fields=id,description`, body: { description: 'Counts.' } }],
      },
    });
    expect(batch.status).toBe(207);
    expect((batch.json as { responses: { body: unknown }[] }).responses[0]!.body).toEqual({ id: admin.userId, description: 'Counts.' });
  });
});
