/**
 * `_fields` (WordPress 4.9+, nested `a.b` since 5.3; `rest_filter_response_fields`, docs/spec/
 * current-clients.md §0): a successful answer keeps only the named members, of each item when
 * the answer is a list. `_links` and `_embedded` stay only when named too.
 */
import { isPlainObject } from '../core/objects.js';
import { EncodedJson } from './json-encoder.js';
import type { DispatchRequest } from './rest-request.js';
import { RestResponse } from './types.js';

/** Field paths as a tree: `true` keeps a member whole, a subtree keeps some of its members. */
type FieldTree = { [name: string]: true | FieldTree };

/** `wp_parse_list`: a list, or a string split at commas and spaces; empty entries dropped. */
function parseList(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  return list.map((f) => f.trim()).filter((f) => f !== '');
}

function fieldTree(fields: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let node = tree;
    let covered = false;
    while (parts.length > 1) {
      const next = parts.shift()!;
      const existing = node[next];
      // A parent already kept whole keeps its members too.
      if (existing === true) {
        covered = true;
        break;
      }
      node = node[next] = existing ?? {};
    }
    if (!covered) node[parts[0]!] = true;
  }
  return tree;
}

function intersect(value: Record<string, unknown>, tree: FieldTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, keep] of Object.entries(tree)) {
    if (!Object.hasOwn(value, key)) continue;
    const member = value[key];
    out[key] = keep !== true && isPlainObject(member) ? intersect(member, keep) : member;
  }
  // PHP's array_intersect_key keeps the answer's own order, not the request's.
  return Object.fromEntries(
    Object.keys(value)
      .filter((k) => Object.hasOwn(out, k))
      .map((k) => [k, out[k]]),
  );
}

/**
 * The answer filtered by a `_fields` value; unchanged when it names nothing or the answer is not
 * an object or a list of objects. Never changes `data` (it may be a shared, frozen object).
 *
 * @example
 * filterFields({ id: 1, name: 'Ada', meta: { a: 1, b: 2 } }, 'id,meta.a') // { id: 1, meta: { a: 1 } }
 */
export function filterFields(data: unknown, fields: unknown): unknown {
  const list = parseList(fields);
  if (list.length === 0) return data;
  const tree = fieldTree(list);
  if (Array.isArray(data)) return data.map((item) => (isPlainObject(item) ? intersect(item, tree) : item));
  return isPlainObject(data) ? intersect(data, tree) : data;
}

/** A success filtered by the request's `_fields`, as WordPress's `rest_post_dispatch` filter does. */
export function withFields(response: RestResponse, request: DispatchRequest | null): RestResponse {
  const fields = request?.param('_fields');
  if (fields === undefined || fields === null) return response;
  const data = response.data instanceof EncodedJson ? response.data.toJSON() : response.data;
  return new RestResponse(filterFields(data, fields), response.status, response.headers);
}
