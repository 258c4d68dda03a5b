import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

/** The store's conditional updates (a time step, a recovery code, a pending login used once) on both engines. */
const stores = process.env.SITEWARD_TEST_PG ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The app's clock, moved by the tests: each TOTP code belongs to a 30-second step. */
let now = Date.UTC(2026, 10, 27, 8, 0, 0);
const step = () => (now += 30_000);
const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(now / 1000) });

async function enrol(app: TestApp, user: LoggedIn): Promise<{ secret: string; recovery: string[] }> {
  const started = await app.request({ method: 'POST', path: '/wp-json/siteward/v1/two-factor/enrol', headers: app.auth(user) });
  expect(started.status).toBe(200);
  const { secret, qr, uri } = started.json as { secret: string; qr: string; uri: string };
  expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(uri).toContain(`secret=${secret}`);
  const confirmed = await app.request({
    method: 'POST',
    path: '/wp-json/siteward/v1/two-factor/confirm',
    headers: app.auth(user),
    body: { code: await codeFor(secret) },
  });
  expect(confirmed.status).toBe(200);
  const recovery = (confirmed.json as { recovery_codes: string[] }).recovery_codes;
  return { secret, recovery };
}

/** The form's first step: the password, answered by the code page and its pending-login token. */
async function passwordStep(app: TestApp, login: string, password: string): Promise<string> {
  const res = await app.request({
    method: 'POST',
    path: '/login',
    headers: FORM,
    body: form({ log: login, pwd: password, redirect_to: '/admin/' }),
  });
  expect(res.status).toBe(200);
  expect(res.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');
  return /name="two_factor_token" value="([^"]+)"/.exec(res.text)![1]!;
}

const codeStep = (app: TestApp, token: string, code: string) =>
  app.request({ method: 'POST', path: '/login', headers: FORM, body: form({ two_factor_token: token, two_factor_code: code }) });

