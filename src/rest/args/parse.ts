/**
 * Parsing one argument (docs/spec/site-management-api.md §4.6 rule 6, WordPress `rest_parse_request_arg`):
 * validate the raw value, then sanitize it.
 */
import type { RestError } from '../errors.js';
import type { ArgSchema } from '../types.js';
import { sanitizeValue } from './sanitize.js';
import { validateValue } from './validate.js';

/** The outcome of parseArg: the sanitized value, or the validation error. */
export type ParseResult = { ok: true; value: unknown } | { ok: false; error: RestError };

/**
 * Validates a raw request value against its schema and, when valid, sanitizes it.
 *
 * @example
 * parseArg('10', { type: 'integer', minimum: 1 }, 'page') // { ok: true, value: 10 }
 */
export function parseArg(value: unknown, schema: ArgSchema, param: string): ParseResult {
  const valid = validateValue(value, schema, param);
  if (valid !== true) return { ok: false, error: valid };
  return { ok: true, value: sanitizeValue(value, schema) };
}
