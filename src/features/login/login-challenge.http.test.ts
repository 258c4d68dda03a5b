import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const PASSWORD = 'ann-password-1';
const ORIGIN = 'http://example.org';

/** A browser: its pre-session cookie, and the login form's token and challenge (when one is shown). */
async function openForm(app: TestApp, cookie?: string): Promise<{ cookie: string; token: string; challenge: Challenge | null }> {
  const page = await app.request({ path: '/login', headers: cookie ? { cookie } : {} });
  const jar = cookie ?? (page.headers['set-cookie'] ?? '').split(';')[0]!;
  const token = /name="_siteward_form" value="([^"]+)"/.exec(page.text)![1]!;
  const attr = /<altcha-widget challenge="([^"]+)"/.exec(page.text)?.[1];
  const json = attr
    ?.replaceAll('&quot;', '"')
    .replaceAll('&#039;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return { cookie: jar, token, challenge: json ? (JSON.parse(json) as Challenge) : null };
}

/** What the widget puts in the `altcha` field once it has solved the challenge. */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return Buffer.from(
    JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }),
  ).toString('base64');
}

function post(app: TestApp, cookie: string, fields: Record<string, string>) {
  return app.request({
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('the login form’s challenge before the lockout', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: PASSWORD });
  });
  afterAll(() => app.close());

  it('asks for nothing until an address has failed 3 times, then asks the form for a solved challenge before checking the password', async () => {
    const browser = await openForm(app);
    expect(browser.challenge).toBeNull();
    for (let i = 0; i < 3; i++) expect((await post(app, browser.cookie, { log: 'ann', pwd: 'wrong' })).status).toBe(401);
    const after = await openForm(app, browser.cookie);
    expect(after.challenge?.parameters.algorithm).toBe('PBKDF2/SHA-256');
    const page = await app.request({ path: '/login', headers: { cookie: browser.cookie } });
    // The widget's files come from this origin; the page keeps its strict policy (no inline script).
    expect(page.text).toContain('<script type="module" src="/login/assets/challenge.js"></script>');
    expect(page.text).toContain('<link rel="stylesheet" href="/login/assets/altcha/altcha.css">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    for (const asset of [
      '/login/assets/challenge.js',
      '/login/assets/altcha/altcha.min.js',
      '/login/assets/altcha/altcha.css',
      '/login/assets/altcha-workers/pbkdf2.js',
    ]) {
      expect((await app.request({ path: asset })).status, asset).toBe(200);
    }

    // Missing: refused with the challenge, even with the right password, and no session.
    const missing = await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('Let your browser confirm you are a person');
    expect(missing.text).toContain('<altcha-widget');
    expect(missing.headers['set-cookie'] ?? '').not.toContain('siteward_logged_in');

    // Wrong: a tampered solution.
    const payload = await solve(after.challenge!);
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString()) as { solution: { derivedKey: string } };
    decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(
      (await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD, altcha: Buffer.from(JSON.stringify(decoded)).toString('base64') }))
        .status,
    ).toBe(403);
    expect((await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD, altcha: 'not base64 json' })).status).toBe(403);

    // Bound to the form: another browser's solution does not open this one.
    const other = await openForm(app);
    expect((await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD, altcha: await solve(other.challenge!) })).status).toBe(403);

    // Valid: the password is checked, the login goes through.
    const ok = await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD, altcha: payload });
    expect(ok.status).toBe(302);
    expect(ok.headers['set-cookie']).toMatch(/^siteward_logged_in=/);

    // Replayed: used once, whatever it is sent with.
    expect((await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD, altcha: payload })).status).toBe(403);

    // Protect's list names each refusal as a challenge (missing, tampered, garbage, foreign, replayed), not a password.
    const admin = await app.loginAs('administrator', { login: 'root-admin' });
    const attempts = (await app.request({ path: '/wp-json/siteward/v1/protect/attempts', headers: app.auth(admin) })).json as {
      login: string;
      outcome: string;
      failure: string | null;
    }[];
    expect(attempts.filter((a) => a.login === 'ann').map((a) => `${a.outcome}:${a.failure}`)).toEqual([
      ...Array<string>(5).fill('refused:challenge'),
      ...Array<string>(3).fill('failed:password'),
    ]);
    // A challenge refusal checks no password, so it never counts towards the block: the form still asks.
    expect((await openForm(app, browser.cookie)).challenge).not.toBeNull();
  });

  it('never challenges JSON or Basic clients: they get the answers of today, then the block', async () => {
    const json = await app.request({ method: 'POST', path: '/login', body: { username: 'ann', password: PASSWORD } });
    expect(json.status).toBe(200);
    const wrong = await app.request({ method: 'POST', path: '/login', body: { username: 'ann', password: 'wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ code: 'invalid_login' });
    // The 5th failure blocks: the form gets the 429 page, not a challenge it could solve.
    const browser = await openForm(app);
    const blocked = await post(app, browser.cookie, { log: 'ann', pwd: 'wrong', altcha: await solve(browser.challenge!) });
    expect(blocked.status).toBe(401);
    const now = await openForm(app, browser.cookie);
    expect(now.challenge).toBeNull();
    const page = await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD });
    expect(page.status).toBe(429);
    expect(page.text).toContain('Too many failed login attempts');
    expect(page.text).not.toContain('<altcha-widget');
  });
});

describe('no challenge when the block comes first', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { SITEWARD_PROTECT_MAX_FAILURES: '3' } });
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: PASSWORD });
  });
  afterAll(() => app.close());

  it('blocks after 3 failures without ever showing a challenge', async () => {
    const browser = await openForm(app);
    for (let i = 0; i < 3; i++) expect((await post(app, browser.cookie, { log: 'ann', pwd: 'wrong' })).status).toBe(401);
    expect((await openForm(app, browser.cookie)).challenge).toBeNull();
    expect((await post(app, browser.cookie, { log: 'ann', pwd: PASSWORD })).status).toBe(429);
  });
});
