import { describe, expect, it } from 'vitest';
import { createProtectKey, updateProtectKey } from './protect-key.js';

describe('protect key', () => {
  it('is 40 lowercase hex characters', () => {
    expect(createProtectKey()).toMatch(/^[0-9a-f]{40}$/);
  });

  it('differs on every creation', () => {
    expect(createProtectKey()).not.toBe(createProtectKey());
  });

  it('is created by "create"', () => {
    const result = updateProtectKey('create', (n) => Buffer.alloc(n, 0xab));
    expect(result).toEqual({ ok: true, key: 'ab'.repeat(20), created: true });
  });

  it('keeps any other alphanumeric value as sent, and clears with an empty one', () => {
    expect(updateProtectKey('carried-over_KEY1')).toEqual({ ok: true, key: 'carried-over_KEY1', created: false });
    expect(updateProtectKey('')).toEqual({ ok: true, key: '', created: false });
  });

  it('refuses a value that is not alphanumeric with the reference message', () => {
    expect(updateProtectKey('no spaces!')).toEqual({ ok: false, message: 'jetpack_protect_key must be an alphanumeric string.' });
    expect(updateProtectKey(42)).toEqual({ ok: false, message: 'jetpack_protect_key must be an alphanumeric string.' });
  });
});
