/**
 * Validators and sanitizers of module options (docs/spec/jetpack-v4-reference.md §3.11, §6). Each validator
 * answers true or the per-option message; the messages are the reference's, word for word.
 */
import { isPlainObject } from '../../../core/objects.js';
import { phpTruthy } from '../../../core/php.js';
import type { JsonValue } from '../../../core/json.js';
import type { OptionValidation } from '../module-types.js';

export type Validator = (value: unknown, param: string) => OptionValidation;

/** The roles stats can be shown to or counted for (docs/spec/jetpack-v4-reference.md §6). */
export const STATS_ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;

/** Where sharing buttons may show (docs/spec/jetpack-v4-reference.md §6, `show`). */
export const SHARING_SHOW_PLACES = ['index', 'post', 'page', 'attachment', 'jetpack-portfolio'] as const;

/** The sharing services of the era; custom ones are `custom-<digits>`. */
export const SHARING_SERVICE_IDS = [
  'email',
  'print',
  'facebook',
  'linkedin',
  'reddit',
  'twitter',
  'press-this',
  'google-plus-1',
  'tumblr',
  'pinterest',
  'pocket',
  'telegram',
  'jetpack-whatsapp',
  'skype',
] as const;

export const CUSTOM_SERVICE_ID = /^custom-\d+$/;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** true, false, 0, 1 and the strings "0", "1", "true", "false" (any case). */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return value === 0 || value === 1;
  if (typeof value === 'string') return ['0', '1', 'true', 'false'].includes(value.toLowerCase());
  return false;
}

export const validateBoolean: Validator = (value, param) => (isBooleanLike(value) ? true : `${param} must be true, false, 0 or 1.`);

/** A whole number above zero, as a number or a string of digits. */
export const validatePosint: Validator = (value, param) => {
  const ok =
    (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
    (typeof value === 'string' && /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) && Number(value) > 0);
  return ok ? true : `${param} must be a positive integer.`;
};

export const validateString: Validator = (value, param) => (typeof value === 'string' ? true : `${param} must be a string.`);

/** Empty, or a Twitter username with an optional leading `@`. */
export const validateTwitterUsername: Validator = (value, param) =>
  typeof value === 'string' && (value === '' || /^@?\w{1,15}$/.test(value)) ? true : `${param} must be a Twitter username.`;

/** One of the enum's values (the reference's message has no final period). */
export function validateEnum(values: readonly string[]): Validator {
  return (value, param) => (typeof value === 'string' && values.includes(value) ? true : `${param} must be one of ${values.join(', ')}`);
}

export const validateStatsRoles: Validator = (value, param) =>
  isStringList(value) && value.every((role) => (STATS_ROLES as readonly string[]).includes(role))
    ? true
    : `${param} must be ${STATS_ROLES.join(', ')}.`;

export const validateSharingShow: Validator = (value, param) =>
  isStringList(value) && value.every((place) => (SHARING_SHOW_PLACES as readonly string[]).includes(place))
    ? true
    : `${param} must be ${SHARING_SHOW_PLACES.join(', ')}.`;

function isServiceId(id: string): boolean {
  return (SHARING_SERVICE_IDS as readonly string[]).includes(id) || CUSTOM_SERVICE_ID.test(id);
}

/** `{visible: [...], hidden: [...]}` of known service ids (both may be empty). */
export const validateSharingServices: Validator = (value, param) =>
  isPlainObject(value) &&
  isStringList(value.visible) &&
  isStringList(value.hidden) &&
  [...value.visible, ...value.hidden].every(isServiceId)
    ? true
    : `${param} must be an array with visible and hidden items.`;

/** A new custom sharing service: name, URL and icon, all strings. */
export const validateCustomService: Validator = (value, param) =>
  isPlainObject(value) &&
  typeof value.sharing_name === 'string' &&
  typeof value.sharing_url === 'string' &&
  typeof value.sharing_icon === 'string'
    ? true
    : `${param} must be an array with sharing name, url and icon.`;

export const validateCustomServiceId: Validator = (value, param) =>
  typeof value === 'string' && CUSTOM_SERVICE_ID.test(value) ? true : `${param} must be the id of a custom sharing service.`;

/** Boolean sanitizer: the accepted spellings to true/false. */
export function toBoolean(value: unknown): JsonValue {
  if (typeof value === 'string') return !['0', 'false', ''].includes(value.toLowerCase());
  return Boolean(value);
}

export function toInteger(value: unknown): JsonValue {
  return Math.trunc(Number(value));
}

/** `sanitize_text_field`-like: tags stripped, whitespace collapsed, trimmed. */
export function toPlainText(value: unknown): JsonValue {
  return String(value)
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();
}

/** `esc_url`-like: an http(s) URL or nothing. */
export function toUrl(value: unknown): JsonValue {
  const text = String(value).trim();
  if (text === '') return '';
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

/** Twitter site tag: stored without the leading `@` (docs/spec/jetpack-v4-reference.md §6). */
export function toTwitterUsername(value: unknown): JsonValue {
  return String(value).replace(/^@/, '');
}

/** Stats roles: an empty list falls back to administrators only (docs/spec/jetpack-v4-reference.md §6). */
export function toStatsRoles(value: unknown): JsonValue {
  const roles = value as string[];
  return roles.length > 0 ? [...new Set(roles)] : ['administrator'];
}

export function toStringList(value: unknown): JsonValue {
  return [...new Set(value as string[])];
}

/** `current_value` cast by type (docs/spec/jetpack-v4-reference.md §6): booleans from "true"/"false" or truthiness, numbers, "NULL" → null. */
export function castByType(type: string, value: JsonValue): JsonValue {
  if (value === 'NULL') return null;
  switch (type) {
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return phpTruthy(value);
    case 'integer': {
      const n = typeof value === 'number' ? value : parseInt(String(value), 10);
      return Number.isFinite(n) ? Math.trunc(n) : 0;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : parseFloat(String(value));
      return Number.isFinite(n) ? n : 0;
    }
    default:
      return value;
  }
}

/** The check used when an option declares no validator: its declared type. */
export function validateByType(type: string): Validator {
  switch (type) {
    case 'boolean':
      return validateBoolean;
    case 'integer':
      return (value, param) =>
        (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value))
          ? true
          : `${param} must be an integer.`;
    case 'number':
      return (value, param) =>
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
          ? true
          : `${param} must be a number.`;
    case 'array':
      return (value, param) => (Array.isArray(value) ? true : `${param} must be an array.`);
    case 'object':
      return (value, param) => (isPlainObject(value) ? true : `${param} must be an object.`);
    default:
      return validateString;
  }
}

/** The sanitizer used when an option declares none: a cast to its declared type. */
export function sanitizeByType(type: string): (value: unknown) => JsonValue {
  switch (type) {
    case 'boolean':
      return toBoolean;
    case 'integer':
      return toInteger;
    case 'number':
      return (value) => Number(value);
    case 'string':
      return (value) => String(value);
    default:
      return (value) => value as JsonValue;
  }
}
