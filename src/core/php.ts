/**
 * The few PHP value semantics that more than one layer needs. The argument layer's full set
 * (`is_numeric`, casts, `strval`, …) is in src/rest/args/php.ts, which re-exports these.
 */

/**
 * PHP truthiness (`(bool)`, `!empty()`): `""`, `"0"`, 0, 0.0, null, `[]` and `{}` are false;
 * `"0.0"`, `" "`, `"false"` and NAN are true.
 *
 * @example
 * phpTruthy('0') // false
 */
export function phpTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value !== '' && value !== '0';
  if (typeof value === 'object') return (Array.isArray(value) ? value.length : Object.keys(value).length) > 0;
  return true;
}

/** PHP `strtolower` (ASCII only since PHP 8.2, and in the C locale before). */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** PHP `trim` with its default characters (space, \t, \n, \r, \0, \v) or a given set of single characters. */
export function phpTrim(s: string, chars = ' \t\n\r\0\x0B'): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start])) start++;
  while (end > start && chars.includes(s[end - 1])) end--;
  return s.slice(start, end);
}
