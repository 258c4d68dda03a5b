/**
 * PHP 8 value semantics that WordPress's argument layer leans on, over JS values.
 *
 * Request values are JSON values or PHP-style parsed query/form values. A PHP array is a JS
 * array or any non-null object; `null` and `undefined` are PHP null. JSON cannot tell PHP's
 * int from float, so an integral JS number inside the 64-bit range counts as an int.
 * `phpTruthy`, `asciiLower` and `phpTrim` live in src/core/php.ts (other layers need them too).
 */
import { asciiLower, phpTrim, phpTruthy } from '../../core/php.js';

export { asciiLower, phpTrim, phpTruthy };

/** PHP's whitespace for numeric strings (`is_numeric`, casts): space, \t, \n, \r, \v, \f. */
const NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
/** The leading-numeric prefix that `(int)` and `(float)` read ("1abc" → "1"). */
const LEADING_NUMBER = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;
const INTEGER_LITERAL = /^[+-]?\d+$/;

const TWO_63 = 2n ** 63n;
const INT_MAX = TWO_63 - 1n;
const INT_MIN = -TWO_63;

/** A PHP array: a JS array or a (plain) object. */
export type PhpArray = readonly unknown[] | Readonly<Record<string, unknown>>;

/** True for values PHP would see as an array (`is_array`). */
export function isPhpArray(value: unknown): value is PhpArray {
  return typeof value === 'object' && value !== null;
}

/** Number of elements of a PHP array (`count`). */
function phpCount(value: PhpArray): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/**
 * PHP 8 `is_numeric`: numbers, and strings like `"1"`, `" 1"`, `"1 "`, `"1e3"`, `".5"`; not `"0x1A"`.
 *
 * @example
 * isNumeric('1e3') // true
 */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'bigint') return true;
  return typeof value === 'string' && NUMERIC_STRING.test(value);
}

/** PHP `(int)` as a bigint, exact over the whole 64-bit range (used to print `%d`). */
export function toIntBig(value: unknown): bigint {
  if (typeof value === 'number') return doubleToInt(value);
  if (typeof value === 'bigint') return BigInt.asIntN(64, value);
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'string') return stringToInt(value);
  if (isPhpArray(value)) return phpCount(value) > 0 ? 1n : 0n;
  return 0n;
}

/**
 * PHP 8 `(int)` cast: `"1e3"` → 1000, `"1abc"` → 1, `"abc"` → 0, `"0x1A"` → 0, `[]` → 0, `[1]` → 1.
 *
 * @example
 * toInt(' 12.9 ') // 12
 */
export function toInt(value: unknown): number {
  return Number(toIntBig(value));
}

/** A float cast to int: truncation; out of range wraps modulo 2^64 as PHP 7+/8 does on 64-bit; INF/NAN → 0. */
function doubleToInt(d: number): bigint {
  if (!Number.isFinite(d)) return 0n;
  return BigInt.asIntN(64, BigInt(Math.trunc(d)));
}

/** A numeric string cast to int: an integer literal stays exact; a float literal saturates (zend_dval_to_lval_cap). */
function stringToInt(s: string): bigint {
  const match = LEADING_NUMBER.exec(s);
  if (!match) return 0n;
  const literal = match[1];
  if (INTEGER_LITERAL.test(literal)) {
    const n = BigInt(literal);
    // An integer literal that overflows is read by PHP as a float, which then saturates.
    if (n > INT_MAX) return INT_MAX;
    if (n < INT_MIN) return INT_MIN;
    return n;
  }
  const d = Number(literal);
  if (!Number.isFinite(d)) return 0n;
  const t = BigInt(Math.trunc(d));
  if (t > INT_MAX) return INT_MAX;
  if (t < INT_MIN) return INT_MIN;
  return t;
}

/**
 * PHP 8 `(float)` cast: `"1.10"` → 1.1, `" 1"` → 1, `"0x1A"` → 0, `"1e999"` → Infinity, `true` → 1.
 *
 * @example
 * toFloat('1.10') // 1.1
 */
export function toFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const match = LEADING_NUMBER.exec(value);
    return match ? Number(match[1]) : 0;
  }
  if (isPhpArray(value)) return phpCount(value) > 0 ? 1 : 0;
  return 0;
}

/**
 * PHP `strval`: true → `"1"`, false and null → `""`, 1.1 → `"1.1"`, 1e25 → `"1.0E+25"`, arrays → `"Array"`.
 *
 * @example
 * strval(0.1 + 0.2) // "0.3" (PHP prints floats with 14 significant digits)
 */
export function strval(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '';
  if (typeof value === 'number') return numberToString(value);
  if (typeof value === 'bigint') return BigInt.asIntN(64, value).toString();
  if (isPhpArray(value)) return 'Array';
  return '';
}

function numberToString(n: number): string {
  // An integral number inside the 64-bit range is a PHP int (that is what JSON gave PHP).
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63) return BigInt(n).toString();
  return floatToString(n);
}

/** PHP's float-to-string: `precision` 14, `%G`-style switch to `1.0E+25` (zend_gcvt). */
function floatToString(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const sign = n < 0 ? '-' : '';
  const [mantissa, exponent] = Math.abs(n).toExponential(13).split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  const decpt = Number(exponent) + 1; // value = 0.digits × 10^decpt
  if (decpt < -3 || decpt > 14) {
    const e = decpt - 1;
    return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  const whole = digits.slice(0, decpt).padEnd(decpt, '0');
  const fraction = digits.slice(decpt);
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/** True when the value is a list: a JS array, or an object whose keys are exactly "0".."n-1" in order. */
export function isList(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (!isPhpArray(value)) return false;
  const keys = Object.keys(value);
  return keys.every((key, i) => key === String(i));
}

/**
 * PHP `(array)` cast, then re-indexed as a list: null → `[]`, a scalar is wrapped, an array's values are kept.
 *
 * @example
 * toList('a') // ['a']
 */
export function toList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return [...(value as unknown[])];
  if (isPhpArray(value)) return Object.values(value);
  return [value];
}

/** PHP `===` over JS values; arrays are equal when they hold the same keys, in order, with identical values. */
export function phpIdentical(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (!isPhpArray(a) || !isPhpArray(b)) return a === b;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const va = a as Readonly<Record<string, unknown>>;
  const vb = b as Readonly<Record<string, unknown>>;
  return ka.every((key, i) => key === kb[i] && phpIdentical(va[key], vb[key]));
}

/** `preg_split('/[\s,]+/', $value)` on the string form of a value; empty pieces stay (`"1,2,"` → 3 pieces). */
export function splitList(value: unknown): string[] {
  // PCRE's \s without /u is ASCII only: space, \t, \n, \v, \f, \r.
  return strval(value).split(/[ \t\n\v\f\r,]+/);
}

/**
 * Deletes every 3-character unit `isUnit` accepts, again and again until none is left (deleting
 * one can join another: `%%41AB` → `%AB` → ``). WordPress loops str_replace over the whole
 * string, which is quadratic on nested input; the units here never overlap (their first
 * character cannot be their second or third), so the end result is unique and one stack pass
 * finds it in linear time.
 */
export function deleteNestedUnits(s: string, isUnit: (a: string, b: string, c: string) => boolean): { text: string; found: boolean } {
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < s.length; i++) {
    out.push(s[i]);
    const n = out.length;
    if (n >= 3 && isUnit(out[n - 3], out[n - 2], out[n - 1])) {
      out.length = n - 3;
      found = true;
    }
  }
  return { text: found ? out.join('') : s, found };
}