describe.each(stores)('two-factor authentication on %s', (backend) => {
  let app: TestApp;
  let schema: PgSchema | null = null;
  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    app = await createTestApp({
      clock: () => now,
      env: {
        SITEWARD_PROTECT_MAX_FAILURES: '50',
        SITEWARD_PROTECT_CHALLENGE_AFTER: '0',
        ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await schema?.drop();
  });

  it('enrols with a first code and then asks for a code after the password, opening no session before it', async () => {
    const user = await app.loginAs('editor', { login: 'ed' });
    const status = await app.request({ path: '/wp-json/siteward/v1/two-factor', headers: app.auth(user) });
    expect(status.json).toMatchObject({ enabled: false, pending: false, required: false });
    expect((status.json as { application_passwords: string }).application_passwords).toMatch(/Application passwords are not asked/);
    const { secret, recovery } = await enrol(app, user);
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await app.request({ path: '/wp-json/siteward/v1/two-factor', headers: app.auth(user) })).json).toMatchObject({
      enabled: true,
      recovery_codes_left: 10,
    });
    // The secret is sealed at rest, never stored as the app's base32.
    const rows = await app.store.tables.run<{ two_factor_users: { secret: string } }, { secret: string }[]>((db) =>
      db.selectFrom('two_factor_users').select('secret').execute(),
    );
    expect(rows[0]!.secret).toMatch(/^v1\./);
    expect(rows[0]!.secret).not.toContain(secret);

    step();
    const token = await passwordStep(app, 'ed', user.password);
    const wrong = await codeStep(app, token, '000000');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That code is not valid');
    const ok = await codeStep(app, token, await codeFor(secret));
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/admin/');
    expect(ok.headers['set-cookie']).toMatch(/^siteward_logged_in=/);
    // The pending-login token works once; the same code (same time step) never twice.
    step();
    const again = await codeStep(app, token, await codeFor(secret));
    expect(again.status).toBe(401);
    const token2 = await passwordStep(app, 'ed', user.password);
    const code = await codeFor(secret);
    expect((await codeStep(app, token2, code)).status).toBe(302);
    const token3 = await passwordStep(app, 'ed', user.password);
    expect((await codeStep(app, token3, code)).status).toBe(401);
  });

  it('offers a recovery code as its own step with a text field, and Protect names each failure as what it is', async () => {
    const user = await app.loginAs('author', { login: 'rhea' });
    const { recovery } = await enrol(app, user);
    step();
    const token = await passwordStep(app, 'rhea', user.password);
    const page = (await codeStep(app, token, '123456')).text;
    // The app's code: a number pad on phones; the recovery code is reached by its own button.
    expect(page).toMatch(/<input type="text" name="two_factor_code" id="two_factor_code" inputmode="numeric"/);
    expect(page).toContain('<input type="hidden" name="two_factor_mode" value="recovery">');
    expect(page).toContain('Lost your device? Use a recovery code</button>');
    const switched = await app.request({
      method: 'POST',
      path: '/login',
      headers: FORM,
      body: form({ two_factor_token: token, two_factor_mode: 'recovery' }),
    });
    expect(switched.status).toBe(200);
    expect(switched.text).toContain('<label for="two_factor_code">Recovery code (like 5fnhv-ojhxz)</label>');
    expect(switched.text).not.toContain('inputmode="numeric"');
    expect(switched.text).toContain('Use the code from your authenticator app</button>');
    // A recovery code used twice: named on the page and in Protect's list.
    const first = await app.request({
      method: 'POST',
      path: '/login',
      headers: FORM,
      body: form({ two_factor_token: token, two_factor_mode: 'recovery', two_factor_code: recovery[1]! }),
    });
    expect(first.status).toBe(302);
    const token2 = await passwordStep(app, 'rhea', user.password);
    const reused = await app.request({
      method: 'POST',
      path: '/login',
      headers: FORM,
      body: form({ two_factor_token: token2, two_factor_mode: 'recovery', two_factor_code: recovery[1]! }),
    });
    expect(reused.status).toBe(401);
    expect(reused.text).toContain('That recovery code is not valid, or was already used.');
    expect(reused.text).toContain('Recovery code (like 5fnhv-ojhxz)');
    await app.request({ method: 'POST', path: '/login', headers: FORM, body: form({ log: 'rhea', pwd: 'not the password' }) });
    const admin = await app.loginAs('administrator', { login: 'rhea-admin' });
    const attempts = (await app.request({ path: '/wp-json/siteward/v1/protect/attempts', headers: app.auth(admin) })).json as {
      login: string;
      outcome: string;
      failure: string | null;
    }[];
    expect(attempts.filter((a) => a.login === 'rhea').map((a) => a.failure)).toEqual(['password', 'recovery_code', 'code']);
  });

  it('takes a recovery code once, and JSON logins send the code with the password', async () => {
    const user = await app.loginAs('author', { login: 'rita' });
    const { secret, recovery } = await enrol(app, user);
    step();
    const token = await passwordStep(app, 'rita', user.password);
    expect((await codeStep(app, token, recovery[0]!.toUpperCase())).status).toBe(302);
    const token2 = await passwordStep(app, 'rita', user.password);
    expect((await codeStep(app, token2, recovery[0]!)).status).toBe(401);
    expect((await app.request({ path: '/wp-json/siteward/v1/two-factor', headers: app.auth(user) })).json).toMatchObject({
      recovery_codes_left: 9,
    });

    const missing = await app.request({ method: 'POST', path: '/login', body: { username: 'rita', password: user.password } });
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ code: 'siteward_two_factor_required' });
    expect(missing.headers['set-cookie']).toBeUndefined();
    step();
    const json = await app.request({
      method: 'POST',
      path: '/login',
      body: { username: 'rita', password: user.password, two_factor_code: await codeFor(secret) },
    });
    expect(json.status).toBe(200);

    // New codes replace the old ones; turning off needs the password.
    const fresh = await app.request({ method: 'POST', path: '/wp-json/siteward/v1/two-factor/recovery-codes', headers: app.auth(user) });
    const codes = (fresh.json as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    const token3 = await passwordStep(app, 'rita', user.password);
    expect((await codeStep(app, token3, recovery[1]!)).status).toBe(401);
    const off = await app.request({
      method: 'DELETE',
      path: '/wp-json/siteward/v1/two-factor',
      headers: app.auth(user),
      body: { password: 'not-it' },
    });
    expect(off.status).toBe(403);
    const offOk = await app.request({
      method: 'DELETE',
      path: '/wp-json/siteward/v1/two-factor',
      headers: app.auth(user),
      body: { password: user.password },
    });
    expect(offOk.json).toMatchObject({ enabled: false });
    expect((await app.request({ method: 'POST', path: '/login', body: { username: 'rita', password: user.password } })).status).toBe(200);
  });

  it('refuses to manage two-factor with an application password, which is never second-factored', async () => {
    const user = await app.loginAs('editor', { login: 'apw' });
    await enrol(app, user);
    const created = await app.request({
      method: 'POST',
      path: `/wp-json/wp/v2/users/${user.userId}/application-passwords`,
      headers: app.auth(user),
      body: { name: 'script' },
    });
    const password = (created.json as { password: string }).password;
    const basic = { authorization: `Basic ${Buffer.from(`apw:${password}`).toString('base64')}` };
    expect((await app.request({ path: '/wp-json/wp/v2/users/me', headers: basic })).status).toBe(200);
    const refused = await app.request({
      method: 'DELETE',
      path: '/wp-json/siteward/v1/two-factor',
      headers: basic,
      body: { password: user.password },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'siteward_two_factor_session_only' });
  });

  it('resets a user with `siteward user 2fa reset`', async () => {
    const user = await app.loginAs('editor', { login: 'lost' });
    await enrol(app, user);
    const out: string[] = [];
    const command = app.app.commands.find((c) => c.name === 'user')!;
    const code = await command.run(['2fa', 'reset', 'lost'], { out: (l) => out.push(l), err: (l) => out.push(l), stdin: process.stdin });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('Two-factor authentication of lost is off');
    expect((await app.request({ method: 'POST', path: '/login', body: { username: 'lost', password: user.password } })).status).toBe(200);
    expect(await command.run(['2fa', 'reset', 'nobody'], { out: (l) => out.push(l), err: (l) => out.push(l), stdin: process.stdin })).toBe(
      1,
    );
  });
});

