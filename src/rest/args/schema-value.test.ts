import { describe, expect, it } from 'vitest';
import { sanitizeSchemaValue, validateSchemaValue } from './schema-value.js';

const object = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] } },
    note: { type: ['string', 'null'] },
  },
  required: ['id'],
  additionalProperties: false,
};

describe('validateSchemaValue (WordPress 5.5+ rest_validate_value_from_schema)', () => {
  it('checks required members, as a list (draft 4) or per property (draft 3)', () => {
    expect(validateSchemaValue({}, object, 'input')).toBe('id is a required property of input.');
    const draft3 = { type: 'object', properties: { slug: { type: 'string', required: true } } };
    expect(validateSchemaValue({}, draft3, 'input')).toBe('slug is a required property of input.');
  });

  it('refuses members additionalProperties forbids, and checks them against its schema', () => {
    expect(validateSchemaValue({ id: 1, extra: 1 }, object, 'input')).toBe('extra is not a valid property of Object.');
    const map = { type: 'object', additionalProperties: { type: 'boolean' } };
    expect(validateSchemaValue({ a: true, b: 'maybe' }, map, 'input')).toBe('input[b] is not of type boolean.');
  });

  it('names nested members and items, with the argument validator’s messages for scalars', () => {
    expect(validateSchemaValue({ id: 0 }, object, 'input')).toBe('input[id] must be greater than 1 (inclusive)');
    expect(validateSchemaValue({ id: 1, tags: [{ name: 'ok' }, {}] }, object, 'input')).toBe(
      'name is a required property of input[tags][1].',
    );
    expect(validateSchemaValue({ id: 1, tags: [{ name: 'x' }] }, object, 'input')).toBe(
      'input[tags][0][name] must be at least 2 characters long.',
    );
  });

  it('takes a list of types, null among them', () => {
    expect(validateSchemaValue({ id: 1, note: null }, object, 'input')).toBe(true);
    expect(validateSchemaValue({ id: 1, note: 5 }, object, 'input')).toBe('input[note] is not of type string,null.');
    expect(validateSchemaValue(5, { type: 'null' }, 'output')).toBe('output is not of type null.');
  });

  it('counts PHP’s empty array as an empty object (a schema’s `default: []`) but not a list', () => {
    expect(validateSchemaValue([], { type: 'object' }, 'input')).toBe(true);
    expect(validateSchemaValue([1], { type: 'object' }, 'input')).toBe('input is not of type object.');
  });

  it('checks nothing for a schema without a type, as WordPress', () => {
    expect(validateSchemaValue({ anything: 1 }, {}, 'input')).toBe(true);
  });
});

describe('sanitizeSchemaValue', () => {
  it('converts query-string values to the schema’s types, members and items included', () => {
    expect(sanitizeSchemaValue({ id: '7', tags: [{ name: 'ab' }], note: null }, object)).toEqual({
      id: 7,
      tags: [{ name: 'ab' }],
      note: null,
    });
    expect(
      sanitizeSchemaValue({ on: 'true', n: '2.5' }, { type: 'object', properties: { on: { type: 'boolean' }, n: { type: 'number' } } }),
    ).toEqual({
      on: true,
      n: 2.5,
    });
    expect(sanitizeSchemaValue([], { type: 'object' })).toEqual({});
  });
});
