import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/index.js';
import { featureMigrations } from '../../compose.js';
import { builtInFeatures } from '../index.js';
import { freshAppWithAdmin } from '../../../test/helpers/fresh-app.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

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

const as = (user: LoggedIn | null, method: string, path: string, body?: object) =>
  t.request({ method, path: `/wp-json/wp/v2${path}`, headers: user ? t.auth(user) : {}, body });

describe('wp/v2/users: reading', () => {
  it('answers users/me in view context for the logged-in user and 401 rest_not_logged_in for nobody', async () => {
    const me = await as(admin, 'GET', '/users/me');
    expect(me.status).toBe(200);
    const body = me.json as Json;
    expect(Object.keys(body)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links']);
    expect(body).toMatchObject({ id: admin.userId, name: 'root', slug: 'root', meta: [] });
    const anon = await as(null, 'GET', '/users/me');
    expect(anon.status).toBe(401);
    expect(anon.json).toMatchObject({ code: 'rest_not_logged_in', message: 'You are not currently logged in.' });
  });

  it('shows the edit field set only in edit context', async () => {
    const res = await as(admin, 'GET', '/users/me?context=edit');
    const body = res.json as Json;
    expect(body).toMatchObject({
      username: 'root',
      email: 'root@example.org',
      roles: ['administrator'],
      locale: 'en_US',
      nickname: 'root',
    });
    expect(body.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect((body.capabilities as Json).list_users).toBe(true);
    expect(body.extra_capabilities).toEqual({ administrator: true });
    const embed = await as(admin, 'GET', '/users/me?context=embed');
    expect(Object.keys(embed.json as Json)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', '_links']);
  });

  it('answers users/me with the change right after a write, in every context, though an unchanged item is built once', async () => {
    const before = (await as(admin, 'GET', '/users/me?context=edit')).json as Json;
    expect((await as(admin, 'GET', '/users/me')).json).toMatchObject({ description: before.description });
    expect((await as(admin, 'PUT', '/users/me', { description: 'Changed between two reads.' })).status).toBe(200);
    expect((await as(admin, 'GET', '/users/me')).json).toMatchObject({ description: 'Changed between two reads.' });
    expect((await as(admin, 'GET', '/users/me?context=edit')).json).toMatchObject({
      description: 'Changed between two reads.',
      username: 'root',
    });
    expect((await as(admin, 'GET', `/users/${admin.userId}?_fields=id,description`)).json).toEqual({
      id: admin.userId,
      description: 'Changed between two reads.',
    });
    expect((await as(admin, 'PUT', '/users/me', { description: before.description })).status).toBe(200);
  });

  it('answers 404 rest_user_invalid_id for an unknown id before any permission answer', async () => {
    for (const user of [admin, null]) {
      const res = await as(user, 'GET', '/users/999');
      expect(res.status).toBe(404);
      expect((res.json as Json).code).toBe('rest_user_invalid_id');
    }
  });

  it('refuses other users to a subscriber (rest_user_cannot_view) and edit context of others (rest_forbidden_context)', async () => {
    const sub = await t.loginAs('subscriber', { login: 'sub' });
    const other = await as(sub, 'GET', `/users/${admin.userId}`);
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ code: 'rest_user_cannot_view', message: 'Sorry, you are not allowed to list users.' });
    const ctx = await as(sub, 'GET', `/users/${admin.userId}?context=edit`);
    expect(ctx.json).toMatchObject({ code: 'rest_forbidden_context', data: { status: 403 } });
    expect((await as(sub, 'GET', `/users/${sub.userId}?context=edit`)).status).toBe(200);
  });

  it('lists nobody to visitors and subscribers (no published posts) and refuses their role filter, edit context and email order', async () => {
    const sub = await t.loginAs('subscriber', { login: 'sub' });
    const anon = await as(null, 'GET', '/users');
    expect(anon.status).toBe(200);
    expect(anon.json).toEqual([]);
    expect(anon.headers['x-wp-total']).toBe('0');
    expect(anon.headers['x-wp-totalpages']).toBe('0');
    expect((await as(sub, 'GET', '/users?roles=administrator')).json).toMatchObject({
      code: 'rest_user_cannot_view',
      message: 'Sorry, you are not allowed to filter users by role.',
      data: { status: 403 },
    });
    expect((await as(null, 'GET', '/users?context=edit')).json).toMatchObject({ code: 'rest_forbidden_context', data: { status: 401 } });
    expect((await as(sub, 'GET', '/users?orderby=email')).json).toMatchObject({ code: 'rest_forbidden_orderby' });
  });

  it('pages the list with X-WP-Total, X-WP-TotalPages and Link prev/next', async () => {
    for (let i = 0; i < 4; i++)
      await t.app.users.create({ login: `user${i}`, email: `user${i}@example.org`, password: 'long-enough-pw', role: 'author' });
    const first = await as(admin, 'GET', '/users?per_page=2&orderby=id');
    expect(first.headers['x-wp-total']).toBe('5');
    expect(first.headers['x-wp-totalpages']).toBe('3');
    expect(first.headers.link).toBe('<http://example.org/wp-json/wp/v2/users?per_page=2&orderby=id&page=2>; rel="next"');
    expect((first.json as Json[]).map((u) => u.name)).toEqual(['root', 'user0']);
    const second = await as(admin, 'GET', '/users?per_page=2&orderby=id&page=2');
    expect(second.headers.link).toContain('rel="prev"');
    expect(second.headers.link).toContain('rel="next"');
    const beyond = await as(admin, 'GET', '/users?per_page=2&page=9');
    expect(beyond.status).toBe(400);
    expect((beyond.json as Json).code).toBe('rest_user_invalid_page_number');
    const bad = await as(admin, 'GET', '/users?per_page=101');
    expect(bad.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
    });
  });

  it('filters by search, roles, slug, include and exclude, and orders both ways', async () => {
    await t.app.users.create({
      login: 'ada',
      email: 'ada@math.example',
      password: 'long-enough-pw',
      role: 'editor',
      displayName: 'Ada Lovelace',
    });
    await t.app.users.create({ login: 'bob', email: 'bob@example.org', password: 'long-enough-pw', role: 'author', displayName: 'Bob' });
    const names = async (q: string) => ((await as(admin, 'GET', `/users?${q}`)).json as Json[]).map((u) => u.name);
    expect(await names('search=love')).toEqual(['Ada Lovelace']);
    expect(await names('search=math.example')).toEqual(['Ada Lovelace']);
    expect(await names('search=ada@math.example')).toEqual(['Ada Lovelace']);
    expect(await names('roles=editor,author')).toEqual(['Ada Lovelace', 'Bob']);
    expect(await names('slug=bob')).toEqual(['Bob']);
    expect(await names(`exclude=${admin.userId}&order=desc`)).toEqual(['Bob', 'Ada Lovelace']);
    expect(await names(`include=${admin.userId}`)).toEqual(['root']);
    // who=authors: users who can write posts, to whoever can.
    expect(await names('who=authors&orderby=id')).toEqual(['root', 'Ada Lovelace', 'Bob']);
  });
});

