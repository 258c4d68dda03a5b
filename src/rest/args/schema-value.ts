/**
 * A whole JSON value against a JSON schema, as WordPress 5.5+'s `rest_validate_value_from_schema`
 * checks it where the 4.7 argument validator (validate.ts) stops: objects (`properties`,
 * `required` as a list (draft 4) or per property (draft 3), `additionalProperties`), arrays of
 * them, a list of types, `null`, and strings' `minLength`/`maxLength`/`pattern`. Scalars go to the
 * argument validator, so the messages are the REST layer's own. Used where a whole document is
 * checked (the Abilities API's `input_schema` and `output_schema`, docs/spec/abilities-mcp.md A.2);
 * request arguments keep the 2016 rules (docs/spec/compat.md §9).
 */
import type { ArgSchema } from '../types.js';
import { isBoolean, validateValue } from './validate.js';
import { sanitizeValue } from './sanitize.js';
import { isNumeric } from './php.js';

/** A JSON schema as documents carry it (plain JSON). */
export type JsonSchema = Readonly<Record<string, unknown>>;

const TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** Whether a value is of a JSON-schema type, as PHP sees it (`rest_is_object`: also `''`). */
function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      // PHP's empty array is also an empty object (a schema's `default: []`, an empty JSON list).
      return isObject(value) || value === '' || (Array.isArray(value) && value.length === 0);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return isBoolean(value);
    case 'integer':
      return isNumeric(value) && Number.isInteger(Number(value));
    case 'number':
      return isNumeric(value);
    default:
      return false;
  }
}

/** `rest_get_best_type_for_value`: the first listed type the value fits, in WordPress's order. */
function bestType(value: unknown, types: readonly string[]): string | null {
  for (const type of TYPES) if (types.includes(type) && fitsType(value, type)) return type;
  return null;
}

const notOfType = (param: string, types: readonly string[]) => `${param} is not of type ${types.join(',')}.`;

/**
 * Validates `value` against `schema`, naming it `param` (members `param[name]`, items `param[0]`):
 * true, or the message of WordPress's error (its code is of no use to callers, who wrap it).
 *
 * @example
 * validateSchemaValue({}, { type: 'object', required: ['field'] }, 'input') // "field is a required property of input."
 */
export function validateSchemaValue(value: unknown, schema: JsonSchema, param: string): true | string {
  const types = typesOf(schema);
  if (types.length === 0) return true; // WordPress warns the developer and checks nothing.
  const type = types.length === 1 ? types[0]! : bestType(value, types);
  if (type === null) return notOfType(param, types);
  if (type === 'null') return value === null ? true : notOfType(param, ['null']);
  if (type === 'object') return validateObject(value, schema, param);
  if (type === 'array') {
    if (!Array.isArray(value)) return notOfType(param, ['array']);
    const items = schema.items;
    if (isObject(items)) {
      for (const [i, item] of value.entries()) {
        const valid = validateSchemaValue(item, items, `${param}[${i}]`);
        if (valid !== true) return valid;
      }
    }
    const enumCheck = validateValue(value, { enum: schema.enum as ArgSchema['enum'] }, param);
    if (enumCheck !== true) return enumCheck.message;
    return arrayBounds(value, schema, param);
  }
  const scalar = validateValue(value, { ...(schema as ArgSchema), type }, param);
  if (scalar !== true) return scalar.message;
  return type === 'string' ? stringBounds(value as string, schema, param) : true;
}

function validateObject(value: unknown, schema: JsonSchema, param: string): true | string {
  if (!fitsType(value, 'object')) return notOfType(param, ['object']);
  const object = isObject(value) ? value : {};
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : Object.keys(properties).filter((name) => properties[name]!.required === true);
  for (const name of required) {
    if (!Object.hasOwn(object, name)) return `${name} is a required property of ${param}.`;
  }
  for (const [name, member] of Object.entries(object)) {
    const memberParam = `${param}[${name}]`;
    if (Object.hasOwn(properties, name)) {
      const valid = validateSchemaValue(member, properties[name]!, memberParam);
      if (valid !== true) return valid;
      continue;
    }
    const additional = schema.additionalProperties;
    if (additional === false) return `${name} is not a valid property of Object.`;
    if (isObject(additional)) {
      const valid = validateSchemaValue(member, additional, memberParam);
      if (valid !== true) return valid;
    }
  }
  return true;
}

function stringBounds(value: string, schema: JsonSchema, param: string): true | string {
  const length = [...value].length;
  const { minLength, maxLength, pattern } = schema;
  const chars = (n: number) => (n === 1 ? 'character' : 'characters');
  if (typeof minLength === 'number' && length < minLength) {
    return `${param} must be at least ${minLength} ${chars(minLength)} long.`;
  }
  if (typeof maxLength === 'number' && length > maxLength) {
    return `${param} must be at most ${maxLength} ${chars(maxLength)} long.`;
  }
  if (typeof pattern === 'string' && !new RegExp(pattern, 'u').test(value)) {
    return `${param} does not match pattern ${pattern}.`;
  }
  return true;
}

function arrayBounds(value: readonly unknown[], schema: JsonSchema, param: string): true | string {
  const { minItems, maxItems } = schema;
  const items = (n: number) => (n === 1 ? 'item' : 'items');
  if (typeof minItems === 'number' && value.length < minItems) {
    return `${param} must contain at least ${minItems} ${items(minItems)}.`;
  }
  if (typeof maxItems === 'number' && value.length > maxItems) {
    return `${param} must contain at most ${maxItems} ${items(maxItems)}.`;
  }
  return true;
}

/**
 * The value in the schema's types (`rest_sanitize_value_from_schema`): numeric strings become
 * numbers, `"true"` a boolean, `""` for an object `{}`; members and items recursively. Call after
 * validateSchemaValue answered true.
 */
export function sanitizeSchemaValue(value: unknown, schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (types.length === 0) return value;
  const type = types.length === 1 ? types[0]! : bestType(value, types);
  if (type === 'object') {
    if (!isObject(value)) return {};
    const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
    const additional = isObject(schema.additionalProperties) ? schema.additionalProperties : null;
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value)) {
      const memberSchema = Object.hasOwn(properties, name) ? properties[name]! : additional;
      out[name] = memberSchema ? sanitizeSchemaValue(member, memberSchema) : member;
    }
    return out;
  }
  if (type === 'array') {
    const items = isObject(schema.items) ? schema.items : null;
    return Array.isArray(value) ? value.map((item) => (items ? sanitizeSchemaValue(item, items) : item)) : value;
  }
  if (type === 'null' || type === null) return value;
  return sanitizeValue(value, { ...(schema as ArgSchema), type });
}
