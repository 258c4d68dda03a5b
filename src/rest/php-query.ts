/**
 * PHP-style parameter parsing (`parse_str`): `a[]=1&a[]=2` → ["1","2"], `a[b]=1` → {b:"1"}.
 * Values stay strings; clients written for WordPress rely on these shapes.
 */

type PhpArray = Map<string, PhpValue>;
type PhpValue = string | PhpArray;

function nextIndex(arr: PhpArray): string {
  let max = -1;
  for (const k of arr.keys()) {
    if (/^(0|-?[1-9][0-9]*)$/.test(k)) max = Math.max(max, Number(k));
  }
  return String(max + 1);
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

function toJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  const keys = [...value.keys()];
  if (keys.every((k, i) => k === String(i))) return keys.map((k) => toJs(value.get(k)!));
  const out: Record<string, unknown> = {};
  for (const [k, v] of value) out[k] = toJs(v);
  return out;
}

/** Builds PHP-style parameters from decoded key/value pairs, in order. */
export function buildPhpParams(pairs: Iterable<readonly [string, string]>): Record<string, unknown> {
  const root: PhpArray = new Map();
  for (const [rawKey, value] of pairs) {
    const parts = splitKey(rawKey);
    if (!parts) continue;
    let container = root;
    for (let i = 0; i < parts.length; i++) {
      let key = parts[i]!;
      const last = i === parts.length - 1;
      if (key === '' && i > 0) key = nextIndex(container);
      if (last) {
        container.set(key, value);
      } else {
        let child = container.get(key);
        if (!(child instanceof Map)) {
          child = new Map();
          container.set(key, child);
        }
        container = child;
      }
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of root) out[k] = toJs(v);
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

/** Parses a query string or `application/x-www-form-urlencoded` body PHP-style. */
export function parsePhpQuery(query: string): Record<string, unknown> {
  if (query === '') return {};
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    pairs.push([key, value]);
  }
  return buildPhpParams(pairs);
}
