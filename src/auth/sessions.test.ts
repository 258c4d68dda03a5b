import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import type { Store } from '../store/types.js';
import { parseLoginCookie, readCookie, loginCookieHeader, LOGIN_COOKIE_NAME } from './login-cookie.js';
import { Secrets } from './secrets.js';
import { createSessionManager, hashSessionToken, REMEMBER_LIFETIME_MS, SESSION_LIFETIME_MS } from './sessions.js';
import { createUserService } from './user-service.js';

const secrets = new Secrets(Buffer.alloc(32, 3));
const DAY = 86_400_000;

describe.each(testStores())('login sessions on $name', (backend) => {
  let store: Store;
  let now = 1_700_000_000_000;
  const clock = () => now;

  beforeAll(async () => {
    store = await backend.open();
    const users = createUserService(store);
    const created = await users.create({ login: 'alice', email: 'alice@example.com', password: 'correct horse', role: 'editor' });
    expect(created.ok).toBe(true);
  });
  afterAll(() => backend.cleanup());

  const manager = () => createSessionManager({ store, secrets, clock });

  it('logs in with the right password and returns a four-part cookie', async () => {
    const result = await manager().login('alice', 'correct horse', { userAgent: 'UA/1', ip: '198.51.100.7' });
    if (!result.ok) throw new Error('login failed');
    const cookie = parseLoginCookie(result.cookie);
    expect(cookie).not.toBeNull();
    expect(cookie?.login).toBe('alice');
    expect(cookie?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.sessionToken).toBe(cookie?.token);
    expect(cookie?.expiration).toBe(Math.floor((now + SESSION_LIFETIME_MS) / 1000));
    expect(result.expiresAt).toBe(cookie!.expiration * 1000);
    const session = await store.sessions.find(hashSessionToken(result.sessionToken));
    expect(session).toMatchObject({ userAgent: 'UA/1', ip: '198.51.100.7', expiresAt: result.expiresAt });
  });

  it('accepts the e-mail address in place of the login', async () => {
    expect((await manager().login('Alice@Example.com', 'correct horse')).ok).toBe(true);
  });

  it('gives the same generic failure for a wrong password and an unknown login', async () => {
    expect(await manager().login('alice', 'wrong password')).toEqual({ ok: false, error: 'invalid_credentials' });
    expect(await manager().login('nobody', 'correct horse')).toEqual({ ok: false, error: 'invalid_credentials' });
    expect(await manager().login('alice', '')).toEqual({ ok: false, error: 'invalid_credentials' });
  });

  it('verifies its own cookie to the user, roles and session token', async () => {
    const m = manager();
    const result = await m.login('alice', 'correct horse');
    if (!result.ok) throw new Error('login failed');
    const verified = await m.verify(result.cookie);
    expect(verified?.user.login).toBe('alice');
    expect(verified?.roles).toEqual(['editor']);
    expect(verified?.sessionToken).toBe(result.sessionToken);
    // Another process (another manager) verifies it too.
    expect((await manager().verify(result.cookie))?.user.login).toBe('alice');
  });

  it('refuses a tampered cookie', async () => {
    const result = await manager().login('alice', 'correct horse');
    if (!result.ok) throw new Error('login failed');
    const [login, expiration, token, hmac] = result.cookie.split('|');
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a');
    const tampered = [
      `${login}|${Number(expiration) + 1000}|${token}|${hmac}`,
      `${login}|${expiration}|${flip(token)}|${hmac}`,
      `${login}|${expiration}|${token}|${flip(hmac)}`,
      `bob|${expiration}|${token}|${hmac}`,
      `${login}|${expiration}|${token}`,
      `${result.cookie}|extra`,
      '',
      'garbage',
    ];
    const m = manager();
    for (const value of tampered) expect(await m.verify(value), value).toBeNull();
  });

  it('expires after 2 days, or 14 days with remember-me', async () => {
    const m = manager();
    const short = await m.login('alice', 'correct horse');
    const long = await m.login('alice', 'correct horse', { remember: true });
    if (!short.ok || !long.ok) throw new Error('login failed');
    expect(long.expiresAt - short.expiresAt).toBeGreaterThanOrEqual(REMEMBER_LIFETIME_MS - SESSION_LIFETIME_MS - 1000);
    const start = now;
    try {
      now = start + 2 * DAY + 1000;
      expect(await m.verify(short.cookie)).toBeNull();
      expect(await m.verify(long.cookie)).not.toBeNull();
      now = start + 14 * DAY + 1000;
      expect(await manager().verify(long.cookie)).toBeNull();
    } finally {
      now = start;
    }
  });

  it('logout destroys the session and the cookie stops working at once, even when cached', async () => {
    const m = manager();
    const result = await m.login('alice', 'correct horse');
    if (!result.ok) throw new Error('login failed');
    expect(await m.verify(result.cookie)).not.toBeNull(); // now cached
    expect(await m.logout(result.cookie)).toBe(true);
    expect(await m.verify(result.cookie)).toBeNull();
    expect(await store.sessions.find(hashSessionToken(result.sessionToken))).toBeUndefined();
    expect(await m.logout(result.cookie)).toBe(false);
  });

  it('a logout in another process is seen once the short cache entry expires', async () => {
    const a = manager();
    const b = manager();
    const result = await a.login('alice', 'correct horse');
    if (!result.ok) throw new Error('login failed');
    expect(await a.verify(result.cookie)).not.toBeNull();
    await b.logout(result.cookie);
    now += 5_001;
    expect(await a.verify(result.cookie)).toBeNull();
  });

  it('a password change logs the user out', async () => {
    const users = createUserService(store);
    await users.create({ login: 'carol', email: 'carol@example.com', password: 'first password', role: 'author' });
    const m = manager();
    const result = await m.login('carol', 'first password');
    if (!result.ok) throw new Error('login failed');
    const changed = await users.setPassword('carol', 'second password');
    expect(changed.ok).toBe(true);
    m.forgetUser(result.user.id);
    expect(await m.verify(result.cookie)).toBeNull();
    // Even a session row that survived would not help: the cookie's HMAC depends on the password hash.
    await store.sessions.create({
      tokenHash: hashSessionToken(result.sessionToken),
      userId: result.user.id,
      expiresAt: result.expiresAt,
      userAgent: '',
      ip: '',
      created: now,
    });
    expect(await manager().verify(result.cookie)).toBeNull();
    expect((await m.login('carol', 'second password')).ok).toBe(true);
  });

  it('stores no session token or password in clear', async () => {
    const result = await manager().login('alice', 'correct horse');
    if (!result.ok) throw new Error('login failed');
    const sessions = await store.sessions.listForUser(result.user.id);
    const dump = JSON.stringify(sessions) + JSON.stringify(await store.users.list());
    expect(dump).not.toContain(result.sessionToken);
    expect(dump).not.toContain('correct horse');
    expect((await store.users.byLogin('alice'))?.passHash).toMatch(/^\$argon2id\$/);
  });
});

