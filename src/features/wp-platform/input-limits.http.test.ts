/**
 * Users, profiles and application passwords are bounded (issue 38): WordPress's own limits with
 * its codes (user_login 60, user_nicename 50, user_url 100), its column sizes where it relies on
 * them (user_email 100, display_name 250), and Siteward's elsewhere; what is refused is not stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp, type TestResponse } from '../../../test/helpers/test-app.js';

const USERS = '/wp-json/wp/v2/users';
const PASSWORD = 'correct horse battery staple';
/** 250 characters of which some take two UTF-16 units: the limits count characters, as mb_strlen. */
const NAME_250 = '😀'.repeat(50) + 'é'.repeat(200);

let app: TestApp;
let admin: LoggedIn;
let subscriber: LoggedIn;
let counter = 0;

beforeAll(async () => {
  app = await createTestApp({ startJobs: false });
  admin = await app.loginAs('administrator', { login: 'boss' });
  subscriber = await app.loginAs('subscriber', { login: 'sub' });
});
afterAll(() => app.close());

const create = (fields: Record<string, unknown>): Promise<TestResponse> => {
  counter += 1;
  return app.request({
    method: 'POST',
    path: USERS,
    headers: app.auth(admin),
    body: { username: `user${counter}`, email: `user${counter}@example.org`, password: PASSWORD, ...fields },
  });
};
const codeOf = (res: TestResponse) => (res.json as { code?: string }).code;

describe('creating a user', () => {
  it("refuses a login, slug or URL over WordPress's limits with its codes", async () => {
    const login = await create({ username: 'a'.repeat(61) });
    // The login is checked as an argument (WordPress's check_username), its error under `username`.
    expect(login.status).toBe(400);
    expect(login.json).toMatchObject({ data: { params: { username: 'Username may not be longer than 60 characters.' } } });
    expect(JSON.stringify(login.json)).toContain('user_login_too_long');
    const slug = await create({ slug: 's'.repeat(51) });
    expect([slug.status, codeOf(slug)]).toEqual([400, 'user_nicename_too_long']);
    const url = await create({ url: `https://example.org/${'p'.repeat(81)}` });
    expect([url.status, codeOf(url)]).toEqual([400, 'user_url_too_long']);
  });

  it('refuses an e-mail over 100 characters and a name over 250, and a 9 MB one by its size, and stores nothing', async () => {
    const before = (await app.request({ path: `${USERS}?context=edit&per_page=100`, headers: app.auth(admin) })).json as unknown[];
    const email = await create({ email: `${'e'.repeat(512 * 1024)}@example.org` });
    expect(email.status).toBe(400);
    expect(email.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { email: 'email must be at most 100 characters long.' } },
    });
    const name = await create({ name: 'n'.repeat(512 * 1024) });
    expect(name.status).toBe(400);
    expect(name.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { name: 'name must be at most 250 characters long.' } },
    });
    expect(await create({ email: `${'e'.repeat(89)}@example.org` })).toMatchObject({ status: 400 });
    // Over what the route takes (1 MiB): refused by its size before any field is read.
    const huge = await create({ name: 'n'.repeat(9 * 1024 * 1024) });
    expect([huge.status, codeOf(huge)]).toEqual([413, 'rest_body_too_large']);
    const after = (await app.request({ path: `${USERS}?context=edit&per_page=100`, headers: app.auth(admin) })).json as unknown[];
    expect(after.length).toBe(before.length);
  });

  it('accepts every field at its limit, counting characters', async () => {
    const res = await create({
      username: 'l'.repeat(60),
      email: `${'e'.repeat(88)}@example.org`,
      slug: 's'.repeat(50),
      url: `https://example.org/${'p'.repeat(80)}`,
      name: NAME_250,
      first_name: NAME_250,
      description: 'd'.repeat(65_535),
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: NAME_250, slug: 's'.repeat(50) });
  });
});

