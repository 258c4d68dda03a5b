/** Object checks shared by every layer. */

/**
 * True for a non-null object that is not an array (a JSON object, a PHP associative array).
 *
 * @example
 * isPlainObject({ a: 1 }) // true
 * isPlainObject([1]) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
