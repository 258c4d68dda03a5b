import { describe, expect, it } from 'vitest';
import { frozenCopy, isPlainObject } from './objects.js';

describe('object helpers', () => {
  it('copies a value and freezes everything inside the copy, leaving the original as it was', () => {
    const original = { id: 1, avatar_urls: { 24: 'a' }, _links: { self: [{ href: 'b' }] }, meta: [] };
    const value = frozenCopy(original);
    expect(value).toEqual(original);
    for (const part of [value, value.avatar_urls, value._links, value._links.self, value._links.self[0], value.meta])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      (value._links.self[0] as { href: string }).href = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(original._links.self[0])).toBe(false);
    original._links.self[0]!.href = 'changed';
    expect(value._links.self[0]!.href).toBe('b');
    expect(frozenCopy('text')).toBe('text');
    expect(frozenCopy(null)).toBeNull();
  });

  it('tells a JSON object from an array and from null', () => {
    expect([isPlainObject({ a: 1 }), isPlainObject([1]), isPlainObject(null), isPlainObject('x')]).toEqual([true, false, false, false]);
  });
});
