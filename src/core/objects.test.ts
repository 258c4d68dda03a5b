import { describe, expect, it } from 'vitest';
import { deepFreeze, isPlainObject } from './objects.js';

describe('object helpers', () => {
  it('freezes a value and everything inside it, and hands back the same value', () => {
    const value = { id: 1, avatar_urls: { 24: 'a' }, _links: { self: [{ href: 'b' }] }, meta: [] };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.avatar_urls, value._links, value._links.self, value._links.self[0], value.meta])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      (value._links.self[0] as { href: string }).href = 'changed';
    }).toThrow(TypeError);
    expect(deepFreeze('text')).toBe('text');
    expect(deepFreeze(null)).toBeNull();
  });

  it('tells a JSON object from an array and from null', () => {
    expect([isPlainObject({ a: 1 }), isPlainObject([1]), isPlainObject(null), isPlainObject('x')]).toEqual([true, false, false, false]);
  });
});
