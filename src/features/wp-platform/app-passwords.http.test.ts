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
  { login: 'root' },
);

const base = '/wp-json/wp/v2/users';
const basic = (login: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

describe('wp/v2/users/{id|me}/application-passwords', () => {
  it('creates one (201, the password shown once in groups of four) that then authenticates and is listed without it', async () => {
    const created = await t.request({
      method: 'POST',
      path: `${base}/me/application-passwords`,
      headers: t.auth(admin),
      body: { name: 'deploy script', app_id: '0b6a4c4e-2f4d-4f39-9c1f-3e1f3c2a9b10' },
    });
    expect(created.status).toBe(201);
    const body = created.json as Json;
    expect(body).toMatchObject({ name: 'deploy script', app_id: '0b6a4c4e-2f4d-4f39-9c1f-3e1f3c2a9b10', last_used: null, last_ip: null });
    expect(body.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(created.headers.location).toBe(
      `http://example.org/wp-json/wp/v2/users/${admin.userId}/application-passwords/${String(body.uuid)}`,
    );

    const me = await t.request({ path: `${base}/me`, headers: basic('root', String(body.password)) });
    expect(me.status).toBe(200);
    const list = await t.request({ path: `${base}/${admin.userId}/application-passwords`, headers: t.auth(admin) });
    const [entry] = list.json as Json[];
    expect(entry).not.toHaveProperty('password');
    expect(entry).toMatchObject({ uuid: body.uuid, last_ip: '127.0.0.1' });
    expect(entry!.last_used).not.toBeNull();
  });

  it('introspects the password of the request, and only for the current user', async () => {
    const created = (
      await t.request({ method: 'POST', path: `${base}/me/application-passwords`, headers: t.auth(admin), body: { name: 'cli' } })
    ).json as Json;
    const auth = basic('root', String(created.password));
    const res = await t.request({ path: `${base}/me/application-passwords/introspect`, headers: auth });
    expect(res.json).toMatchObject({ uuid: created.uuid, name: 'cli' });
    const byCookie = await t.request({ path: `${base}/me/application-passwords/introspect`, headers: t.auth(admin) });
    expect(byCookie.json).toMatchObject({ code: 'rest_no_authenticated_app_password', data: { status: 404 } });
    const ed = await t.loginAs('editor');
    const other = await t.request({ path: `${base}/${ed.userId}/application-passwords/introspect`, headers: auth });
    expect(other.json).toMatchObject({ code: 'rest_cannot_introspect_app_password_for_non_authenticated_user' });
  });

  it('reads, renames and deletes one, then deletes all with a count; a revoked password stops working', async () => {
    const make = async (name: string) =>
      (await t.request({ method: 'POST', path: `${base}/me/application-passwords`, headers: t.auth(admin), body: { name } })).json as Json;
    const a = await make('a');
    await make('b');
    const item = `${base}/me/application-passwords/${String(a.uuid)}`;
    expect((await t.request({ path: item, headers: t.auth(admin) })).json).toMatchObject({ name: 'a' });
    expect((await t.request({ method: 'PUT', path: item, headers: t.auth(admin), body: { name: 'renamed' } })).json).toMatchObject({
      name: 'renamed',
    });
    const deleted = await t.request({ method: 'DELETE', path: item, headers: t.auth(admin) });
    expect(deleted.json).toMatchObject({ deleted: true, previous: { uuid: a.uuid, name: 'renamed' } });
    expect((await t.request({ path: `${base}/me`, headers: basic('root', String(a.password)) })).status).toBe(401);
    expect((await t.request({ path: item, headers: t.auth(admin) })).json).toMatchObject({
      code: 'rest_application_password_not_found',
      data: { status: 404 },
    });
    const all = await t.request({ method: 'DELETE', path: `${base}/me/application-passwords`, headers: t.auth(admin) });
    expect(all.json).toEqual({ deleted: true, count: 1 });
  });

  it("applies WordPress's rules: logged-out me 401, unknown user 404, others' passwords need edit_users, a name is required", async () => {
    expect((await t.request({ path: `${base}/me/application-passwords` })).json).toMatchObject({
      code: 'rest_not_logged_in',
      data: { status: 401 },
    });
    expect((await t.request({ path: `${base}/999/application-passwords`, headers: t.auth(admin) })).json).toMatchObject({
      code: 'rest_user_invalid_id',
    });
    const ed = await t.loginAs('editor');
    expect((await t.request({ path: `${base}/${admin.userId}/application-passwords`, headers: t.auth(ed) })).json).toMatchObject({
      code: 'rest_cannot_list_application_passwords',
      data: { status: 403 },
    });
    expect(
      (
        await t.request({
          method: 'POST',
          path: `${base}/${ed.userId}/application-passwords`,
          headers: t.auth(admin),
          body: { name: 'for ed' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.request({ method: 'POST', path: `${base}/me/application-passwords`, headers: t.auth(admin), body: {} })).json,
    ).toMatchObject({ code: 'rest_missing_callback_param' });
    expect(
      (await t.request({ method: 'POST', path: `${base}/me/application-passwords`, headers: t.auth(admin), body: { name: '  ' } })).json,
    ).toMatchObject({ code: 'application_password_empty_name' });
    expect(
      (
        await t.request({
          method: 'POST',
          path: `${base}/me/application-passwords`,
          headers: t.auth(admin),
          body: { name: 'x', app_id: 'nope' },
        })
      ).json,
    ).toMatchObject({ code: 'rest_invalid_param', data: { params: { app_id: 'nope is not a valid UUID.' } } });
  });
});