describe('wp/v2/users: writing', () => {
  it('creates a user: 201, Location, edit context; the new user can log in with the password', async () => {
    const res = await as(admin, 'POST', '/users', {
      username: 'newbie',
      email: 'newbie@example.org',
      password: 'a-good-password',
      name: 'New Bie',
      roles: ['editor'],
      first_name: 'New',
    });
    expect(res.status).toBe(201);
    const body = res.json as Json;
    expect(res.headers.location).toBe(`http://example.org/wp-json/wp/v2/users/${String(body.id)}`);
    expect(body).toMatchObject({ username: 'newbie', name: 'New Bie', roles: ['editor'], first_name: 'New' });
    expect(body).not.toHaveProperty('password');
    const login = await t.request({ method: 'POST', path: '/login', body: { username: 'newbie', password: 'a-good-password' } });
    expect(login.status).toBe(200);
  });

  it('refuses a duplicate login (existing_user_login), a missing field, a weak password and an unknown role', async () => {
    const dup = await as(admin, 'POST', '/users', { username: 'root', email: 'x@example.org', password: 'a-good-password' });
    expect(dup.json).toMatchObject({ code: 'existing_user_login', message: 'Sorry, that username already exists!', data: { status: 400 } });
    const missing = await as(admin, 'POST', '/users', { username: 'x' });
    expect(missing.json).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['email', 'password'] } });
    const weak = await as(admin, 'POST', '/users', { username: 'weak', email: 'weak@example.org', password: 'short' });
    expect(weak.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { password: 'The password must be at least 8 characters long.' } },
    });
    const guessable = await as(admin, 'POST', '/users', { username: 'weak', email: 'weak@example.org', password: 'password123' });
    expect(guessable.status).toBe(400);
    expect(guessable.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { password: expect.stringContaining('too easy to guess') } },
    });
    expect((await as(admin, 'GET', '/users?search=weak&context=edit')).json).toEqual([]);
    const empty = await as(admin, 'POST', '/users', { username: 'weak', email: 'weak@example.org', password: '' });
    expect(empty.json).toMatchObject({ code: 'rest_invalid_param', data: { params: { password: 'Passwords cannot be empty.' } } });
    const role = await as(admin, 'POST', '/users', {
      username: 'r',
      email: 'r@example.org',
      password: 'a-good-password',
      roles: ['pirate'],
    });
    expect(role.json).toMatchObject({ code: 'rest_user_invalid_role', message: 'The role pirate does not exist.', data: { status: 400 } });
    const sub = await t.loginAs('subscriber');
    const forbidden = await as(sub, 'POST', '/users', { username: 'y', email: 'y@example.org', password: 'a-good-password' });
    expect(forbidden.json).toMatchObject({ code: 'rest_cannot_create_user', data: { status: 403 } });
  });

  it("updates a user, refuses a changed username and another user's e-mail, and lets users edit only themselves", async () => {
    const ed = await t.loginAs('editor', { login: 'ed' });
    const res = await as(admin, 'PUT', `/users/${ed.userId}`, { name: 'Ed Itor', description: 'Edits.', url: 'https://ed.example' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Ed Itor', description: 'Edits.', url: 'https://ed.example', username: 'ed' });
    expect((await as(admin, 'PUT', `/users/${ed.userId}`, { username: 'other' })).json).toMatchObject({
      code: 'rest_user_invalid_argument',
      message: 'Username is not editable.',
    });
    expect((await as(admin, 'PUT', `/users/${ed.userId}`, { email: 'root@example.org' })).json).toMatchObject({
      code: 'rest_user_invalid_email',
    });
    expect((await as(ed, 'POST', '/users/me', { nickname: 'eddie' })).json).toMatchObject({ nickname: 'eddie' });
    expect((await as(ed, 'PUT', `/users/${admin.userId}`, { name: 'hacked' })).json).toMatchObject({
      code: 'rest_cannot_edit',
      data: { status: 403 },
    });
    expect((await as(ed, 'PUT', '/users/me', { roles: ['administrator'] })).json).toMatchObject({ code: 'rest_cannot_edit_roles' });
  });

  it('a password change through the route ends every session of the user, as set-password does', async () => {
    const ed = await t.loginAs('editor', { login: 'ed' });
    await t.request({ method: 'POST', path: '/login', body: { username: 'ed', password: ed.password } });
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(2);
    const weak = await as(admin, 'PUT', `/users/${ed.userId}`, { password: '12345678' });
    expect(weak.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { password: expect.stringContaining('too easy to guess') } },
    });
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(2);
    const changed = await as(admin, 'PUT', `/users/${ed.userId}`, { password: 'a-brand-new-password' });
    expect(changed.status).toBe(200);
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(0);
    // The old login no longer counts: its nonce is refused as a visitor's.
    expect((await as(ed, 'GET', '/users/me')).json).toMatchObject({ code: 'rest_cookie_invalid_nonce' });
    expect((await t.request({ method: 'POST', path: '/login', body: { username: 'ed', password: 'a-brand-new-password' } })).status).toBe(
      200,
    );
  });

  it("your own password change ends your other sessions and keeps this one, its cookie signed again (WordPress's wp_set_auth_cookie)", async () => {
    const ed = await t.loginAs('editor', { login: 'ed' });
    const other = await t.request({ method: 'POST', path: '/login', body: { username: 'ed', password: ed.password } });
    const otherCookie = other.headers['set-cookie']!.split(';')[0]!;
    const otherNonce = (other.json as { nonce: string }).nonce;
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(2);
    const changed = await as(ed, 'POST', '/users/me', { password: 'a-brand-new-password' });
    expect(changed.status).toBe(200);
    const setCookie = changed.headers['set-cookie'];
    expect(setCookie).toMatch(/^siteward_logged_in=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const renewed = { ...ed, cookie: setCookie!.split(';')[0]! };
    expect(renewed.cookie).not.toBe(ed.cookie);
    // One session left: this one, under its new cookie, with the same nonce.
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(1);
    expect((await as(renewed, 'GET', '/users/me')).json).toMatchObject({ id: ed.userId });
    // The old cookie is signed with the old password; the other session is gone.
    expect((await as(ed, 'GET', '/users/me')).json).toMatchObject({ code: 'rest_cookie_invalid_nonce' });
    expect((await as({ ...ed, cookie: otherCookie, nonce: otherNonce }, 'GET', '/users/me')).json).toMatchObject({
      code: 'rest_cookie_invalid_nonce',
    });
  });

  it("a role change by an administrator ends all of that user's sessions; an unchanged role does not", async () => {
    const ed = await t.loginAs('editor', { login: 'ed' });
    await as(admin, 'PUT', `/users/${ed.userId}`, { id: ed.userId, roles: ['editor'] });
    expect((await as(ed, 'GET', '/users/me')).status).toBe(200);
    const res = await as(admin, 'PUT', `/users/${ed.userId}`, { id: ed.userId, roles: ['author'] });
    expect(res.json).toMatchObject({ roles: ['author'] });
    expect(await t.store.sessions.listForUser(ed.userId)).toHaveLength(0);
    expect((await as(ed, 'GET', '/users/me')).json).toMatchObject({ code: 'rest_cookie_invalid_nonce' });
  });

  it('refuses demoting yourself (WordPress) and deleting the last administrator (409, says why)', async () => {
    const demote = await as(admin, 'PUT', '/users/me', { roles: ['editor'] });
    expect(demote.json).toMatchObject({
      code: 'rest_user_invalid_role',
      message: 'Sorry, you are not allowed to give users that role.',
      data: { status: 403 },
    });
    const last = await as(admin, 'DELETE', '/users/me?force=true&reassign=false');
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ code: 'rest_cannot_delete' });
    expect((last.json as Json).message).toContain('last administrator');
    expect((await as(admin, 'GET', '/users/me')).status).toBe(200);
  });

  it('deletes with force=true and reassign, answering the previous record; refuses without force or reassign', async () => {
    const ed = await t.loginAs('editor', { login: 'ed' });
    const noReassign = await as(admin, 'DELETE', `/users/${ed.userId}?force=true`);
    expect(noReassign.json).toMatchObject({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): reassign' });
    const noForce = await as(admin, 'DELETE', `/users/${ed.userId}?reassign=false`);
    expect(noForce.status).toBe(501);
    expect((noForce.json as Json).code).toBe('rest_trash_not_supported');
    const self = await as(admin, 'DELETE', `/users/${ed.userId}?force=true&reassign=${ed.userId}`);
    expect((self.json as Json).code).toBe('rest_user_invalid_reassign');
    const badReassign = await as(admin, 'DELETE', `/users/${ed.userId}?force=true&reassign=abc`);
    expect(badReassign.json).toMatchObject({ code: 'rest_invalid_param', data: { params: { reassign: 'Invalid user parameter(s).' } } });
    const sub = await t.loginAs('subscriber');
    expect((await as(sub, 'DELETE', `/users/${ed.userId}?force=true&reassign=false`)).json).toMatchObject({
      code: 'rest_user_cannot_delete',
    });
    const done = await as(admin, 'DELETE', `/users/${ed.userId}?force=true&reassign=${admin.userId}`);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ deleted: true, previous: { id: ed.userId, username: 'ed' } });
    expect((await as(admin, 'GET', `/users/${ed.userId}`)).status).toBe(404);
  });

  it('keeps meta.persisted_preferences as the block editor saves and reads it, shown in edit context only', async () => {
    expect((await as(admin, 'GET', '/users/me?context=edit')).json).toMatchObject({ meta: { persisted_preferences: {} } });
    const prefs = { core: { fixedToolbar: true }, _modified: '2026-11-27T07:40:00.000Z' };
    // @wordpress/preferences-persistence: PUT sent as POST with the override header.
    const saved = await t.request({
      method: 'POST',
      path: '/wp-json/wp/v2/users/me?_locale=user',
      headers: { ...t.auth(admin), 'X-HTTP-Method-Override': 'PUT' },
      body: { meta: { persisted_preferences: prefs, not_registered: 1 } },
    });
    expect(saved.status).toBe(200);
    expect((saved.json as Json).meta).toEqual({ persisted_preferences: prefs });
    expect((await as(admin, 'GET', '/users/me?context=edit')).json).toMatchObject({ meta: { persisted_preferences: prefs } });
    expect((await as(admin, 'GET', '/users/me')).json).toMatchObject({ meta: [] });
    const bad = await as(admin, 'PUT', '/users/me', { meta: { persisted_preferences: 'dark' } });
    expect(bad.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { meta: 'meta.persisted_preferences is not of type object.' } },
    });
    const schema = ((await as(admin, 'OPTIONS', '/users/me')).json as { schema: { properties: { meta: { properties: Json } } } }).schema;
    expect(schema.properties.meta.properties.persisted_preferences).toMatchObject({
      type: 'object',
      context: ['edit'],
      additionalProperties: true,
    });
  });

  it('answers OPTIONS with the user schema and Allow with what the caller may do', async () => {
    const options = await as(admin, 'OPTIONS', '/users/me');
    expect(options.status).toBe(200);
    expect((options.json as { schema: { title: string } }).schema.title).toBe('user');
    const allow = await as(admin, 'GET', `/users/${admin.userId}`);
    expect(allow.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
    const sub = await t.loginAs('subscriber');
    expect((await as(sub, 'GET', `/users/${sub.userId}`)).headers.allow).toBe('GET, POST, PUT, PATCH');
  });
});

