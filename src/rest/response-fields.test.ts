import { describe, expect, it } from 'vitest';
import { filterFields } from './response-fields.js';

describe('filterFields (WordPress rest_filter_response_fields)', () => {
  const user = {
    id: 2,
    name: 'Ada',
    meta: { persisted_preferences: { a: 1 }, other: 2 },
    avatar_urls: { 24: 'x', 48: 'y' },
    _links: { self: [] },
  };

  it("keeps the named top-level members in the answer's own order, _links only when named", () => {
    expect(filterFields(user, 'name,id')).toEqual({ id: 2, name: 'Ada' });
    expect(Object.keys(filterFields(user, 'name,id') as object)).toEqual(['id', 'name']);
    expect(filterFields(user, ['id', '_links'])).toEqual({ id: 2, _links: { self: [] } });
  });

  it('keeps nested members named with a dot, and a parent named whole wins over its members', () => {
    expect(filterFields(user, 'id,meta.persisted_preferences')).toEqual({ id: 2, meta: { persisted_preferences: { a: 1 } } });
    expect(filterFields(user, 'meta,meta.other')).toEqual({ meta: user.meta });
    expect(filterFields(user, 'avatar_urls.24, name')).toEqual({ name: 'Ada', avatar_urls: { 24: 'x' } });
  });

  it('filters each item of a list, and leaves scalars and empty lists of fields alone', () => {
    expect(filterFields([user, { id: 3, name: 'Bob' }], 'id')).toEqual([{ id: 2 }, { id: 3 }]);
    expect(filterFields('text', 'id')).toBe('text');
    expect(filterFields(user, ' , ')).toBe(user);
  });

  it('never changes a frozen answer', () => {
    const frozen = Object.freeze({ a: 1, b: 2 });
    expect(filterFields(frozen, 'a')).toEqual({ a: 1 });
    expect(frozen).toEqual({ a: 1, b: 2 });
  });
});