describe('the login cookie header', () => {
  it('is read back from a Cookie header, URL-decoded', () => {
    const value = 'alice|1700000000|tok|abc';
    const header = `other=1; ${LOGIN_COOKIE_NAME}=${encodeURIComponent(value)}; last=2`;
    expect(readCookie(header, LOGIN_COOKIE_NAME)).toBe(value);
    expect(readCookie('a=1', LOGIN_COOKIE_NAME)).toBeUndefined();
  });

  it('reads any Cookie header as splitting it at every semicolon would', () => {
    const byParts = (header: string, name: string) => {
      for (const pair of header.split(';')) {
        const eq = pair.indexOf('=');
        if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
        const raw = pair.slice(eq + 1).trim();
        try {
          return decodeURIComponent(raw);
        } catch {
          return raw;
        }
      }
      return undefined;
    };
    const piece = fc.constantFrom('a', 'b', '=', ';', ' ', '%', '%41', '%E0', '|', 'a=', 'b=1');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom('a', 'b', ''), (parts, name) => {
        const header = parts.join('');
        expect(readCookie(header, name)).toBe(header === '' ? undefined : byParts(header, name));
      }),
      { numRuns: 2000 },
    );
  });

  it('is HttpOnly and persistent only with remember-me', () => {
    const session = loginCookieHeader('v|1|t|h', { expiresAt: 0, remember: false, secure: true });
    expect(session).toContain('HttpOnly');
    expect(session).toContain('Secure');
    expect(session).not.toContain('Expires');
    expect(loginCookieHeader('v', { expiresAt: 0, remember: true, secure: false })).toContain('Expires=Thu, 01 Jan 1970');
  });
});
