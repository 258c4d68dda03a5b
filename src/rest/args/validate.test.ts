import { describe, expect, test } from 'vitest';
import { RestError } from '../errors.js';
import type { ArgSchema } from '../types.js';
import { isBoolean, validateValue } from './validate.js';

/** `true`, or `[code, message]` of the expected error. */
type Expected = true | [code: string, message: string];

const param = (message: string): Expected => ['rest_invalid_param', message];
const INVALID_DATE: Expected = ['rest_invalid_date', 'Invalid date.'];
const INVALID_EMAIL: Expected = ['rest_invalid_email', 'Invalid email address.'];

function check(value: unknown, schema: ArgSchema, name: string, expected: Expected): void {
  const result = validateValue(value, schema, name);
  if (expected === true) {
    expect(result).toBe(true);
    return;
  }
  expect(result).toBeInstanceOf(RestError);
  const error = result as RestError;
  expect([error.code, error.message]).toEqual(expected);
  expect(error.data).toEqual({ status: 400 });
}

describe('array arguments are split, must be lists and have their items validated', () => {
  const ints: ArgSchema = { type: 'array', items: { type: 'integer' } };
  test.each<[unknown, ArgSchema, Expected]>([
    [['1', '2'], ints, true],
    ['1,2', ints, true],
    ['1, 2\t3\n4', ints, true],
    [{ 0: '1', 1: '2' }, ints, true],
    [{}, ints, true],
    [[], ints, true],
    [5, ints, true],
    [true, { type: 'array', items: { type: 'boolean' } }, true],
    ['1,x', ints, param('ids[1] is not of type integer.')],
    ['1,2,', ints, param('ids[2] is not of type integer.')],
    [null, ints, param('ids[0] is not of type integer.')],
    [['1', '1.5'], ints, param('ids[1] is not of type integer.')],
    [{ a: '1' }, ints, param('ids is not of type array.')],
    [{ 0: '1', 2: '2' }, ints, param('ids is not of type array.')],
    [{ 1: '1' }, ints, param('ids is not of type array.')],
    [[[1], [2]], { type: 'array', items: ints }, true],
    [[[1], ['x']], { type: 'array', items: ints }, param('ids[1][0] is not of type integer.')],
    [[{ 0: '1' }, 'x,y'], { type: 'array', items: { type: 'array', items: { type: 'string' } } }, true],
    [[1, 'x', null], { type: 'array' }, true],
    [{ a: 1 }, { type: 'array' }, param('ids is not of type array.')],
    ['a b', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, true],
    ['a c', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, param('ids[1] is not one of a, b.')],
  ])('%j against %j', (value, schema, expected) => check(value, schema, 'ids', expected));
});

describe('integer and number arguments must be numeric, integers whole', () => {
  test.each<[unknown, ArgSchema['type'], Expected]>([
    ['1', 'integer', true],
    [1, 'integer', true],
    ['-3', 'integer', true],
    ['1.0', 'integer', true],
    [2.0, 'integer', true],
    ['1e3', 'integer', true],
    [' 1', 'integer', true],
    ['1 ', 'integer', true],
    ['1e999', 'integer', true],
    ['1.10', 'integer', param('n is not of type integer.')],
    ['1.5', 'integer', param('n is not of type integer.')],
    [1.5, 'integer', param('n is not of type integer.')],
    ['1e-3', 'integer', param('n is not of type integer.')],
    ['0x1A', 'integer', param('n is not of type integer.')],
    ['1abc', 'integer', param('n is not of type integer.')],
    ['', 'integer', param('n is not of type integer.')],
    [true, 'integer', param('n is not of type integer.')],
    [null, 'integer', param('n is not of type integer.')],
    [[], 'integer', param('n is not of type integer.')],
    [['1'], 'integer', param('n is not of type integer.')],
    [{}, 'integer', param('n is not of type integer.')],
    [NaN, 'integer', param('n is not of type integer.')],
    ['1.5', 'number', true],
    [1.5, 'number', true],
    ['.5', 'number', true],
    ['1e3', 'number', true],
    [' 1.10 ', 'number', true],
    ['abc', 'number', param('n is not of type number.')],
    ['1e999', 'number', param('n is not of type number.')],
    [false, 'number', param('n is not of type number.')],
    [null, 'number', param('n is not of type number.')],
    [[1], 'number', param('n is not of type number.')],
  ])('%j as %s', (value, type, expected) => check(value, { type }, 'n', expected));
});

