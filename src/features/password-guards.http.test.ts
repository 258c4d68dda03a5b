import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PasswordAttempt } from '../auth/password-guards.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { Feature } from './contract.js';
import { builtInFeatures } from './index.js';

const seen: { attempt: PasswordAttempt; ok: boolean | null }[] = [];
let refuseAll = false;
const guardFeature: Feature = {
  name: 'guard-probe',
  register(ctx) {
    ctx.addPasswordGuard({
      before: (attempt) => {
        if (!refuseAll && attempt.login !== 'locked') return { allow: true };
        seen.push({ attempt, ok: null });
        return { allow: false, status: 429, code: 'probe_blocked', message: 'Too many attempts.', retryAfterSeconds: 90 };
      },
      after: (attempt, outcome) => void seen.push({ attempt, ok: outcome.ok }),
    });
  },
};

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ features: [...builtInFeatures, guardFeature] });
  await app.app.users.create({ login: 'locked', email: 'locked@example.org', role: 'administrator', password: 'right-password-1' });
  await app.app.users.create({ login: 'free', email: 'free@example.org', role: 'administrator', password: 'right-password-2' });
});
afterAll(() => app.close());

describe('password guards of features', () => {
  it('see the outcome of every JSON and form login, with the client address', async () => {
    seen.length = 0;
    await app.request({ method: 'POST', path: '/login', body: { username: 'free', password: 'wrong' } });
    await app.request({
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
      body: 'log=free&pwd=right-password-2',
    });
    expect(seen).toEqual([
      { attempt: { via: 'login-json', login: 'free', ip: '127.0.0.1' }, ok: false },
      { attempt: { via: 'login-form', login: 'free', ip: '127.0.0.1' }, ok: true },
    ]);
  });

  it('refuse a login before the password is checked, with Retry-After, even when the password is right', async () => {
    seen.length = 0;
    const json = await app.request({ method: 'POST', path: '/login', body: { username: 'locked', password: 'right-password-1' } });
    expect(json.status).toBe(429);
    expect(json.headers['retry-after']).toBe('90');
    expect(json.json).toMatchObject({ code: 'probe_blocked', message: 'Too many attempts.', data: { status: 429 } });
    expect(json.headers['set-cookie']).toBeUndefined();
    const form = await app.request({
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
      body: 'log=locked&pwd=right-password-1',
    });
    expect(form.status).toBe(429);
    expect(form.headers['content-type']).toMatch(/^text\/html/);
    expect(form.text).toContain('Too many attempts.');
    // Only the refusals: no "after" call, as no password was checked.
    expect(seen.map((s) => s.ok)).toEqual([null, null]);
  });

  it('guard HTTP Basic with application passwords', async () => {
    const created = await app.app.authenticator.appPasswords.create('locked', 'probe');
    if (!created.ok) throw new Error(created.message);
    const basic = `Basic ${Buffer.from(`locked:${created.password}`).toString('base64')}`;
    const res = await app.request({ path: '/wp-json/jetpack/v4/settings', headers: { Authorization: basic } });
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({ code: 'probe_blocked', data: { status: 429, retry_after: 90 } });
    seen.length = 0;
    const free = await app.app.authenticator.appPasswords.create('free', 'probe');
    if (!free.ok) throw new Error(free.message);
    const ok = await app.request({
      path: '/wp-json/jetpack/v4/settings',
      headers: { Authorization: `Basic ${Buffer.from(`free:${free.password}`).toString('base64')}` },
    });
    expect(ok.status).toBe(200);
    expect(seen).toEqual([{ attempt: { via: 'basic', login: 'free', ip: '127.0.0.1' }, ok: true }]);
  });

  it('guard setup token attempts', async () => {
    const fresh = await createTestApp({ features: [...builtInFeatures, guardFeature] });
    try {
      refuseAll = true;
      seen.length = 0;
      const res = await fresh.request({ path: '/setup?token=guess' });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('90');
      expect(seen).toEqual([{ attempt: { via: 'setup', login: '', ip: '127.0.0.1' }, ok: null }]);
    } finally {
      refuseAll = false;
      await fresh.close();
    }
  });
});
