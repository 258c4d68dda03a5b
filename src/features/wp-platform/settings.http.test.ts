import { describe, expect, it } from 'vitest';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';
import type { LoggedIn, TestApp } from '../../../test/helpers/test-app.js';

type Json = Record<string, unknown>;

let t: TestApp;
let admin: LoggedIn;

freshAppWithAdmin(
  (app, user) => {
    t = app;
    admin = user;
  },
  { login: 'root', app: { env: { SITEWARD_SITE_NAME: 'My Site', SITEWARD_TIMEZONE: 'Europe/Paris' } } },
);

const settings = (user: LoggedIn | null, method = 'GET', body?: object) =>
  t.request({ method, path: '/wp-json/wp/v2/settings', headers: user ? t.auth(user) : {}, body });

describe('wp/v2/settings', () => {
  it('reads every setting Siteward keeps, with WordPress keys and types', async () => {
    const res = await settings(admin);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      title: 'My Site',
      description: '',
      url: 'http://example.org',
      email: 'root@example.org',
      timezone: 'Europe/Paris',
      date_format: 'F j, Y',
      time_format: 'g:i a',
      start_of_week: 1,
      language: 'en_US',
    });
  });

  it("answers the first administrator's current address as email until one is set", async () => {
    const setMyEmail = async (email: string) =>
      (await t.request({ method: 'PUT', path: '/wp-json/wp/v2/users/me', headers: t.auth(admin), body: { email } })).status;
    expect(((await settings(admin)).json as Json).email).toBe('root@example.org');
    expect(await setMyEmail('owner@example.org')).toBe(200);
    expect(((await settings(admin)).json as Json).email).toBe('owner@example.org');
    expect(await setMyEmail('root@example.org')).toBe(200);
    expect(((await settings(admin)).json as Json).email).toBe('root@example.org');
  });

  it('needs manage_options: 401 for visitors, 403 for editors', async () => {
    expect((await settings(null)).json).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
    const ed = await t.loginAs('editor');
    expect((await settings(ed, 'POST', { title: 'x' })).json).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
  });

  it('a change shows at once in the index document and the answer is the full object', async () => {
    const res = await settings(admin, 'POST', {
      title: 'Renamed',
      description: 'A tagline',
      start_of_week: 0,
      timezone: 'America/New_York',
    });
    expect(res.json).toMatchObject({
      title: 'Renamed',
      description: 'A tagline',
      start_of_week: 0,
      timezone: 'America/New_York',
      language: 'en_US',
    });
    const index = await t.request({ path: '/wp-json/' });
    expect(index.json).toMatchObject({ name: 'Renamed', description: 'A tagline' });
    expect((await settings(admin)).json).toMatchObject({ title: 'Renamed' });
  });

  it('validates every key first and writes nothing when one is invalid', async () => {
    const res = await settings(admin, 'POST', { title: 'Never', start_of_week: 'monday', email: 'not-an-email', timezone: 'Mars/Olympus' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        params: {
          start_of_week: 'start_of_week is not of type integer.',
          email: 'Invalid email address.',
          timezone: expect.stringContaining('time zone'),
        },
      },
    });
    expect((await settings(admin)).json).toMatchObject({ title: 'My Site' });
  });

  it('null reverts a setting to its default; url can only be saved back unchanged', async () => {
    await settings(admin, 'POST', { date_format: 'Y-m-d' });
    expect((await settings(admin, 'POST', { date_format: null })).json).toMatchObject({ date_format: 'F j, Y' });
    expect((await settings(admin, 'POST', { url: 'http://example.org' })).status).toBe(200);
    const moved = await settings(admin, 'POST', { url: 'https://elsewhere.example' });
    expect(moved.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { url: expect.stringContaining('SITEWARD_HOME_URL') } },
    });
  });

  it('answers OPTIONS with the schema to anyone (core-data reads the labels) and Allow by capability', async () => {
    const res = await t.request({ method: 'OPTIONS', path: '/wp-json/wp/v2/settings' });
    expect(res.status).toBe(200);
    const schema = (res.json as { schema: { properties: Record<string, Json> } }).schema;
    expect(schema.properties.title).toMatchObject({ type: 'string', title: 'Title' });
    expect(schema.properties.start_of_week).toMatchObject({ type: 'integer' });
    expect((await settings(admin)).headers.allow).toBe('GET, POST, PUT, PATCH');
  });
});
