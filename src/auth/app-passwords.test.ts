import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import type { Store } from '../store/types.js';
import { createAppPasswordService, hashAppPassword } from './app-passwords.js';
import { createUserService } from './user-service.js';

describe.each(testStores())('application passwords on $name', (backend) => {
  let store: Store;
  let now = 1_700_000_000_000;
  const clock = () => now;

  beforeAll(async () => {
    store = await backend.open();
    const users = createUserService(store);
    await users.create({ login: 'dave', email: 'dave@example.com', password: 'dave password', role: 'administrator' });
    await users.create({ login: 'erin', email: 'erin@example.com', password: 'erin password', role: 'subscriber' });
  });
  afterAll(() => backend.cleanup());

  it('creates a 24-character alphanumeric password shown once, and lists it without it', async () => {
    const apps = createAppPasswordService({ store, clock });
    const created = await apps.create('dave', 'deploy');
    if (!created.ok) throw new Error(created.message);
    expect(created.password).toMatch(/^[A-Za-z0-9]{24}$/);
    const list = await apps.list('dave');
    expect(list).toEqual([{ uuid: created.info.uuid, name: 'deploy', created: now, lastUsed: null, appId: '', lastIp: null }]);
    expect(JSON.stringify(list)).not.toContain(created.password);
  });

  it('refuses an unknown user, an empty name and a duplicate name', async () => {
    const apps = createAppPasswordService({ store, clock });
    expect(await apps.create('nobody', 'x')).toMatchObject({ ok: false, code: 'unknown_user' });
    expect(await apps.create('dave', '  ')).toMatchObject({ ok: false, code: 'invalid_name' });
    expect(await apps.create('dave', 'deploy')).toMatchObject({ ok: false, code: 'duplicate_name' });
    expect(await apps.list('nobody')).toBeNull();
  });

  it('authenticates with the password, chunked with spaces or not, by login or e-mail', async () => {
    const apps = createAppPasswordService({ store, clock });
    const created = await apps.create('dave', 'chunked');
    if (!created.ok) throw new Error(created.message);
    const chunked = created.password.match(/.{4}/g)!.join(' ');
    for (const [login, password] of [
      ['dave', created.password],
      ['dave', chunked],
      ['dave@example.com', chunked],
    ]) {
      const result = await createAppPasswordService({ store, clock }).authenticate(login, password);
      expect(result.ok, `${login} ${password}`).toBe(true);
      if (result.ok) expect(result.roles).toEqual(['administrator']);
    }
  });

  it('answers invalid_username 401 for an unknown login', async () => {
    const result = await createAppPasswordService({ store, clock }).authenticate('ghost', 'x'.repeat(24));
    if (result.ok) throw new Error('accepted');
    expect(result.error.toJSON()).toEqual({ code: 'invalid_username', message: 'Unknown username.', data: { status: 401 } });
  });

  it('answers incorrect_password 401 for a wrong password, the login password, or another user’s app password', async () => {
    const apps = createAppPasswordService({ store, clock });
    const erins = await apps.create('erin', 'erin app');
    if (!erins.ok) throw new Error(erins.message);
    for (const password of ['A'.repeat(24), 'dave password', erins.password]) {
      const result = await apps.authenticate('dave', password);
      if (result.ok) throw new Error(`accepted ${password}`);
      expect(result.error.code).toBe('incorrect_password');
      expect(result.error.message).toBe('The provided password is an invalid application password.');
      expect(result.error.status).toBe(401);
    }
  });

  it('records the last use', async () => {
    const apps = createAppPasswordService({ store, clock });
    const created = await apps.create('dave', 'tracked');
    if (!created.ok) throw new Error(created.message);
    now += 1000;
    await apps.authenticate('dave', created.password);
    const listed = (await apps.list('dave'))?.find((p) => p.name === 'tracked');
    expect(listed?.lastUsed).toBe(now);
  });

  it('stops working once revoked, in this process at once', async () => {
    const apps = createAppPasswordService({ store, clock });
    const created = await apps.create('dave', 'revoked');
    if (!created.ok) throw new Error(created.message);
    expect((await apps.authenticate('dave', created.password)).ok).toBe(true); // cached now
    expect(await apps.revoke('dave', created.info.uuid)).toBe(true);
    expect((await apps.authenticate('dave', created.password)).ok).toBe(false);
    expect(await apps.revoke('dave', created.info.uuid)).toBe(false);
    expect(await apps.revoke('erin', created.info.uuid)).toBe(false);
  });

  it('stores only a hash, never the password', async () => {
    const apps = createAppPasswordService({ store, clock });
    const created = await apps.create('erin', 'raw check');
    if (!created.ok) throw new Error(created.message);
    const user = await store.users.byLogin('erin');
    const rows = await store.appPasswords.listForUser(user!.id);
    expect(JSON.stringify(rows)).not.toContain(created.password);
    expect(rows.find((r) => r.uuid === created.info.uuid)?.hash).toBe(hashAppPassword(created.password));
  });
});