describe('wp/v2/users/me: the cached profile', () => {
  let dir: string;
  let app: TestApp;
  let other: Store;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-users-me-'));
    app = await createTestApp({ dataDir: dir });
    // A second store on the same file stands for another process (a worker, the CLI).
    other = await openStore({ dataDir: dir, migrations: featureMigrations(builtInFeatures) });
  });
  afterAll(async () => {
    await other.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows a change of the record, meta or roles written by another store at the next request', async () => {
    const ed = await app.loginAs('author', { login: 'ed' });
    const me = async (context = 'edit') =>
      (await app.request({ method: 'GET', path: `/wp-json/wp/v2/users/me?context=${context}`, headers: app.auth(ed) })).json as Json;
    expect(await me()).toMatchObject({ name: 'ed', email: 'ed@example.org', description: '', roles: ['author'] });
    expect(await other.users.updateProfile(ed.userId, { displayName: 'Eddie', email: 'eddie@example.org' })).toBe(true);
    expect(await me()).toMatchObject({ name: 'Eddie', email: 'eddie@example.org' });
    await other.userMeta.set(ed.userId, 'description', 'Writes things.');
    expect(await me('view')).toMatchObject({ description: 'Writes things.' });
    await other.userMeta.delete(ed.userId, 'description');
    expect(await me('view')).toMatchObject({ description: '' });
    await other.users.setRoles(ed.userId, ['editor']);
    expect(await me()).toMatchObject({ roles: ['editor'], extra_capabilities: { editor: true } });
  });

  it('lists a user added, changed, re-roled or deleted by another store at the next request', async () => {
    const root = await app.loginAs('administrator', { login: 'lister' });
    const list = async (query = '') =>
      (await app.request({ method: 'GET', path: `/wp-json/wp/v2/users?context=edit&per_page=100${query}`, headers: app.auth(root) }))
        .json as Json[];
    const named = async (login: string) => (await list()).find((u) => u.username === login);
    expect(await named('cleo')).toBeUndefined();
    const cleo = await other.users.create({ login: 'cleo', email: 'cleo@example.org', displayName: 'Cleo', passHash: 'x' });
    await other.users.setRoles(cleo.id, ['subscriber']);
    expect(await named('cleo')).toMatchObject({ id: cleo.id, name: 'Cleo', roles: ['subscriber'] });
    await other.userMeta.set(cleo.id, 'nicename', 'cleo-p');
    await other.users.updateProfile(cleo.id, { displayName: 'Cleopatra' });
    expect(await named('cleo')).toMatchObject({ name: 'Cleopatra', slug: 'cleo-p' });
    await other.users.setRoles(cleo.id, ['editor']);
    expect((await list('&roles=editor')).map((u) => u.username)).toContain('cleo');
    expect(await other.users.delete(cleo.id)).toBe(true);
    expect(await named('cleo')).toBeUndefined();
  });

  it('answers each user their own profile, and a deleted user no more', async () => {
    const ann = await app.loginAs('subscriber', { login: 'ann' });
    const bob = await app.loginAs('subscriber', { login: 'bob' });
    const get = async (user: LoggedIn) => app.request({ method: 'GET', path: '/wp-json/wp/v2/users/me', headers: app.auth(user) });
    expect(((await get(ann)).json as Json).name).toBe('ann');
    expect(((await get(bob)).json as Json).name).toBe('bob');
    expect(((await get(ann)).json as Json).name).toBe('ann');
    expect(await other.users.delete(bob.userId)).toBe(true);
    expect((await get(bob)).status).not.toBe(200);
  });
});

