/**
 * Reading and writing one module option inside its site option (a whole option, a field of an
 * object-valued option, or a field of the current user's entry in a per-user map).
 */
import { isPlainObject } from '../../../core/objects.js';
import type { JsonObject, JsonValue } from '../../../core/json.js';
import type { OptionStorage } from '../module-types.js';

function fullPath(storage: OptionStorage, userId: number): string[] {
  return [...(storage.perUser ? [String(userId)] : []), ...(storage.path ?? [])];
}

/** The value at `path` inside `root`, undefined when any step is missing. */
export function getIn(root: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A copy of `root` with `value` at `path` (undefined removes the key); missing objects are created. */
export function setIn(root: JsonValue | undefined, path: readonly string[], value: JsonValue | undefined): JsonValue | undefined {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: JsonObject = isPlainObject(root) ? { ...root } : {};
  const next = setIn(copy[head], rest, value);
  if (next === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}

/** The stored form of an option for `userId` (undefined when never set). */
export function readStored(optionValue: JsonValue | undefined, storage: OptionStorage, userId: number): JsonValue | undefined {
  return getIn(optionValue, fullPath(storage, userId));
}

/** The new whole option value after storing `value` for `userId`. */
export function writeStored(
  optionValue: JsonValue | undefined,
  storage: OptionStorage,
  userId: number,
  value: JsonValue | undefined,
): JsonValue | undefined {
  return setIn(optionValue, fullPath(storage, userId), value);
}

/** Structural equality of JSON values (key order ignored), to tell whether a write changed anything. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEqual(a[key], b[key]));
  }
  return false;
}