describe('two-factor and Protect', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock: () => now, env: { SITEWARD_PROTECT_MAX_FAILURES: '4' } });
  });
  afterAll(() => app.close());

  it('counts a wrong code as a failed login for Protect', async () => {
    const user = await app.loginAs('author', { login: 'wendy' });
    await enrol(app, user);
    const token = await passwordStep(app, 'wendy', user.password);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await codeStep(app, token, '123456')).status);
    expect(answers).toEqual([401, 401, 401, 401, 429]);
  });
});

describe('two-factor required for a role', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock: () => now, env: { SITEWARD_TWO_FACTOR_REQUIRED_ROLES: 'editor' } });
  });
  afterAll(() => app.close());

  it('sends an editor to enrolment after the password login and keeps the admin page closed until enrolled', async () => {
    await app.app.users.create({ login: 'eve', email: 'eve@example.org', role: 'editor', password: 'eve-password-1' });
    const res = await app.request({
      method: 'POST',
      path: '/login',
      headers: FORM,
      body: form({ log: 'eve', pwd: 'eve-password-1', redirect_to: '/admin/' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login/two-factor/setup?redirect_to=%2Fadmin%2F');
    const cookie = res.headers['set-cookie']!.split(';')[0]!;
    const admin = await app.request({ path: '/admin/', headers: { cookie } });
    expect(admin.status).toBe(302);
    expect(admin.headers.location).toBe('/login/two-factor/setup?redirect_to=%2Fadmin%2F');

    const page = await app.request({ path: admin.headers.location!, headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your role must use two-factor authentication');
    expect(page.text).toContain('Application passwords are not asked for a second factor');
    const secret = /id="two-factor-secret">([A-Z2-7]+)</.exec(page.text)![1]!;
    const formToken = /name="_siteward_form" value="([^"]+)"/.exec(page.text)![1]!;
    step();
    const done = await app.request({
      method: 'POST',
      path: '/login/two-factor/setup',
      headers: { ...FORM, cookie },
      body: form({ _siteward_form: formToken, code: await codeFor(secret), redirect_to: '/admin/' }),
    });
    expect(done.status).toBe(200);
    expect(done.text.match(/<li><code>[a-z2-7]{5}-[a-z2-7]{5}<\/code><\/li>/g)).toHaveLength(10);
    expect((await app.request({ path: '/admin/', headers: { cookie } })).status).toBe(200);
  });

  it('requires it of administrators when Jetpack’s jetpack_sso_require_two_step is on', async () => {
    const admin = await app.loginAs('administrator', { login: 'boss' });
    expect((await app.request({ path: '/admin/', headers: { cookie: admin.cookie } })).status).toBe(200);
    await app.store.options.set('jetpack_sso_require_two_step', true);
    const gated = await app.request({ path: '/admin/', headers: { cookie: admin.cookie } });
    expect(gated.status).toBe(302);
    expect(gated.headers.location).toMatch(/^\/login\/two-factor\/setup/);
    expect((await app.request({ path: '/wp-json/siteward/v1/two-factor', headers: app.auth(admin) })).json).toMatchObject({
      required: true,
      enabled: false,
    });
  });
});
