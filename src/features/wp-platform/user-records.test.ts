import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from '../../store/testing/test-stores.js';
import type { Store } from '../../store/types.js';
import { loadAllProfiles, loadProfile, PROFILE_LIST_CACHE_BYTES, PROFILE_OBJECT_BYTES, profileBytes } from './user-records.js';

describe.each(testStores())('every user profile on $name', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await backend.open();
  });
  afterAll(() => backend.cleanup());

  it('builds each profile as loadProfile does, from two queries for every user', async () => {
    const ann = await store.users.create({ login: 'ann', email: 'ann@example.org', displayName: 'Ann', passHash: 'x' });
    const bob = await store.users.create({ login: 'bob', email: 'bob@example.org', displayName: 'Bob', passHash: 'x' });
    await store.users.setRoles(ann.id, ['editor', 'author']);
    await store.userMeta.set(ann.id, 'first_name', 'Annie');
    await store.userMeta.set(ann.id, 'persisted_preferences', { core: { fixedToolbar: true } });
    await store.userMeta.set(bob.id, 'description', 'Bob writes.');
    // A key that is no profile field stays out of it.
    await store.userMeta.set(bob.id, 'siteward_unrelated', 'x');
    const all = await loadAllProfiles(store);
    expect(all.map((p) => p.user.login)).toEqual(['ann', 'bob']);
    expect(all[0]).toEqual(await loadProfile(store, ann.id));
    expect(all[1]).toEqual(await loadProfile(store, bob.id));
    expect(all[0]!.roles).toEqual(['editor', 'author']);
    expect(all[1]!.roles).toEqual([]);
  });

  it('keeps the list while nothing changes and reads it again after any write to a user', async () => {
    const first = await loadAllProfiles(store);
    expect(await loadAllProfiles(store)).toBe(first);
    const ann = first.find((p) => p.user.login === 'ann')!;
    await store.userMeta.set(ann.user.id, 'last_name', 'Example');
    const second = await loadAllProfiles(store);
    expect(second).not.toBe(first);
    expect(second.find((p) => p.user.login === 'ann')!.meta.last_name).toBe('Example');
  });

  it('holds no list whose size exceeds PROFILE_LIST_CACHE_BYTES (the memory guard)', async () => {
    const big = await store.users.create({ login: 'big', email: 'big@example.org', displayName: 'Big', passHash: 'x' });
    // Preferences alone just over the bound, counted as UTF-16 bytes.
    await store.userMeta.set(big.id, 'persisted_preferences', { note: 'p'.repeat(PROFILE_LIST_CACHE_BYTES / 2) });
    const over = await loadAllProfiles(store);
    expect(over.reduce((n, p) => n + profileBytes(p), 0)).toBeGreaterThan(PROFILE_LIST_CACHE_BYTES);
    expect(await loadAllProfiles(store)).not.toBe(over);
    await store.userMeta.delete(big.id, 'persisted_preferences');
    const under = await loadAllProfiles(store);
    expect(under.reduce((n, p) => n + profileBytes(p), 0)).toBeLessThanOrEqual(PROFILE_LIST_CACHE_BYTES);
    expect(await loadAllProfiles(store)).toBe(under);
  });

  it('counts a profile as its objects plus two bytes a character of its strings, preferences as JSON', () => {
    const profile = {
      user: { id: 1, login: 'ab', email: 'c@d', displayName: 'E', passHash: 'hh', registered: 0 },
      roles: ['editor'],
      meta: { first_name: 'F', last_name: '', description: 'dd', nickname: '', locale: '', user_url: '', nicename: '' },
      preferences: { a: 1 },
    };
    // 2 + 3 + 1 + 2 (user) + 6 (role) + 3 (meta) + 7 ('{"a":1}') = 24 characters.
    expect(profileBytes(profile)).toBe(PROFILE_OBJECT_BYTES + 48);
  });
});