describe('boolean arguments accept only rest_is_boolean values, and the error names the parameter', () => {
  test.each<[unknown, Expected]>([
    [true, true],
    [false, true],
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['false', true],
    ['False', true],
    ['FALSE', true],
    ['1', true],
    ['0', true],
    [1, true],
    [0, true],
    [2, param('flag is not of type boolean.')],
    [-1, param('flag is not of type boolean.')],
    [1.5, param('flag is not of type boolean.')],
    ['yes', param('flag is not of type boolean.')],
    ['no', param('flag is not of type boolean.')],
    ['on', param('flag is not of type boolean.')],
    ['', param('flag is not of type boolean.')],
    ['01', param('flag is not of type boolean.')],
    [' 1', param('flag is not of type boolean.')],
    [null, param('flag is not of type boolean.')],
    [[], param('flag is not of type boolean.')],
    [{}, param('flag is not of type boolean.')],
  ])('%j', (value, expected) => {
    check(value, { type: 'boolean' }, 'flag', expected);
    expect(isBoolean(value)).toBe(expected === true);
  });
});

describe('string arguments must be strings; object and unknown types are not checked', () => {
  test.each<[unknown, ArgSchema, Expected]>([
    ['x', { type: 'string' }, true],
    ['', { type: 'string' }, true],
    ['1', { type: 'string' }, true],
    [1, { type: 'string' }, param('s is not of type string.')],
    [true, { type: 'string' }, param('s is not of type string.')],
    [null, { type: 'string' }, param('s is not of type string.')],
    [['x'], { type: 'string' }, param('s is not of type string.')],
    [{ a: 'x' }, { type: 'string' }, param('s is not of type string.')],
    [42, { type: 'object' }, true],
    ['x', { type: 'object' }, true],
    [[1], { type: 'mystery' }, true],
    [null, {}, true],
    [{ deep: [1, { x: null }] }, {}, true],
  ])('%j against %j', (value, schema, expected) => check(value, schema, 's', expected));
});

describe('enum is strict equality on the whole value, listed as PHP implode prints it', () => {
  test.each<[unknown, ArgSchema, Expected]>([
    ['a', { type: 'string', enum: ['a', 'b', 'c'] }, true],
    ['d', { type: 'string', enum: ['a', 'b', 'c'] }, param('e is not one of a, b, c.')],
    ['A', { type: 'string', enum: ['a', 'b', 'c'] }, param('e is not one of a, b, c.')],
    [1, { type: 'integer', enum: [1, 2] }, true],
    ['1', { type: 'integer', enum: [1, 2] }, param('e is not one of 1, 2.')],
    ['y', { enum: [true, false, null, 1.5, 0.1 + 0.2, 'x'] }, param('e is not one of 1, , , 1.5, 0.3, x.')],
    ['y', { enum: [['a'], { b: 1 }] }, param('e is not one of Array, Array.')],
    ['y', { type: 'string', enum: [] }, true],
    // Enum comes before the type check.
    ['y', { type: 'integer', enum: ['x'] }, param('e is not one of x.')],
    // Arrays are compared after splitting.
    ['a,b', { type: 'array', enum: [['a', 'b']] }, true],
    ['a,b', { type: 'array', enum: ['a,b'] }, param('e is not one of a,b.')],
    [['b', 'a'], { type: 'array', enum: [['a', 'b']] }, param('e is not one of Array.')],
  ])('%j against %j', (value, schema, expected) => check(value, schema, 'e', expected));
});

