import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RestError } from '../errors.js';
import type { ArgSchema } from '../types.js';
import { parseArg } from './parse.js';
import { sanitizeValue } from './sanitize.js';
import { validateValue } from './validate.js';

describe('parseArg validates the raw value, then sanitizes it', () => {
  test.each<[unknown, ArgSchema, unknown]>([
    ['10', { type: 'integer', minimum: 1 }, 10],
    ['1,2', { type: 'array', items: { type: 'integer' } }, [1, 2]],
    ['TRUE', { type: 'boolean' }, true],
    ['false', { type: 'boolean' }, false],
    [' 1.10 ', { type: 'number' }, 1.1],
    ['a@b.co ', { type: 'string' }, 'a@b.co '],
    ['example.com', { type: 'string', format: 'uri' }, 'http://example.com'],
    ['2017-01-01 10:00:00\n', { type: 'string', format: 'date-time' }, '2017-01-01 10:00:00'],
  ])('%j with %j is accepted as %j', (value, schema, expected) => {
    expect(parseArg(value, schema, 'p')).toEqual({ ok: true, value: expected });
  });

  test.each<[unknown, ArgSchema, string]>([
    ['0', { type: 'integer', minimum: 1 }, 'p must be greater than 1 (inclusive)'],
    ['yes', { type: 'boolean' }, 'p is not of type boolean.'],
    ['1,x', { type: 'array', items: { type: 'integer' } }, 'p[1] is not of type integer.'],
    ['not-an-ip', { type: 'string', format: 'ip' }, 'not-an-ip is not a valid IP address.'],
    ['a@b', { type: 'string', format: 'email' }, 'Invalid email address.'],
  ])('%j with %j is refused with %j', (value, schema, message) => {
    const result = parseArg(value, schema, 'p');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(RestError);
      expect(result.error.message).toBe(message);
      expect(result.error.status).toBe(400);
    }
  });
});

// ---- properties ----

const types = ['array', 'integer', 'number', 'boolean', 'string', 'object', 'mystery'] as const;
const formats = ['date-time', 'email', 'ip', 'uri', 'other'] as const;

const leafSchema: fc.Arbitrary<ArgSchema> = fc.record(
  {
    type: fc.constantFrom(...types),
    enum: fc.array(fc.jsonValue(), { maxLength: 3 }),
    format: fc.constantFrom(...formats),
    minimum: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double()),
    maximum: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double()),
    exclusiveMinimum: fc.jsonValue(),
    exclusiveMaximum: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const anySchema: fc.Arbitrary<ArgSchema> = fc
  .tuple(leafSchema, fc.option(leafSchema, { nil: undefined }), fc.option(leafSchema, { nil: undefined }))
  .map(([schema, items, nested]) => (items ? { ...schema, items: nested ? { ...items, items: nested } : items } : schema));

/** Values a request can carry: any JSON, plus the strings and lists query parsing produces. */
const requestValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '1',
    '-2',
    '1.5',
    '1e3',
    ' 7 ',
    '1e999',
    '0x1A',
    'true',
    'FALSE',
    '0',
    'yes',
    '1,2,3',
    'a b',
    '',
    '127.0.0.1',
    'a@b.co',
    '2017-01-01T10:00:00Z',
    'example.com',
  ),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constantFrom('1', 'true', '2.5')), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('0', '1', '2', 'a'), fc.string(), { maxKeys: 3 }),
);

/** True when a sanitized value has its schema's declared type (recursively for typed array items). */
function hasDeclaredType(value: unknown, schema: ArgSchema): boolean {
  switch (schema.type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'array': {
      if (!Array.isArray(value)) return false;
      const items = schema.items;
      return !items || Object.keys(items).length === 0 || value.every((item) => hasDeclaredType(item, items));
    }
    default:
      return true;
  }
}

describe('validation and sanitizing properties', () => {
  test('validateValue and sanitizeValue never throw, for any JSON value and any schema', () => {
    fc.assert(
      fc.property(requestValue, anySchema, (value, schema) => {
        const result = validateValue(value, schema, 'p');
        expect(result === true || result instanceof RestError).toBe(true);
        sanitizeValue(value, schema);
      }),
      { numRuns: 3000 },
    );
  });

  test('a value that validates sanitizes to a value of the declared type', () => {
    const typed = fc.record({
      type: fc.constantFrom('array', 'integer', 'number', 'boolean', 'string'),
      items: fc.option(fc.record({ type: fc.constantFrom('integer', 'number', 'boolean', 'string') }), { nil: undefined }),
      format: fc.option(fc.constantFrom(...formats), { nil: undefined }),
    }) as fc.Arbitrary<ArgSchema>;
    let accepted = 0;
    fc.assert(
      fc.property(requestValue, typed, (value, schema) => {
        if (validateValue(value, schema, 'p') !== true) return;
        accepted++;
        expect(hasDeclaredType(sanitizeValue(value, schema), schema)).toBe(true);
      }),
      { numRuns: 5000 },
    );
    // A floor far below the usual ~650 acceptances: it only guards against a generator that stops producing valid values.
    expect(accepted).toBeGreaterThan(200);
  });

  test('with integer bounds, validation accepts exactly the integers the range message describes', () => {
    const bound = fc.option(fc.integer({ min: -20, max: 20 }), { nil: undefined });
    const flag = fc.oneof(fc.boolean(), fc.constantFrom(0, 1, '', '0', 'false', null, [], ['x']));
    fc.assert(
      fc.property(bound, bound, flag, flag, (minimum, maximum, exclusiveMinimum, exclusiveMaximum) => {
        const schema: ArgSchema = { type: 'integer', minimum, maximum, exclusiveMinimum, exclusiveMaximum };
        const far = validateValue(minimum !== undefined ? -1000 : 1000, schema, 'n');
        if (minimum === undefined && maximum === undefined) expect(far).toBe(true);
        const message = far === true ? null : far.message;
        const described = message === null ? () => true : rangeOf(message);
        for (let n = -30; n <= 30; n++) {
          const result = validateValue(n, schema, 'n');
          expect(result === true).toBe(described(n));
          if (result !== true) expect(result.message).toBe(message);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/** Reads a range message back into the set of integers it describes. */
function rangeOf(message: string): (n: number) => boolean {
  const side = (bound: number, mode: string, above: boolean) => (n: number) =>
    above ? (mode === 'exclusive' ? n > bound : n >= bound) : mode === 'exclusive' ? n < bound : n <= bound;
  let m = /^n must be greater than (-?\d+) \((inclusive|exclusive)\)$/.exec(message);
  if (m) return side(Number(m[1]), m[2], true);
  m = /^n must be less than (-?\d+) \((inclusive|exclusive)\)$/.exec(message);
  if (m) return side(Number(m[1]), m[2], false);
  m = /^n must be between (-?\d+) \((inclusive|exclusive)\) and (-?\d+) \((inclusive|exclusive)\)$/.exec(message);
  if (m) {
    const low = side(Number(m[1]), m[2], true);
    const high = side(Number(m[3]), m[4], false);
    return (n) => low(n) && high(n);
  }
  throw new Error(`not a range message: ${message}`);
}
