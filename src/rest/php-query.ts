/**
 * PHP-style parameter parsing (`parse_str`): `a[]=1&a[]=2` → ["1","2"], `a[b]=1` → {b:"1"}.
 * Values stay strings; clients written for WordPress rely on these shapes.
 */

type PhpArray = Map<string, PhpValue>;
type PhpValue = string | PhpArray;

/** PHP's `max_input_nesting_level`: deeper keys are dropped. */
const MAX_NESTING = 64;
/** PHP's `max_input_vars`: later variables are dropped. */
const MAX_VARS = 1000;

/** PHP's next free integer key of each array, kept as keys are added (a scan per `a[]` would be quadratic). */
const nextIndexes = new WeakMap<PhpArray, number>();

function setKey(arr: PhpArray, key: string, value: PhpValue): void {
  arr.set(key, value);
  if (/^(0|-?[1-9][0-9]*)$/.test(key)) {
    const n = Number(key);
    if (n >= (nextIndexes.get(arr) ?? 0)) nextIndexes.set(arr, n + 1);
  }
}

function nextIndex(arr: PhpArray): string {
  return String(nextIndexes.get(arr) ?? 0);
}

/** Splits `a[b][c]` into ['a','b','c'] the way PHP does (top-level `.` and space become `_`). */
function splitKey(raw: string): string[] | null {
  const open = raw.indexOf('[');
  let base = open === -1 ? raw : raw.slice(0, open);
  if (base === '') return null;
  base = base.replace(/^ +/, '').replace(/[ .]/g, '_');
  if (open === -1) return [base];
  const parts = [base];
  let rest = raw.slice(open);
  while (rest.startsWith('[')) {
    // Deeper than PHP keeps: the caller drops the key (and the remaining text need not be cut up).
    if (parts.length > MAX_NESTING) return parts;
    const close = rest.indexOf(']');
    if (close === -1) {
      // An unterminated bracket makes PHP keep the rest literally in the base name (with `[` as `_`).
      return parts.length === 1 ? [`${base}_${rest.slice(1)}`] : parts;
    }
    parts.push(rest.slice(1, close));
    rest = rest.slice(close + 1);
  }
  return parts;
}

/** Plain JS values: lists for arrays keyed 0..n-1, objects otherwise. Nesting is capped, so recursion is bounded. */
function toJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  const keys = [...value.keys()];
  if (keys.every((k, i) => k === String(i))) return keys.map((k) => toJs(value.get(k)!));
  const out: Record<string, unknown> = {};
  for (const [k, v] of value) Object.defineProperty(out, k, { value: toJs(v), writable: true, enumerable: true, configurable: true });
  return out;
}

/** Builds PHP-style parameters from decoded key/value pairs, in order. */
export function buildPhpParams(pairs: Iterable<readonly [string, string]>): Record<string, unknown> {
  const root: PhpArray = new Map();
  let count = 0;
  for (const [rawKey, value] of pairs) {
    if (++count > MAX_VARS) break;
    const parts = splitKey(rawKey);
    if (!parts || parts.length > MAX_NESTING) continue;
    let container = root;
    for (let i = 0; i < parts.length; i++) {
      let key = parts[i]!;
      const last = i === parts.length - 1;
      if (key === '' && i > 0) key = nextIndex(container);
      if (last) {
        setKey(container, key, value);
      } else {
        let child = container.get(key);
        if (!(child instanceof Map)) {
          child = new Map();
          setKey(container, key, child);
        }
        container = child;
      }
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of root) Object.defineProperty(out, k, { value: toJs(v), writable: true, enumerable: true, configurable: true });
  return out;
}

function decode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // Malformed escapes are kept literally, as PHP's urldecode does.
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** A key PHP keeps as it is: no brackets, dots, spaces or escapes. */
const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * Speed: the usual query (`rest_route=/jetpack/v4/module/all`, `context=edit`) has plain keys
 * only, which PHP keeps as they are, so the general parser's maps are not needed (about 1 µs
 * per `?rest_route=` request). Null when a key needs the general parser.
 */
function plainParams(parts: readonly string[]): Record<string, unknown> | null {
  if (parts.length > MAX_VARS) return null;
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    if (!PLAIN_KEY.test(key) || key === '__proto__') return null;
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    const value = raw.includes('%') || raw.includes('+') ? decode(raw) : raw;
    // As in the general parser, a repeated key keeps its place and takes the later value.
    out[key] = value;
  }
  return out;
}

/** Parses a query string or `application/x-www-form-urlencoded` body PHP-style. */
export function parsePhpQuery(query: string): Record<string, unknown> {
  if (query === '') return {};
  const parts = query.split('&');
  const plain = plainParams(parts);
  if (plain) return plain;
  const pairs: [string, string][] = [];
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    pairs.push([key, value]);
  }
  return buildPhpParams(pairs);
}
