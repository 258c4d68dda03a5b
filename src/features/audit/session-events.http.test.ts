/**
 * Logins that succeed (form and JSON), logouts, sessions ended by a password change, and the
 * first use of an application password are audit events written with the change (the session
 * row, its deletion, the password's first-use mark). On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { hashSessionToken } from '../../auth/sessions.js';
import type { AuditEvent } from '../../wire/audit.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };

/** The session token inside a `siteward_logged_in` cookie (`login|expiration|token|hmac`). */
function tokenOf(cookie: string): string {
  return decodeURIComponent(cookie.split('=')[1]!).split('|')[2]!;
}

describe.each(stores)('audit events of logins and sessions on %s', (backend) => {
  let t: TestApp;
  let admin: LoggedIn;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    t = await createTestApp({
      startJobs: false,
      env: { SITEWARD_TRUST_PROXY: '1', ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}) },
    });
    admin = await t.loginAs('administrator', { login: 'boss' });
  });
  afterAll(async () => {
    await t.close();
    await schema?.drop();
  });

  const events = (action: string): Promise<AuditEvent[]> => t.store.auditLog.list({ action }, { limit: 100, offset: 0, order: 'asc' });

  it('records a successful login by form and by JSON with its session, address, agent and request id', async () => {
    const made = await t.app.users.create({ login: 'editor7', email: 'e7@example.org', role: 'editor', password: 'pw-editor7-secret' });
    if (!made.ok) throw new Error(made.error.message);
    const form = await t.request({
      method: 'POST',
      path: '/login',
      headers: { ...FORM, 'X-Forwarded-For': '198.51.100.4', 'User-Agent': 'form-agent', 'X-Request-Id': 'req-form-1' },
      body: 'log=editor7&pwd=pw-editor7-secret',
    });
    expect(form.status).toBe(302);
    const json = await t.request({
      method: 'POST',
      path: '/login',
      headers: { 'X-Forwarded-For': '198.51.100.5' },
      body: { username: 'editor7', password: 'pw-editor7-secret' },
    });
    expect(json.status).toBe(200);

    const mine = (await events('login.succeeded')).filter((e) => e.actor.login === 'editor7');
    expect(mine.map((e) => [e.changes.via, e.client_ip])).toEqual([
      [{ before: null, after: 'login-form' }, '198.51.100.4'],
      [{ before: null, after: 'login-json' }, '198.51.100.5'],
    ]);
    const token = tokenOf(form.headers['set-cookie']!.split(';')[0]!);
    expect(mine[0]).toMatchObject({
      result: 'ok',
      actor: { kind: 'user', user_id: made.value.user.id, credential: { type: 'session', token_hash: hashSessionToken(token) } },
      user_agent: 'form-agent',
      request_id: 'req-form-1',
      object: { type: 'user', id: String(made.value.user.id), name: 'editor7' },
    });
    // The token itself is never written.
    expect(JSON.stringify(mine)).not.toContain(token);
    // A wrong password opens nothing and records no success (failures collapse: failed-logins.test.ts).
    await t.request({ method: 'POST', path: '/login', body: { username: 'editor7', password: 'wrong' } });
    expect((await events('login.succeeded')).filter((e) => e.actor.login === 'editor7')).toHaveLength(2);
  });

  it('records a logout with the session it ended, and nothing for a second one', async () => {
    const user = await t.loginAs('author', { login: 'leaver' });
    const out = () => t.request({ method: 'POST', path: '/logout', headers: { ...t.auth(user), Origin: 'http://example.org' } });
    expect((await out()).status).toBe(302);
    expect((await out()).status).toBe(302);
    const [logout, ...more] = (await events('session.logged_out')).filter((e) => e.actor.login === 'leaver');
    expect(more).toEqual([]);
    expect(logout).toMatchObject({
      actor: { kind: 'user', user_id: user.userId, credential: { type: 'session', token_hash: hashSessionToken(tokenOf(user.cookie)) } },
      object: { type: 'user', id: String(user.userId) },
    });
  });

  it('records the sessions a password change ends, by who changed it', async () => {
    const victim = await t.loginAs('editor', { login: 'changed1' });
    await t.request({ method: 'POST', path: '/login', body: { username: 'changed1', password: victim.password } });
    const res = await t.request({
      method: 'POST',
      path: `/wp-json/wp/v2/users/${victim.userId}`,
      headers: t.auth(admin),
      body: { password: 'a much newer secret 42' },
    });
    expect(res.status).toBe(200);
    const [ended] = (await events('session.ended')).filter((e) => e.object?.id === String(victim.userId));
    expect(ended).toMatchObject({
      actor: { kind: 'user', login: 'boss', credential: { type: 'session' } },
      object: { type: 'user', name: 'changed1' },
      changes: { sessions: { before: 2, after: 0 } },
    });
  });

  it('records the first use of an application password once, however many requests race for it', async () => {
    const made = await t.request({
      method: 'POST',
      path: '/wp-json/wp/v2/users/me/application-passwords',
      headers: t.auth(admin),
      body: { name: 'deploy bot' },
    });
    const { uuid, password } = made.json as { uuid: string; password: string };
    const basic = { Authorization: `Basic ${Buffer.from(`boss:${password}`).toString('base64')}`, 'User-Agent': 'bot/1' };
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        t.request({
          path: '/wp-json/wp/v2/users/me',
          headers: { ...basic, 'X-Forwarded-For': `192.0.2.${i}`, 'X-Request-Id': `bot-${i}` },
        }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const first = (await events('app_password.first_used')).filter((e) => e.object?.id === uuid);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      actor: { kind: 'user', login: 'boss', credential: { type: 'application_password', uuid, name: 'deploy bot' } },
      user_agent: 'bot/1',
    });
    expect(first[0]!.client_ip).toMatch(/^192\.0\.2\.[1-4]$/);
    expect(first[0]!.request_id).toBe(`bot-${first[0]!.client_ip.split('.')[3]}`);
    expect(JSON.stringify(first)).not.toContain(password);
  });
});
