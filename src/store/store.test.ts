import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TransactionMisuseError, UniqueViolationError } from './errors.js';
import { openStore } from './open-store.js';
import { testStores, type TestBackend } from './testing/test-stores.js';
import type { NewUser } from './types.js';

function newUser(n: string, extra: Partial<NewUser> = {}): NewUser {
  return { login: n, email: `${n}@example.com`, displayName: n.toUpperCase(), passHash: `hash-of-${n}`, ...extra };
}

describe.each(testStores())('store on $name', (backend: TestBackend) => {
  afterAll(() => backend.cleanup());

  it('keeps data after closing and reopening', async () => {
    const first = await backend.open();
    await first.options.set('blogname', 'Kept');
    await first.options.set('lazy_kept', [1, 2], false);
    const user = await first.users.create(newUser('keeper'));
    await first.users.setRoles(user.id, ['editor']);
    await first.close();

    const second = await backend.open();
    expect(await second.options.get('blogname')).toBe('Kept');
    expect(await second.options.get('lazy_kept')).toEqual([1, 2]);
    expect(await second.users.byLogin('keeper')).toEqual(user);
    expect(await second.users.roles(user.id)).toEqual(['editor']);
    await second.close();
  });

  it('seeds site options only when they are absent', async () => {
    const store = await backend.open({ seed: { blogname: 'Ignored', blogdescription: 'Just another site', WPLANG: '' } });
    expect(await store.options.get('blogname')).toBe('Kept');
    expect(await store.options.get('blogdescription')).toBe('Just another site');
    expect(await store.options.get('WPLANG')).toBe('');
    await store.options.set('blogdescription', 'Edited');
    const again = await backend.open({ seed: { blogdescription: 'Seed again' } });
    expect(await again.options.get('blogdescription')).toBe('Edited');
  });

  it('commits a transaction that resolves', async () => {
    const store = await backend.open();
    const id = await store.transaction(async (tx) => {
      const u = await tx.users.create(newUser('txuser'));
      await tx.users.setRoles(u.id, ['author']);
      await tx.options.set('tx_option', 'committed');
      expect(await tx.options.get('tx_option')).toBe('committed');
      return u.id;
    });
    expect(await store.users.roles(id)).toEqual(['author']);
    expect(await store.options.get('tx_option')).toBe('committed');
  });

  it('rolls a transaction back when its callback throws', async () => {
    const store = await backend.open();
    await store.options.set('tx_rollback', 'before');
    const version = await store.options.version();
    await expect(
      store.transaction(async (tx) => {
        await tx.options.set('tx_rollback', 'during');
        await tx.options.update('tx_new', () => 1);
        await tx.users.create(newUser('ghost'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.options.get('tx_rollback')).toBe('before');
    expect(await store.options.get('tx_new')).toBeUndefined();
    expect(await store.users.byLogin('ghost')).toBeUndefined();
    expect(await store.options.version()).toBe(version);
  });

  it('serializes transactions with direct writes of the same process', async () => {
    const store = await backend.open();
    const other = await backend.open();
    await store.options.set('tx_serial', 0);
    const inc = (v: unknown): number => (typeof v === 'number' ? v + 1 : 1);
    await Promise.all([
      store.transaction(async (tx) => {
        await tx.options.update('tx_serial', inc);
        await new Promise((r) => setTimeout(r, 20));
        await tx.options.update('tx_serial', inc);
      }),
      store.options.update('tx_serial', inc),
      other.options.update('tx_serial', inc),
      other.users.create(newUser('during_tx')),
    ]);
    expect(await other.options.get('tx_serial')).toBe(4);
  });

  it('finds users by id, login and e-mail without regard to case', async () => {
    const store = await backend.open();
    const created = await store.users.create(newUser('Finder', { email: 'Finder@Example.com' }));
    expect(created.id).toBeGreaterThan(0);
    expect(created.registered).toBeGreaterThan(Date.now() - 60_000);
    expect(await store.users.byId(created.id)).toEqual(created);
    expect(await store.users.byLogin('finder')).toEqual(created);
    expect(await store.users.byEmail('finder@example.COM')).toEqual(created);
    expect(await store.users.byId(999_999)).toBeUndefined();
    expect(await store.users.byLogin('nobody')).toBeUndefined();
  });

  it('refuses a duplicate login or e-mail with a UniqueViolationError naming it', async () => {
    const store = await backend.open();
    await store.users.create(newUser('unique'));
    await expect(store.users.create(newUser('UNIQUE', { email: 'other@example.com' }))).rejects.toEqual(new UniqueViolationError('login'));
    await expect(store.users.create(newUser('distinct', { email: 'Unique@example.com' }))).rejects.toMatchObject({
      field: 'email',
    });
  });

  it('counts users by role and stores roles as a list in the capabilities meta', async () => {
    const store = await backend.open();
    const before = await store.users.countByRole('administrator');
    const a = await store.users.create(newUser('admin_a'));
    const b = await store.users.create(newUser('admin_b'));
    await store.users.setRoles(a.id, ['administrator']);
    await store.users.setRoles(b.id, ['editor', 'administrator']);
    expect(await store.users.countByRole('administrator')).toBe(before + 2);
    expect(await store.users.countByRole('admin')).toBe(0);
    expect(await store.userMeta.get(b.id, 'capabilities')).toEqual(['editor', 'administrator']);
    await store.users.setRoles(b.id, ['editor']);
    expect(await store.users.countByRole('administrator')).toBe(before + 1);
  });

  it('bumps the credentials version when user meta or a profile changes, not when the same values are written again', async () => {
    const store = await backend.open();
    const user = await store.users.create(newUser('rewriter'));
    await store.userMeta.set(user.id, 'description', 'Same.');
    const version = await store.sessions.credentialsVersion();
    await store.userMeta.set(user.id, 'description', 'Same.');
    expect(await store.sessions.credentialsVersion()).toBe(version);
    expect(await store.userMeta.get(user.id, 'description')).toBe('Same.');
    await store.userMeta.set(user.id, 'description', 'Changed.');
    expect(await store.sessions.credentialsVersion()).toBeGreaterThan(version);
    expect(await store.userMeta.get(user.id, 'description')).toBe('Changed.');
    await store.userMeta.set(user.id, 'new_key', 'first');
    expect(await store.userMeta.get(user.id, 'new_key')).toBe('first');

    const before = await store.sessions.credentialsVersion();
    expect(await store.users.updateProfile(user.id, { email: user.email, displayName: user.displayName })).toBe(true);
    expect(await store.sessions.credentialsVersion()).toBe(before);
    expect(await store.users.updateProfile(user.id, { displayName: 'Renamed' })).toBe(true);
    expect(await store.sessions.credentialsVersion()).toBeGreaterThan(before);
    expect((await store.users.byId(user.id))?.displayName).toBe('Renamed');
    expect(await store.users.updateProfile(999_999, { displayName: 'Nobody' })).toBe(false);
  });

  it('changes a password hash and deletes a user with everything attached', async () => {
    const store = await backend.open();
    const user = await store.users.create(newUser('leaver'));
    expect(await store.users.setPassword(user.id, 'new-hash')).toBe(true);
    expect((await store.users.byId(user.id))?.passHash).toBe('new-hash');
    await store.userMeta.set(user.id, 'color', 'blue');
    const now = Date.now();
    await store.sessions.create({
      tokenHash: 'h-leaver',
      userId: user.id,
      expiresAt: now + 1000,
      userAgent: 'ua',
      ip: '::1',
      created: now,
    });
    await store.appPasswords.create({ uuid: 'u-leaver', userId: user.id, name: 'app', hash: 'ah-leaver', created: now });
    expect(await store.users.delete(user.id)).toBe(true);
    expect(await store.users.delete(user.id)).toBe(false);
    expect(await store.userMeta.all(user.id)).toEqual(new Map());
    expect(await store.sessions.find('h-leaver')).toBeUndefined();
    expect(await store.appPasswords.byHash('ah-leaver')).toBeUndefined();
  });

  it('keeps sessions with expiry, lists and purges them', async () => {
    const store = await backend.open();
    const user = await store.users.create(newUser('sessioner'));
    const now = Date.now();
    const base = { userId: user.id, userAgent: 'Firefox', ip: '203.0.113.9', created: now };
    await store.sessions.create({ ...base, tokenHash: 's1', expiresAt: now + 60_000 });
    await store.sessions.create({ ...base, tokenHash: 's2', expiresAt: now - 1 });
    expect(await store.sessions.find('s1')).toEqual({ ...base, tokenHash: 's1', expiresAt: now + 60_000 });
    expect((await store.sessions.listForUser(user.id)).map((s) => s.tokenHash).sort()).toEqual(['s1', 's2']);
    expect(await store.sessions.purgeExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await store.sessions.find('s2')).toBeUndefined();
    expect(await store.sessions.destroy('s1')).toBe(true);
    expect(await store.sessions.destroy('s1')).toBe(false);
    await store.sessions.create({ ...base, tokenHash: 's3', expiresAt: now + 1 });
    await store.sessions.create({ ...base, tokenHash: 's4', expiresAt: now + 1 });
    expect(await store.sessions.destroyForUser(user.id)).toBe(2);
  });

  it('keeps application passwords and records their use', async () => {
    const store = await backend.open();
    const user = await store.users.create(newUser('apper'));
    await store.appPasswords.create({ uuid: 'ap1', userId: user.id, name: 'phone', hash: 'aph1', created: 1000 });
    await store.appPasswords.create({ uuid: 'ap2', userId: user.id, name: 'laptop', hash: 'aph2', created: 2000 });
    expect((await store.appPasswords.listForUser(user.id)).map((p) => p.name)).toEqual(['phone', 'laptop']);
    expect(await store.appPasswords.byHash('aph2')).toMatchObject({ uuid: 'ap2', lastUsed: null });
    await store.appPasswords.touch('ap2', 5000);
    expect(await store.appPasswords.byHash('aph2')).toMatchObject({ lastUsed: 5000 });
    expect(await store.appPasswords.delete(user.id + 1, 'ap2')).toBe(false);
    expect(await store.appPasswords.delete(user.id, 'ap2')).toBe(true);
    expect(await store.appPasswords.byHash('aph2')).toBeUndefined();
  });
});

describe('store on sqlite only', () => {
  const backend = testStores()[0];
  afterEach(() => backend.cleanup());

  it('refuses to use the store itself inside its own transaction instead of hanging', async () => {
    const store = await backend.open();
    await expect(store.transaction(() => store.options.set('x', 1))).rejects.toBeInstanceOf(TransactionMisuseError);
    await expect(store.transaction(() => store.users.list())).rejects.toBeInstanceOf(TransactionMisuseError);
    // The store is still usable afterwards.
    await store.options.set('x', 2);
    expect(await store.options.get('x')).toBe(2);
  });

  it('uses WAL journaling in <dataDir>/siteward.db', async () => {
    const store = await backend.open();
    await store.close();
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(`${backend.dataDir}/siteward.db`, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it("keeps SQLite's own 2 MiB page cache on its connection, not better-sqlite3's 16 MB, so the audit log's appended pages do not stay in memory", async () => {
    const store = await backend.open();
    const { rows } = await store.tables.run((db) => sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db));
    // Negative: KiB rather than pages.
    expect(rows[0]!.cache_size).toBe(-2048);
    await store.close();
  });

  it('rejects a database URL it does not support', async () => {
    await expect(openStore({ dataDir: backend.dataDir, databaseUrl: 'mysql://x' })).rejects.toThrow(/unsupported database URL/);
  });
});
