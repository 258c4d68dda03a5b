/** Short constructors for the catalog's option definitions (docs/spec/jetpack-v4-reference.md §6 types and validators). */
import type { JsonValue } from '../../../core/json.js';
import type { ModuleOptionDefinition, OptionStorage } from '../module-types.js';
import { toBoolean, toInteger, toPlainText, validateBoolean, validateEnum, validatePosint, validateString } from './option-validators.js';

/** A boolean option; the default stays 0/1 as the reference shows it. */
export function boolOption(description: string, defaultValue: 0 | 1, storage?: OptionStorage): ModuleOptionDefinition {
  return {
    description,
    type: 'boolean',
    default: defaultValue,
    validate: validateBoolean,
    sanitize: toBoolean,
    ...(storage && { storage }),
  };
}

/** A string option restricted to an enum (value → label). */
export function enumOption(
  description: string,
  values: Record<string, string>,
  defaultValue: string,
  storage?: OptionStorage,
): ModuleOptionDefinition {
  return {
    description,
    type: 'string',
    default: defaultValue,
    enum: values,
    validate: validateEnum(Object.keys(values)),
    sanitize: String,
    ...(storage && { storage }),
  };
}

export function posintOption(description: string, defaultValue: number, storage?: OptionStorage): ModuleOptionDefinition {
  return {
    description,
    type: 'integer',
    default: defaultValue,
    validate: validatePosint,
    sanitize: toInteger,
    ...(storage && { storage }),
  };
}

/**
 * A free text option. `sanitizeName` is the reference's leaked `sanitize_callback` name; the
 * stored text is made plain (tags stripped) rather than HTML-escaped, so it round-trips.
 */
export function textOption(
  description: string,
  defaultValue: JsonValue,
  sanitizeName?: string,
  storage?: OptionStorage,
  sanitize: (value: unknown) => JsonValue = toPlainText,
): ModuleOptionDefinition {
  return {
    description,
    type: 'string',
    default: defaultValue,
    ...(sanitizeName && { sanitize_callback: sanitizeName }),
    validate: validateString,
    sanitize,
    ...(storage && { storage }),
  };
}