/**
 * Answers to unusual requests that depend on reading the merged parameters (WordPress's order:
 * JSON body, form body, query, then the URL), pinned before the create and update routes moved onto
 * `defineRoute` (issue 40 item 1) and kept by it (the `{id}` parameter is read `wordpressOrder`, the
 * roles check reads `sent`): a body or query `id` wins over the URL's, `id` on a create refuses it,
 * and a roles change names every parameter it carries.
 */
const answer = (res: { status: number; json: unknown }) => [res.status, (res.json as { code?: unknown }).code ?? 'ok'];

describe('wp/v2/users with parameters from more than one place', () => {
  it('refuses a create that carries an id, from the body or the query', async () => {
    const fields = { username: 'nid', email: 'nid@example.org', password: 'a-good-password' };
    expect(answer(await as(admin, 'POST', '/users', { ...fields, id: 5 }))).toEqual([400, 'rest_user_exists']);
    expect(answer(await as(admin, 'POST', '/users?id=5', fields))).toEqual([400, 'rest_user_exists']);
    expect((await as(admin, 'POST', '/users', { ...fields, id: 5 })).json).toMatchObject({ message: 'Cannot create existing user.' });
  });

  it('reads the user a query id names over the URL one, and validates it as the id argument', async () => {
    const sub = await t.loginAs('subscriber', { login: 'qsub' });
    const res = await as(admin, 'GET', `/users/${admin.userId}?id=${sub.userId}&context=edit`);
    expect(res.status).toBe(200);
    expect((res.json as { username: string }).username).toBe('qsub');
    expect(answer(await as(admin, 'GET', `/users/${admin.userId}?id=abc`))).toEqual([400, 'rest_invalid_param']);
    expect(answer(await as(admin, 'GET', `/users/${admin.userId}?id=999999`))).toEqual([404, 'rest_user_invalid_id']);
  });

  it('updates the user a body id names over the URL one', async () => {
    const sub = await t.loginAs('subscriber', { login: 'bsub' });
    const res = await as(admin, 'PUT', `/users/${admin.userId}`, { id: sub.userId, description: 'Named by the body.' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: sub.userId, description: 'Named by the body.' });
    expect((await as(admin, 'GET', '/users/me?context=edit')).json).not.toMatchObject({ description: 'Named by the body.' });
  });

  // WordPress's users/me routes (get_current_item, update_current_item, delete_current_item) set
  // `id` to the current user: a sent one is ignored (the lead's decision, issue 40 item 1).
  it('on users/me, ignores a sent id: the target is always the current user', async () => {
    const sub = await t.loginAs('subscriber', { login: 'msub' });
    const missing = await as(sub, 'PUT', '/users/me', { id: 999999, description: 'Mine.' });
    expect(missing.status).toBe(200);
    expect(missing.json).toMatchObject({ id: sub.userId, username: 'msub', description: 'Mine.' });
    const other = await as(sub, 'PUT', '/users/me', { id: admin.userId, description: 'Still mine.' });
    expect(other.status).toBe(200);
    expect(other.json).toMatchObject({ id: sub.userId, description: 'Still mine.' });
    expect((await as(admin, 'GET', '/users/me?context=edit')).json).not.toMatchObject({ description: 'Still mine.' });
    const read = await as(admin, 'GET', `/users/me?id=${sub.userId}&context=edit`);
    expect([read.status, (read.json as { username?: string }).username]).toEqual([200, 'root']);
    expect(answer(await as(admin, 'GET', '/users/me?id=abc'))).toEqual([200, 'ok']);
    // A delete of users/me with another id deletes the caller, not the one named.
    const gone = await t.loginAs('administrator', { login: 'madm' });
    const deleted = await as(gone, 'DELETE', `/users/me?force=true&reassign=false&id=${sub.userId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ deleted: true, previous: { id: gone.userId } });
    expect((await as(admin, 'GET', `/users/${sub.userId}`)).status).toBe(200);
  });

  it('lets a roles change carry the id and _locale, and judges any other parameter with it as an edit', async () => {
    const ed = await t.loginAs('editor', { login: 'red' });
    const roles = await as(admin, 'PUT', `/users/${ed.userId}?_locale=user`, { id: ed.userId, roles: ['author'] });
    expect(roles.status).toBe(200);
    expect(roles.json).toMatchObject({ roles: ['author'] });
    // A fresh editor: after the role change above, the first one's cookie and nonce no longer pass.
    const other = await t.loginAs('editor', { login: 'red2' });
    const own = await as(other, 'PUT', '/users/me?_locale=user', { roles: ['editor'], description: 'With a role.' });
    expect(answer(own)).toEqual([403, 'rest_cannot_edit_roles']);
  });
});
