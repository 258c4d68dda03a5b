import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStores } from '../store/testing/test-stores.js';
import type { Store } from '../store/types.js';
import { verifyPassword } from './passwords.js';
import { createUserService, type NewUserInput, type UserService } from './user-service.js';
import { isEmail } from './user-validation.js';

describe('e-mail validation (WordPress is_email)', () => {
  it.each([
    ['a@b.co', true],
    ['first.last+tag@example.co.uk', true],
    ["o'hara@example-site.org", true],
    ['a@b.c', false], // fewer than 6 characters
    ['@example.com', false],
    ['no-at-sign.example.com', false],
    ['two@@example.com', false],
    ['a b@example.com', false],
    ['user@localhost', false],
    ['user@exa..mple.com', false],
    ['user@.example.com', false],
    ['user@example.com.', false],
    ['user@-example.com', false],
    ['user@example-.com', false],
    ['user@exa_mple.com', false],
  ])('%s → %s', (email, valid) => {
    expect(isEmail(email)).toBe(valid);
  });
});

describe.each(testStores())('the user service on $name', (backend) => {
  let store: Store;
  let users: UserService;
  const changed: number[] = [];
  const input = (over: Partial<NewUserInput> = {}): NewUserInput => ({
    login: 'frank',
    email: 'frank@example.com',
    password: 'frank password',
    role: 'editor',
    ...over,
  });

  beforeAll(async () => {
    store = await backend.open();
    users = createUserService(store, { onUserChanged: (id) => changed.push(id) });
  });
  afterAll(() => backend.cleanup());

  it('creates a user with an argon2id hash and the role in the capabilities meta', async () => {
    const result = await users.create(input({ displayName: 'Frank F.' }));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.user).toMatchObject({ login: 'frank', email: 'frank@example.com', displayName: 'Frank F.' });
    expect(result.value.roles).toEqual(['editor']);
    expect(result.value.user.passHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(result.value.user.passHash, 'frank password')).toBe(true);
    expect(await store.userMeta.get(result.value.user.id, 'capabilities')).toEqual(['editor']);
  });

  it.each([
    [{ login: 'FRANK', email: 'other@example.com' }, 'existing_user_login', 'Sorry, that username already exists!'],
    [{ login: 'frank2', email: 'Frank@Example.com' }, 'existing_user_email', 'Sorry, that email address is already used!'],
    [{ login: 'frank3', email: 'f3@example.com', role: 'overlord' }, 'invalid_role', undefined],
    [{ login: 'frank4', email: 'f4@example.com', password: '' }, 'empty_password', 'Please enter a password.'],
    [
      { login: 'frank5', email: 'f5@example.com', password: 'short' },
      'password_too_short',
      'The password must be at least 8 characters long.',
    ],
    [{ login: '', email: 'f6@example.com' }, 'empty_user_login', undefined],
    [{ login: 'bad|login', email: 'f7@example.com' }, 'invalid_username', undefined],
    [{ login: ' padded', email: 'f8@example.com' }, 'invalid_username', undefined],
    [{ login: 'x'.repeat(61), email: 'f9@example.com' }, 'user_login_too_long', undefined],
    [{ login: 'frank10', email: 'not-an-email' }, 'invalid_email', undefined],
  ] as const)('refuses %j with %s', async (over, code, message) => {
    const result = await users.create(input(over));
    if (result.ok) throw new Error('created');
    expect(result.error.code).toBe(code);
    if (message) expect(result.error.message).toBe(message);
    expect(result.error.message.length).toBeGreaterThan(0);
  });

  it('names the known roles when refusing an unknown one', async () => {
    const result = await users.create(input({ login: 'g', email: 'g@example.com', role: 'admin' }));
    expect(!result.ok && result.error.message).toContain('administrator, editor, author, contributor, subscriber');
  });

  it('lets only one of two simultaneous creations of the same login succeed', async () => {
    const results = await Promise.all([
      users.create(input({ login: 'race', email: 'race1@example.com' })),
      users.create(input({ login: 'race', email: 'race2@example.com' })),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ error: { code: 'existing_user_login' } });
  });

  it('changes a password, ends the sessions and reports the change', async () => {
    const user = (await store.users.byLogin('frank'))!;
    await store.sessions.create({
      tokenHash: 'frank-session',
      userId: user.id,
      expiresAt: Date.now() + 1e6,
      userAgent: '',
      ip: '',
      created: 0,
    });
    expect(await users.setPassword('frank', 'tiny')).toMatchObject({ ok: false, error: { code: 'password_too_short' } });
    const result = await users.setPassword('frank', 'a new password');
    expect(result.ok).toBe(true);
    const after = (await store.users.byLogin('frank'))!;
    expect(await verifyPassword(after.passHash, 'a new password')).toBe(true);
    expect(await store.sessions.find('frank-session')).toBeUndefined();
    expect(changed).toContain(user.id);
    expect(await users.setPassword('nobody', 'a new password')).toMatchObject({ ok: false, error: { code: 'unknown_user' } });
  });

  it('lists users with their roles and deletes one', async () => {
    const list = await users.list();
    expect(list.find((u) => u.user.login === 'frank')?.roles).toEqual(['editor']);
    const removed = await users.delete('frank');
    expect(removed.ok).toBe(true);
    expect(await store.users.byLogin('frank')).toBeUndefined();
    expect(await users.delete('frank')).toMatchObject({ ok: false, error: { code: 'unknown_user' } });
  });
});
