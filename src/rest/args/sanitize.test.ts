import { describe, expect, test } from 'vitest';
import type { ArgSchema } from '../types.js';
import { sanitizeBoolean, sanitizeValue } from './sanitize.js';

describe('sanitizeValue casts by type, then by format, as WordPress 4.7 does', () => {
  test.each<[unknown, ArgSchema, unknown]>([
    // array without items: (array) cast, re-indexed
    ['a', { type: 'array' }, ['a']],
    ['a,b', { type: 'array' }, ['a,b']],
    [null, { type: 'array' }, []],
    [false, { type: 'array' }, [false]],
    [['x', 'y'], { type: 'array' }, ['x', 'y']],
    [{ 0: 'x', 1: 'y' }, { type: 'array' }, ['x', 'y']],
    [{ a: 'x' }, { type: 'array' }, ['x']],
    ['a,b', { type: 'array', items: {} }, ['a,b']],
    // array with items: split, each sanitized, keys dropped
    ['1,2,x', { type: 'array', items: { type: 'integer' } }, [1, 2, 0]],
    ['1,2,', { type: 'number', items: { type: 'number' } }, 1],
    ['1,2,', { type: 'array', items: { type: 'number' } }, [1, 2, 0]],
    ['1 true,0', { type: 'array', items: { type: 'boolean' } }, [true, true, false]],
    [{ 3: '1', 7: '2' }, { type: 'array', items: { type: 'integer' } }, [1, 2]],
    [
      [['1', '2'], '3,4'],
      { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [5, { type: 'array', items: { type: 'string' } }, ['5']],
    [null, { type: 'array', items: { type: 'string' } }, ['']],
    // integer: PHP (int)
    ['1.10', { type: 'integer' }, 1],
    ['0x1A', { type: 'integer' }, 0],
    [' 1', { type: 'integer' }, 1],
    ['1 ', { type: 'integer' }, 1],
    ['1e3', { type: 'integer' }, 1000],
    ['', { type: 'integer' }, 0],
    [null, { type: 'integer' }, 0],
    [[], { type: 'integer' }, 0],
    [[1], { type: 'integer' }, 1],
    [-7.9, { type: 'integer' }, -7],
    [true, { type: 'integer' }, 1],
    // number: PHP (float)
    ['1.10', { type: 'number' }, 1.1],
    ['1e3', { type: 'number' }, 1000],
    ['abc', { type: 'number' }, 0],
    [' .5', { type: 'number' }, 0.5],
    [false, { type: 'number' }, 0],
    // boolean: rest_sanitize_boolean
    ['FALSE', { type: 'boolean' }, false],
    ['0', { type: 'boolean' }, false],
    ['', { type: 'boolean' }, false],
    ['no', { type: 'boolean' }, true],
    ['true', { type: 'boolean' }, true],
    [0, { type: 'boolean' }, false],
    [2, { type: 'boolean' }, true],
    [[], { type: 'boolean' }, false],
    // formats, checked before the string cast
    ['  2017-01-01T10:00:00 <b>x</b> ', { type: 'string', format: 'date-time' }, '2017-01-01T10:00:00 x'],
    [' Bob@Example.com\n', { type: 'string', format: 'email' }, 'Bob@Example.com'],
    ['1.2.3.4\n', { type: 'string', format: 'ip' }, '1.2.3.4'],
    [['1.2.3.4'], { format: 'ip' }, ''],
    ['example.com/a b', { type: 'string', format: 'uri' }, 'http://example.com/a%20b'],
    ['javascript:alert(1)', { type: 'string', format: 'uri' }, ''],
    [12, { format: 'uri' }, 'http://12'],
    // string: strval
    [1.1, { type: 'string' }, '1.1'],
    [true, { type: 'string' }, '1'],
    [false, { type: 'string' }, ''],
    [null, { type: 'string' }, ''],
    [['a'], { type: 'string' }, 'Array'],
    ['  kept <as> is ', { type: 'string' }, '  kept <as> is '],
    // anything else: unchanged
    [{ a: [1] }, { type: 'object' }, { a: [1] }],
    ['x', {}, 'x'],
    [42, { type: 'mystery' }, 42],
    // enum is not enforced
    ['z', { type: 'string', enum: ['a'] }, 'z'],
  ])('%j with %j gives %j', (value, schema, expected) => {
    expect(sanitizeValue(value, schema)).toEqual(expected);
  });
});

describe('sanitizeBoolean follows rest_sanitize_boolean', () => {
  test.each<[unknown, boolean]>([
    ['false', false],
    ['False', false],
    ['0', false],
    ['', false],
    ['true', true],
    ['no', true],
    ['off', true],
    ['0.0', true],
    [' ', true],
    [0, false],
    [1, true],
    [-1, true],
    [null, false],
    [[], false],
    [{}, false],
    [[0], true],
    [true, true],
    [false, false],
  ])('%j is %s', (value, expected) => {
    expect(sanitizeBoolean(value)).toBe(expected);
  });
});
