/**
 * Extra response fields on object types (docs/spec/site-management-api.md §2.6): WordPress 4.7's `register_rest_field`
 * and the controller steps that use it (add to a response, run updaters, extend the schema,
 * turn field schemas into endpoint arguments). Fields keep their registration order.
 */
import { isRestError, type RestError } from './errors.js';
import type { ArgDefinition, ArgSchema, RestRequest } from './types.js';
import { isPhpArray, phpTruthy } from './args/php.js';
import { sanitizeValue } from './args/sanitize.js';
import { validateValue } from './args/validate.js';

/** An extra field on an object type's responses (docs/spec/site-management-api.md §2.6). */
export interface FieldDefinition {
  /** Absent: the field is not returned. */
  get?: (object: Record<string, unknown>, attribute: string, request: RestRequest | null, objectType: string) => unknown;
  /** Absent: the field cannot be set. A returned RestError aborts the update. */
  update?: (value: unknown, object: unknown, attribute: string, request: RestRequest, objectType: string) => unknown;
  /** Absent: no schema entry. */
  schema?: ArgSchema & { readonly?: boolean; context?: string[] };
}

/** A field's schema as registered (a JSON-schema property; `readonly` fields are not arguments). */
export type FieldSchema = NonNullable<FieldDefinition['schema']>;

/** Schema keys that become endpoint-argument keys, in WordPress's order. */
const COPIED_KEYS = ['type', 'format', 'enum', 'items'] as const;

/** PHP isset(): present and not null. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export class FieldRegistry {
  readonly #byType = new Map<string, Map<string, FieldDefinition>>();

  /**
   * Registers (or replaces) `attribute` on one or several object types.
   *
   * @example
   * fields.register('user', 'favourite_colour', { get: (user) => colours.get(user.id), schema: { type: 'string' } });
   */
  register(objectType: string | readonly string[], attribute: string, definition: FieldDefinition): void {
    const types = typeof objectType === 'string' ? [objectType] : objectType;
    for (const type of types) {
      let fields = this.#byType.get(type);
      if (!fields) this.#byType.set(type, (fields = new Map()));
      // Map#set on an existing key keeps its place, as PHP does for an existing array key.
      fields.set(attribute, { get: definition.get, update: definition.update, schema: definition.schema });
    }
  }

  /** The fields of an object type, in registration order. */
  fields(objectType: string): ReadonlyMap<string, FieldDefinition> {
    return this.#byType.get(objectType) ?? new Map();
  }

  /**
   * Adds every field that has a getter to a prepared response object; a getter's value replaces
   * a core key of the same name. Getters see the object built so far (a copy, as PHP passes arrays by value).
   */
  async addToResponse(objectType: string, data: Record<string, unknown>, request: RestRequest | null): Promise<Record<string, unknown>> {
    const out = { ...data };
    for (const [attribute, field] of this.fields(objectType)) {
      if (!field.get) continue;
      out[attribute] = await field.get({ ...out }, attribute, request, objectType);
    }
    return out;
  }

  /** The `properties` entries the fields add to the item schema (fields without a schema add none). */
  schemaProperties(objectType: string): Record<string, FieldSchema> {
    const properties: Record<string, FieldSchema> = {};
    for (const [attribute, field] of this.fields(objectType)) {
      if (field.schema) properties[attribute] = field.schema;
    }
    return properties;
  }

  /**
   * Runs the updater of every field the request sends (present and not null), in order.
   * Fields without an updater cannot be set. The first RestError an updater returns stops the update.
   */
  async update(objectType: string, object: unknown, request: RestRequest): Promise<true | RestError> {
    for (const [attribute, field] of this.fields(objectType)) {
      if (!field.update) continue;
      const value = request.param(attribute);
      if (!isSet(value)) continue;
      const result = await field.update(value, object, attribute, request, objectType);
      if (isRestError(result)) return result;
    }
    return true;
  }

  /**
   * Endpoint arguments for the fields' schemas (`get_endpoint_args_for_item_schema`): one per
   * field that has a schema and is not `readonly`, validated and sanitized by that schema;
   * `default` and `required` only on creating (POST) endpoints. `minimum`/`maximum` are not
   * copied (WordPress 4.7 copies only description, type, format, enum and items); a schema's
   * `arg_options` are merged in last.
   */
  endpointArgs(objectType: string, creatable: boolean): Record<string, ArgDefinition> {
    const args: Record<string, ArgDefinition> = {};
    for (const [attribute, field] of this.fields(objectType)) {
      const schema = field.schema as (FieldSchema & Record<string, unknown>) | undefined;
      if (!schema || phpTruthy(schema.readonly)) continue;

      const arg: ArgDefinition = {
        validateCallback: (value, _request, name) => validateValue(value, arg, name),
        sanitizeCallback: (value) => sanitizeValue(value, arg),
      };
      if (isSet(schema.description)) arg.description = schema.description;
      if (creatable && isSet(schema.default)) arg.default = schema.default;
      if (creatable && phpTruthy(schema.required)) arg.required = true;
      const target = arg as Record<string, unknown>;
      for (const key of COPIED_KEYS) if (isSet(schema[key])) target[key] = schema[key];
      mergeArgOptions(target, schema.arg_options, creatable);
      args[attribute] = arg;
    }
    return args;
  }
}

/** Merges `arg_options` (WordPress key names accepted for the callbacks); `required`/`default` only when creating. */
function mergeArgOptions(target: Record<string, unknown>, options: unknown, creatable: boolean): void {
  if (!isPhpArray(options) || Array.isArray(options)) return;
  const renamed: Readonly<Record<string, string>> = { validate_callback: 'validateCallback', sanitize_callback: 'sanitizeCallback' };
  for (const [key, value] of Object.entries(options)) {
    if (!creatable && (key === 'required' || key === 'default')) continue;
    target[renamed[key] ?? key] = value;
  }
}