describe("a subscriber's own profile", () => {
  const update = (fields: Record<string, unknown>) =>
    app.request({ method: 'POST', path: `${USERS}/me`, headers: app.auth(subscriber), body: fields });

  it('refuses profile fields over their limits and keeps the stored profile', async () => {
    const cases: [string, unknown, string][] = [
      ['first_name', 'f'.repeat(251), 'first_name must be at most 250 characters long.'],
      ['last_name', 'l'.repeat(251), 'last_name must be at most 250 characters long.'],
      ['nickname', 'k'.repeat(251), 'nickname must be at most 250 characters long.'],
      ['name', 'n'.repeat(251), 'name must be at most 250 characters long.'],
      ['description', 'd'.repeat(65_536), 'description must be at most 65535 characters long.'],
    ];
    for (const [field, value, message] of cases) {
      const res = await update({ [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.json, field).toMatchObject({ code: 'rest_invalid_param', data: { params: { [field]: message } } });
    }
    expect((await update({ description: 'd'.repeat(9 * 1024 * 1024) })).status).toBe(413);
    const url = await update({ url: `https://example.org/${'p'.repeat(100)}` });
    expect(codeOf(url)).toBe('user_url_too_long');
    const me = (await app.request({ path: `${USERS}/me?context=edit`, headers: app.auth(subscriber) })).json as Record<string, unknown>;
    expect(me).toMatchObject({ first_name: '', last_name: '', nickname: 'sub', name: 'sub', description: '', url: '' });
  });

  it('refuses stored preferences over 64 KB', async () => {
    const res = await update({ meta: { persisted_preferences: { core: { pad: 'x'.repeat(70 * 1024) } } } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { meta: 'meta.persisted_preferences must be at most 65536 bytes as JSON.' } },
    });
    expect((await update({ meta: { persisted_preferences: { core: { pad: 'x'.repeat(1024) } } } })).status).toBe(200);
  });
});

describe('application passwords', () => {
  const mine = `${USERS}/me/application-passwords`;

  it('refuses a name over 100 characters, on creation and renaming', async () => {
    // 9 MB: over what the route takes (16 KiB).
    const huge = await app.request({
      method: 'POST',
      path: mine,
      headers: app.auth(subscriber),
      body: { name: 'n'.repeat(9 * 1024 * 1024) },
    });
    expect([huge.status, codeOf(huge)]).toEqual([413, 'rest_body_too_large']);
    const long = await app.request({ method: 'POST', path: mine, headers: app.auth(subscriber), body: { name: 'n'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { name: 'name must be at most 100 characters long.' } },
    });
    const fits = await app.request({ method: 'POST', path: mine, headers: app.auth(subscriber), body: { name: NAME_250.slice(0, 100) } });
    expect(fits.status).toBe(201);
    const uuid = (fits.json as { uuid: string }).uuid;
    const rename = await app.request({
      method: 'POST',
      path: `${mine}/${uuid}`,
      headers: app.auth(subscriber),
      body: { name: 'r'.repeat(101) },
    });
    expect(rename.status).toBe(400);
    const list = (await app.request({ path: mine, headers: app.auth(subscriber) })).json as { name: string }[];
    expect(list.map((p) => p.name)).toEqual([NAME_250.slice(0, 100)]);
  });

  it('keeps at most 100 per user', async () => {
    const owner = await app.loginAs('subscriber', { login: 'collector' });
    const path = `${USERS}/${owner.userId}/application-passwords`;
    for (let i = 0; i < 100; i += 1) {
      const res = await app.request({ method: 'POST', path, headers: app.auth(admin), body: { name: `app ${i}` } });
      expect(res.status).toBe(201);
    }
    const extra = await app.request({ method: 'POST', path, headers: app.auth(owner), body: { name: 'one more' } });
    expect(extra.status).toBe(400);
    expect(extra.json).toMatchObject({
      code: 'application_password_limit_reached',
      message: 'A user may have at most 100 application passwords: revoke one first.',
    });
    expect(((await app.request({ path, headers: app.auth(owner) })).json as unknown[]).length).toBe(100);
  });
});
