/**
 * 100,000 failed logins through the password guard add one event per address, login and
 * window: the bound is (distinct address × login pairs) × (windows), however many attempts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PasswordGuards } from '../../auth/password-guards.js';
import { testStores } from '../../store/testing/test-stores.js';
import { failedLoginGuard, FAILED_LOGIN_WINDOW_MS } from './failed-logins.js';

const ATTEMPTS = 100_000;

describe.each(testStores())('failed logins on $name', (backend) => {
  afterAll(() => backend.cleanup());

  // PostgreSQL pays a round trip per failure: 3,000 attempts keep the test short there.
  const attempts = backend.name === 'sqlite' ? ATTEMPTS : 3_000;

  it(`collapse ${attempts.toLocaleString('en')} failures into one event per address, login and window`, async () => {
    const store = await backend.open();
    const start = 1_800_000_000_000 - (1_800_000_000_000 % FAILED_LOGIN_WINDOW_MS);
    let now = start;
    const guards = new PasswordGuards();
    guards.add(failedLoginGuard(store.auditLog, () => now));
    const before = (await store.auditLog.head()).lastId;
    // 4 addresses × 5 logins, over 3 windows: the attacker's burst spread evenly.
    for (let i = 0; i < attempts; i++) {
      now = start + Math.floor((i * 3 * FAILED_LOGIN_WINDOW_MS) / attempts);
      await guards.after({ via: 'login-form', login: `User${i % 5}`, ip: `198.51.100.${i % 4}` }, { ok: false }, []);
    }
    // Counters: at most 20 pairs in each window, and nothing in the log until the windows end.
    expect(await store.auditLog.pendingFailedLogins()).toBeLessThanOrEqual(60);
    expect((await store.auditLog.head()).lastId).toBe(before);
    now = start + 4 * FAILED_LOGIN_WINDOW_MS;
    expect(await store.auditLog.flushFailedLogins(now, FAILED_LOGIN_WINDOW_MS)).toBe(60);
    expect(await store.auditLog.pendingFailedLogins()).toBe(0);
    const events = await store.auditLog.list({ action: 'login.failed' }, { limit: 1000, offset: 0 });
    expect(events).toHaveLength(60);
    expect(events.reduce((sum, e) => sum + (e.count ?? 0), 0)).toBe(attempts);
    const one = events.find((e) => e.client_ip === '198.51.100.1' && e.object?.id === 'user1')!;
    expect(one).toMatchObject({ result: 'failed', actor: { kind: 'anonymous' } });
    expect(one.first_time!).toBeLessThanOrEqual(one.last_time!);
    expect(one.last_time! - one.first_time!).toBeLessThan(FAILED_LOGIN_WINDOW_MS);
  }, 120_000);
});
