/**
 * Schema sanitizing of one argument: WordPress 4.7.0 `rest_sanitize_value_from_schema`
 * (docs/spec/site-management-api.md §4.6, docs/spec/wp-rest-reference.md §10). Enum is never enforced here.
 */
import type { ArgSchema } from '../types.js';
import { asciiLower, isPhpArray, phpTruthy, splitList, strval, toFloat, toInt, toList } from './php.js';
import { sanitizeTextField } from './text.js';
import { escUrlRaw } from './url.js';

/**
 * WordPress `rest_sanitize_boolean`: the strings `false` and `0` (any case) and `""` are false,
 * any other string is true; other values by PHP truthiness.
 *
 * @example
 * sanitizeBoolean('no') // true
 */
export function sanitizeBoolean(value: unknown): boolean {
  if (typeof value === 'string' && ['false', '0'].includes(asciiLower(value))) return false;
  return phpTruthy(value);
}

/**
 * Casts a (validated) value to its schema: arrays to lists (items sanitized, keys dropped),
 * `integer` → PHP `(int)`, `number` → `(float)`, `boolean` → sanitizeBoolean, then by format
 * (`uri` → escUrlRaw; `date-time`, `email`, `ip` → sanitizeTextField), `string` → `strval`.
 *
 * @example
 * sanitizeValue('1,2,x', { type: 'array', items: { type: 'integer' } }) // [1, 2, 0]
 */
export function sanitizeValue(value: unknown, schema: ArgSchema): unknown {
  const { type } = schema;
  if (type === 'array') {
    const items = schema.items;
    // `empty($args['items'])`: no items, or an empty one, means a plain (array) cast.
    if (!isPhpArray(items) || !phpTruthy(items)) return toList(value);
    const itemSchema = items as ArgSchema;
    const list = isPhpArray(value) ? toList(value) : splitList(value);
    return list.map((item) => sanitizeValue(item, itemSchema));
  }
  if (type === 'integer') return toInt(value);
  if (type === 'number') return toFloat(value);
  if (type === 'boolean') return sanitizeBoolean(value);

  switch (schema.format) {
    case 'date-time':
    case 'email':
    case 'ip':
      // Plain text only: validating (e.g. sanitize_email) here would change what the handler sees.
      return sanitizeTextField(value);
    case 'uri':
      return escUrlRaw(value);
  }

  if (type === 'string') return strval(value);
  return value;
}
