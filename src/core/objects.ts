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

/**
 * A deep copy of a JSON-like value, frozen throughout: for answers that are built once and
 * handed out many times (the REST layer reuses a frozen answer's JSON). The copy keeps what it
 * was built from (catalog defaults, cached records) unfrozen.
 *
 * @example
 * const item = frozenCopy({ id: 1, _links: { self: [{ href: '…' }] } });
 * Object.isFrozen(item._links.self[0]) // true
 */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
