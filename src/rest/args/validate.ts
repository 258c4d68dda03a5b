/**
 * Schema validation of one argument: WordPress 4.7.0 `rest_validate_value_from_schema`, in its
 * order (array → enum → numeric → integer → boolean → string → format → bounds), amended by
 * the spec: the boolean type error names the parameter (docs/spec/compat.md §8).
 */
import { invalidParams, restError, type RestError } from '../errors.js';
import type { ArgSchema } from '../types.js';
import { parseDate } from './dates.js';
import { isEmail, isIpAddress } from './formats.js';
import { asciiLower, isList, isNumeric, isPhpArray, phpIdentical, phpTruthy, splitList, strval, toFloat, toIntBig, toList } from './php.js';

export { isEmail, isIpAddress } from './formats.js';

/** The `rest_invalid_param` messages of docs/spec/site-management-api.md §7, in one place. */
const messages = {
  notOfType: (param: string, type: string) => `${param} is not of type ${type}.`,
  notOneOf: (param: string, values: readonly unknown[]) => `${param} is not one of ${values.map(strval).join(', ')}.`,
  invalidIp: (value: unknown) => `${strval(value)} is not a valid IP address.`,
  greaterThan: (param: string, min: string, minMode: string) => `${param} must be greater than ${min} (${minMode})`,
  lessThan: (param: string, max: string, maxMode: string) => `${param} must be less than ${max} (${maxMode})`,
  between: (param: string, min: string, minMode: string, max: string, maxMode: string) =>
    `${param} must be between ${min} (${minMode}) and ${max} (${maxMode})`,
} as const;

/**
 * WordPress `rest_is_boolean`: true, false, the strings `true`/`false`/`1`/`0` in any case, and the integers 0 and 1.
 *
 * @example
 * isBoolean('TRUE') // true
 */
export function isBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(asciiLower(value));
  return value === 0 || value === 1;
}

/**
 * Validates a request value against an argument schema: `true`, or a RestError (status 400)
 * whose message names `param` (items of an array are named `param[0]`, `param[1]`, …).
 *
 * @example
 * validateValue('5', { type: 'integer', maximum: 3 }, 'per_page') // RestError "per_page must be less than 3 (inclusive)"
 */
export function validateValue(value: unknown, schema: ArgSchema, param: string): true | RestError {
  const { type } = schema;
  let v = value;

  if (type === 'array') {
    if (!isPhpArray(v)) v = splitList(v);
    if (!isList(v)) return invalidParams(messages.notOfType(param, 'array'));
    // Without an items schema PHP validates against null, which checks nothing.
    if (isPhpArray(schema.items)) {
      const itemSchema = schema.items as ArgSchema;
      const items = toList(v);
      for (let i = 0; i < items.length; i++) {
        const result = validateValue(items[i], itemSchema, `${param}[${i}]`);
        if (result !== true) return result;
      }
    }
  }

  const allowed = isPhpArray(schema.enum) ? toList(schema.enum) : [];
  if (allowed.length > 0 && !allowed.some((candidate) => phpIdentical(v, candidate))) {
    return invalidParams(messages.notOneOf(param, allowed));
  }

  if ((type === 'integer' || type === 'number') && !isNumeric(v)) return invalidParams(messages.notOfType(param, type));
  // Decision: a numeric string beyond the float range ("1e999") would sanitize to INF, which JSON cannot carry.
  if (type === 'number' && !Number.isFinite(toFloat(v))) return invalidParams(messages.notOfType(param, type));
  if (type === 'integer') {
    const f = toFloat(v);
    // round(floatval($v)) !== floatval($v): PHP's round(INF) is INF, so INF passes; NAN never equals itself.
    if (Number.isNaN(f) || (Number.isFinite(f) && !Number.isInteger(f))) return invalidParams(messages.notOfType(param, 'integer'));
  }
  if (type === 'boolean' && !isBoolean(v)) return invalidParams(messages.notOfType(param, 'boolean'));
  if (type === 'string' && typeof v !== 'string') return invalidParams(messages.notOfType(param, 'string'));

  const formatError = checkFormat(v, schema.format);
  if (formatError) return formatError;

  if (type === 'integer' || type === 'number') return checkBounds(toFloat(v), schema, param);
  return true;
}

/** Formats are checked whatever the type. A non-string never matches (PHP 8 throws on arrays here). */
function checkFormat(value: unknown, format: ArgSchema['format']): RestError | null {
  switch (format) {
    case 'date-time':
      return typeof value === 'string' && parseDate(value) !== null ? null : restError('rest_invalid_date');
    case 'email':
      // is_email() accepts 3 characters (a@b); comments need 6 (a@b.co), so the REST layer does too.
      // A valid address is ASCII, so its length is its byte length.
      return isEmail(value) && (value as string).length >= 6 ? null : restError('rest_invalid_email');
    case 'ip':
      return isIpAddress(value) ? null : invalidParams(messages.invalidIp(value));
    default:
      return null;
  }
}

/** `minimum`/`maximum` with PHP-truthy exclusive flags; bounds are printed as `%d` (truncated). */
function checkBounds(n: number, schema: ArgSchema, param: string): true | RestError {
  const hasMin = schema.minimum !== undefined && schema.minimum !== null;
  const hasMax = schema.maximum !== undefined && schema.maximum !== null;
  if (!hasMin && !hasMax) return true;
  const min = toFloat(schema.minimum);
  const max = toFloat(schema.maximum);
  const exclMin = phpTruthy(schema.exclusiveMinimum);
  const exclMax = phpTruthy(schema.exclusiveMaximum);
  const minText = toIntBig(schema.minimum).toString();
  const maxText = toIntBig(schema.maximum).toString();
  const mode = (exclusive: boolean) => (exclusive ? 'exclusive' : 'inclusive');
  const belowMin = exclMin ? n <= min : n < min;
  const aboveMax = exclMax ? n >= max : n > max;

  if (hasMin && !hasMax) return belowMin ? invalidParams(messages.greaterThan(param, minText, mode(exclMin))) : true;
  if (hasMax && !hasMin) return aboveMax ? invalidParams(messages.lessThan(param, maxText, mode(exclMax))) : true;
  return belowMin || aboveMax ? invalidParams(messages.between(param, minText, mode(exclMin), maxText, mode(exclMax))) : true;
}
