import { afterEach, describe, expect, it } from 'vitest';
import { testStores, type TestBackend } from '../store/testing/test-stores.js';
import { checkSetupToken, completeSetup, consumeSetupToken, ensureSetupToken, setupNeeded, SETUP_TOKEN_OPTION } from './setup-token.js';
import { createUserService } from './user-service.js';

const admin = { login: 'admin', email: 'admin@example.com', password: 'admin password' };

describe.each(testStores())('the first-run setup token on $name', (backend: TestBackend) => {
  afterEach(() => backend.cleanup());

  it('is issued while no administrator exists, a new one at each start', async () => {
    const store = await backend.open();
    expect(await setupNeeded(store)).toBe(true);
    const first = await ensureSetupToken(store);
    const second = await ensureSetupToken(store);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second).not.toBe(first);
    expect(await checkSetupToken(store, first!)).toBe(false);
    expect(await checkSetupToken(store, second!)).toBe(true);
  });

  it('is stored as a hash in the options table, shared with other processes', async () => {
    const store = await backend.open();
    const token = (await ensureSetupToken(store))!;
    const stored = await store.options.get(SETUP_TOKEN_OPTION);
    expect(typeof stored).toBe('string');
    expect(stored).not.toContain(token);
    const worker = await backend.open();
    expect(await checkSetupToken(worker, token)).toBe(true);
  });

  it('can be consumed once only', async () => {
    const store = await backend.open();
    const token = (await ensureSetupToken(store))!;
    expect(await consumeSetupToken(store, 'wrong')).toBe(false);
    expect(await consumeSetupToken(store, '')).toBe(false);
    const results = await Promise.all([consumeSetupToken(store, token), consumeSetupToken(await backend.open(), token)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await checkSetupToken(store, token)).toBe(false);
  });

  it('creates the first administrator with completeSetup and is then gone', async () => {
    const store = await backend.open();
    const token = (await ensureSetupToken(store))!;
    expect(await completeSetup(store, 'wrong', admin)).toMatchObject({ ok: false, error: { code: 'invalid_setup_token' } });
    // A bad form keeps the token usable.
    expect(await completeSetup(store, token, { ...admin, password: 'short' })).toMatchObject({
      ok: false,
      error: { code: 'password_too_short' },
    });
    const done = await completeSetup(store, token, admin);
    expect(done).toMatchObject({ ok: true, value: { roles: ['administrator'] } });
    expect(await setupNeeded(store)).toBe(false);
    expect(await store.options.get(SETUP_TOKEN_OPTION)).toBeUndefined();
    expect(await ensureSetupToken(store)).toBeNull();
    expect(await completeSetup(store, token, { ...admin, login: 'second', email: 'second@example.com' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_setup_token' },
    });
  });

  it('lets only one of two simultaneous setups create an administrator', async () => {
    const store = await backend.open();
    const token = (await ensureSetupToken(store))!;
    const results = await Promise.all([
      completeSetup(store, token, admin),
      completeSetup(await backend.open(), token, { ...admin, login: 'other', email: 'other@example.com' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await store.users.countByRole('administrator')).toBe(1);
  });

  it('is not issued, and a stale one is removed, once an administrator exists', async () => {
    const store = await backend.open();
    await ensureSetupToken(store);
    await createUserService(store).create({ ...admin, role: 'administrator' });
    expect(await ensureSetupToken(store)).toBeNull();
    expect(await store.options.get(SETUP_TOKEN_OPTION)).toBeUndefined();
  });
});
