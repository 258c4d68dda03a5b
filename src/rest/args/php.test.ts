import { describe, expect, test } from 'vitest';
import {
  asciiLower,
  isList,
  isNumeric,
  phpIdentical,
  phpTrim,
  phpTruthy,
  splitList,
  strval,
  toFloat,
  toInt,
  toIntBig,
  toList,
} from './php.js';

describe('isNumeric follows PHP 8 is_numeric', () => {
  test.each<[unknown, boolean]>([
    ['1', true],
    ['1 ', true],
    [' 1', true],
    ['\t\n1\r\v\f', true],
    ['1e3', true],
    ['1E-3', true],
    ['-1.5', true],
    ['+.5', true],
    ['1.', true],
    ['1.10', true],
    ['', false],
    [' ', false],
    ['.', false],
    ['1e', false],
    ['0x1A', false],
    ['1abc', false],
    ['abc', false],
    ['INF', false],
    ['1 1', false],
    [1, true],
    [1.5, true],
    [-0, true],
    [true, false],
    [null, false],
    [undefined, false],
    [[], false],
    [['1'], false],
    [{}, false],
  ])('is_numeric(%j) is %s', (value, expected) => {
    expect(isNumeric(value)).toBe(expected);
  });
});

describe('toInt follows the PHP 8 (int) cast', () => {
  test.each<[unknown, number]>([
    ['1.10', 1],
    ['0x1A', 0],
    [' 1', 1],
    ['1 ', 1],
    ['1e3', 1000],
    ['1abc', 1],
    ['abc', 0],
    ['', 0],
    ['-1.9', -1],
    ['+7', 7],
    ['.5', 0],
    ['1e', 1],
    ['  -3.7e1xyz', -37],
    ['9223372036854775807', 2 ** 63],
    ['99999999999999999999', 2 ** 63],
    ['-99999999999999999999', -(2 ** 63)],
    ['1e300', 2 ** 63],
    ['1e999', 0],
    [1.9, 1],
    [-1.9, -1],
    [-0.5, 0],
    [1e20, Number(7766279631452241920n)],
    [Infinity, 0],
    [NaN, 0],
    [true, 1],
    [false, 0],
    [null, 0],
    [undefined, 0],
    [[], 0],
    [[1], 1],
    [[0], 1],
    [{}, 0],
    [{ a: 1 }, 1],
  ])('(int) %j is %d', (value, expected) => {
    expect(toInt(value)).toBe(expected);
    expect(Object.is(toInt(value), -0)).toBe(false);
  });

  test('keeps every digit of a 64-bit integer string as a bigint', () => {
    expect(toIntBig('9223372036854775807')).toBe(9223372036854775807n);
    expect(toIntBig('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(toIntBig(1e20)).toBe(7766279631452241920n);
  });
});

describe('toFloat follows the PHP 8 (float) cast', () => {
  test.each<[unknown, number]>([
    ['1.10', 1.1],
    [' 1', 1],
    ['1 ', 1],
    ['1e3', 1000],
    ['.5', 0.5],
    ['5.', 5],
    ['-2.5abc', -2.5],
    ['0x1A', 0],
    ['abc', 0],
    ['', 0],
    ['1e999', Infinity],
    [2.5, 2.5],
    [true, 1],
    [false, 0],
    [null, 0],
    [[], 0],
    [['x'], 1],
  ])('(float) %j is %d', (value, expected) => {
    expect(toFloat(value)).toBe(expected);
  });
});

describe('strval prints values as PHP does', () => {
  test.each<[unknown, string]>([
    ['abc', 'abc'],
    [true, '1'],
    [false, ''],
    [null, ''],
    [undefined, ''],
    [0, '0'],
    [-0, '0'],
    [42, '42'],
    [-7, '-7'],
    [1.1, '1.1'],
    [1.5, '1.5'],
    [-1.1, '-1.1'],
    [0.1 + 0.2, '0.3'],
    [1 / 3, '0.33333333333333'],
    [0.5, '0.5'],
    [0.0001, '0.0001'],
    [0.00001, '1.0E-5'],
    [1.5e-7, '1.5E-7'],
    [1e25, '1.0E+25'],
    [1.25e20, '1.25E+20'],
    [9007199254740992, '9007199254740992'],
    [Infinity, 'INF'],
    [-Infinity, '-INF'],
    [NaN, 'NAN'],
    [[], 'Array'],
    [[1, 2], 'Array'],
    [{ a: 1 }, 'Array'],
  ])('strval(%j) is %j', (value, expected) => {
    expect(strval(value)).toBe(expected);
  });
});

describe('isList and toList treat arrays and list-like objects as PHP lists', () => {
  test.each<[unknown, boolean, unknown[]]>([
    [[], true, []],
    [['a', 'b'], true, ['a', 'b']],
    [{}, true, []],
    [{ 0: 'a', 1: 'b' }, true, ['a', 'b']],
    [{ 1: 'b', 0: 'a' }, true, ['a', 'b']],
    [{ 0: 'a', 2: 'c' }, false, ['a', 'c']],
    [{ a: 1 }, false, [1]],
    [{ '01': 'x' }, false, ['x']],
    [[['nested'], [1, [2]]], true, [['nested'], [1, [2]]]],
    ['a', false, ['a']],
    [0, false, [0]],
    [false, false, [false]],
    ['', false, ['']],
    [null, false, []],
    [undefined, false, []],
  ])('%j: isList %s, (array) cast %j', (value, list, cast) => {
    expect(isList(value)).toBe(list);
    expect(toList(value)).toEqual(cast);
  });
});

describe('phpTruthy follows PHP (bool)', () => {
  test.each<[unknown, boolean]>([
    ['', false],
    ['0', false],
    ['0.0', true],
    [' ', true],
    ['false', true],
    [0, false],
    [-0, false],
    [0.0, false],
    [0.1, true],
    [NaN, true],
    [null, false],
    [undefined, false],
    [[], false],
    [{}, false],
    [[0], true],
    [{ a: 0 }, true],
    [true, true],
    [false, false],
  ])('(bool) %j is %s', (value, expected) => {
    expect(phpTruthy(value)).toBe(expected);
  });
});

describe('phpIdentical is PHP ===', () => {
  test.each<[unknown, unknown, boolean]>([
    ['1', 1, false],
    [1, 1, true],
    [null, undefined, true],
    [true, 1, false],
    [['a', 'b'], ['a', 'b'], true],
    [['a', 'b'], ['b', 'a'], false],
    [['a'], { 0: 'a' }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, false],
    [[['x']], [['x']], true],
    [['1'], [1], false],
  ])('%j === %j is %s', (a, b, expected) => {
    expect(phpIdentical(a, b)).toBe(expected);
  });
});

describe('string helpers match PHP', () => {
  test('asciiLower lowers ASCII only, as PHP 8 strtolower', () => {
    expect(asciiLower('TRUE Ä İ')).toBe('true Ä İ');
  });

  test('phpTrim trims space, tab, newlines, NUL and vertical tab but not form feed', () => {
    expect(phpTrim(' \t\n\r\0\x0Bx\f ')).toBe('x\f');
    expect(phpTrim('..a.b..', '.')).toBe('a.b');
  });

  test.each<[unknown, string[]]>([
    ['1,2,3', ['1', '2', '3']],
    ['1, 2\t3\n4', ['1', '2', '3', '4']],
    ['1,2,', ['1', '2', '']],
    [',1', ['', '1']],
    ['', ['']],
    [null, ['']],
    [true, ['1']],
    [false, ['']],
    [12, ['12']],
    [1.5, ['1.5']],
    ['a\u00a0b', ['a\u00a0b']],
  ])('splitList(%j) is %j (preg_split on /[\\s,]+/)', (value, expected) => {
    expect(splitList(value)).toEqual(expected);
  });
});