describe('formats are checked whatever the type', () => {
  test.each<[unknown, ArgSchema, Expected]>([
    ['2017-01-01T10:00:00', { type: 'string', format: 'date-time' }, true],
    ['2017-01-01t10:00:00', { format: 'date-time' }, true],
    ['2017-01-01 10:00:00', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00.123456', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00Z', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00+05', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00+05:30', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00-05:30', { format: 'date-time' }, true],
    ['2017-02-30T10:00:00', { format: 'date-time' }, true],
    ['1970-01-01T00:00:00Z', { format: 'date-time' }, true],
    ['2017-01-01T10:00:00z', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-01T10:00:00-0530', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-01', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-01T10:00', { format: 'date-time' }, INVALID_DATE],
    ['2017-13-01T10:00:00', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-32T10:00:00', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-01T25:00:00', { format: 'date-time' }, INVALID_DATE],
    ['2017-01-01T10:60:00', { format: 'date-time' }, INVALID_DATE],
    ['yesterday', { format: 'date-time' }, INVALID_DATE],
    [20170101, { format: 'date-time' }, INVALID_DATE],
    [['2017-01-01T10:00:00'], { format: 'date-time' }, INVALID_DATE],
    [5, { type: 'string', format: 'date-time' }, param('f is not of type string.')],
    ['bob@example.com', { type: 'string', format: 'email' }, true],
    ['a@b.co', { format: 'email' }, true],
    ['a@b.c', { format: 'email' }, INVALID_EMAIL],
    ['bob@localhost', { format: 'email' }, INVALID_EMAIL],
    ['not an email', { format: 'email' }, INVALID_EMAIL],
    [123456, { format: 'email' }, INVALID_EMAIL],
    ['5', { type: 'integer', format: 'email' }, INVALID_EMAIL],
    ['127.0.0.1', { type: 'string', format: 'ip' }, true],
    ['::1', { format: 'ip' }, true],
    ['256.1.1.1', { format: 'ip' }, param('256.1.1.1 is not a valid IP address.')],
    ['localhost', { format: 'ip' }, param('localhost is not a valid IP address.')],
    [5, { format: 'ip' }, param('5 is not a valid IP address.')],
    [['1.1.1.1'], { format: 'ip' }, param('Array is not a valid IP address.')],
    [null, { format: 'ip' }, param(' is not a valid IP address.')],
    ['javascript:alert(1)', { type: 'string', format: 'uri' }, true],
    ['anything', { format: 'no-such-format' }, true],
  ])('%j against %j', (value, schema, expected) => check(value, schema, 'f', expected));
});

describe('minimum and maximum bound integers and numbers, printed truncated', () => {
  const int = (extra: Partial<ArgSchema>): ArgSchema => ({ type: 'integer', ...extra });
  test.each<[unknown, ArgSchema, Expected]>([
    [1, int({ minimum: 1 }), true],
    [0, int({ minimum: 1 }), param('n must be greater than 1 (inclusive)')],
    [1, int({ minimum: 1, exclusiveMinimum: true }), param('n must be greater than 1 (exclusive)')],
    [2, int({ minimum: 1, exclusiveMinimum: true }), true],
    [10, int({ maximum: 10 }), true],
    [11, int({ maximum: 10 }), param('n must be less than 10 (inclusive)')],
    [10, int({ maximum: 10, exclusiveMaximum: true }), param('n must be less than 10 (exclusive)')],
    [9, int({ maximum: 10, exclusiveMaximum: true }), true],
    [1, int({ minimum: 1, maximum: 5 }), true],
    [5, int({ minimum: 1, maximum: 5 }), true],
    [0, int({ minimum: 1, maximum: 5 }), param('n must be between 1 (inclusive) and 5 (inclusive)')],
    [6, int({ minimum: 1, maximum: 5 }), param('n must be between 1 (inclusive) and 5 (inclusive)')],
    [1, int({ minimum: 1, maximum: 5, exclusiveMinimum: true }), param('n must be between 1 (exclusive) and 5 (inclusive)')],
    [5, int({ minimum: 1, maximum: 5, exclusiveMinimum: true }), true],
    [5, int({ minimum: 1, maximum: 5, exclusiveMaximum: true }), param('n must be between 1 (inclusive) and 5 (exclusive)')],
    [1, int({ minimum: 1, maximum: 5, exclusiveMaximum: true }), true],
    [
      1,
      int({ minimum: 1, maximum: 5, exclusiveMinimum: true, exclusiveMaximum: true }),
      param('n must be between 1 (exclusive) and 5 (exclusive)'),
    ],
    [
      5,
      int({ minimum: 1, maximum: 5, exclusiveMinimum: true, exclusiveMaximum: true }),
      param('n must be between 1 (exclusive) and 5 (exclusive)'),
    ],
    [3, int({ minimum: 1, maximum: 5, exclusiveMinimum: true, exclusiveMaximum: true }), true],
    // Exclusive flags are PHP-truthy: "false" is a non-empty string, "0" and 0 are not.
    [1, int({ minimum: 1, exclusiveMinimum: 'false' }), param('n must be greater than 1 (exclusive)')],
    [1, int({ minimum: 1, exclusiveMinimum: '0' }), true],
    [1, int({ minimum: 1, exclusiveMinimum: 0 }), true],
    [1, int({ minimum: 1, exclusiveMinimum: [] }), true],
    [1, int({ minimum: 1, exclusiveMinimum: 1 }), param('n must be greater than 1 (exclusive)')],
    // Numeric strings are compared as numbers.
    ['0', int({ minimum: 1 }), param('n must be greater than 1 (inclusive)')],
    [' 7 ', int({ maximum: 5 }), param('n must be less than 5 (inclusive)')],
    ['1e3', int({ maximum: 999 }), param('n must be less than 999 (inclusive)')],
    // Bounds print as %d: truncated toward zero.
    [1, { type: 'number', minimum: 1.9 }, param('n must be greater than 1 (inclusive)')],
    [-2, { type: 'number', minimum: -1.5 }, param('n must be greater than -1 (inclusive)')],
    [2.5, { type: 'number', minimum: 2.6, maximum: 9.99 }, param('n must be between 2 (inclusive) and 9 (inclusive)')],
    ['2.65', { type: 'number', minimum: 2.6, maximum: 9.99 }, true],
    // Only integer and number are bounded.
    ['1', { type: 'string', minimum: 5 }, true],
    [1, { minimum: 5 }, true],
    // The type error comes before the bounds.
    ['x', int({ minimum: 5 }), param('n is not of type integer.')],
  ])('%j against %j', (value, schema, expected) => check(value, schema, 'n', expected));
});

test('an empty parameter name leaves the message starting with a space, as WordPress does', () => {
  check(1, { type: 'string' }, '', param(' is not of type string.'));
});
