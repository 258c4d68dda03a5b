/**
 * One declaration per setting: its config-file key (the record key), environment variable, what
 * the file accepts with range and default (a TypeBox schema, i.e. JSON Schema), the line that
 * documents it, and how a raw value (a JSON value from `siteward.config.json`, or an environment
 * string) becomes the value in `Config`. The builders below put a range or a default into both the
 * reader and the schema, so each is written once, and the operators' table (docs/configuration.md)
 * is generated from the same objects.
 *
 * @example
 * export const helloSettings = defineSettings({
 *   helloGreeting: text({ env: 'SITEWARD_HELLO_GREETING', default: 'world', doc: 'who the hello route greets' }),
 *   helloTimeoutMs: integer({ env: 'SITEWARD_HELLO_TIMEOUT_MS', default: 2000, min: 1, max: 60_000, doc: 'bound of …' }),
 * });
 */
import path from 'node:path';
import { Type, type TSchema } from '@sinclair/typebox';

/** A bad setting: the message is one line naming the setting and what is allowed. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** What a setting's reader gets. */
export interface SettingInput {
  /** The raw value: a JSON value from the file, a string from the environment, an override; undefined when unset. */
  readonly raw: unknown;
  /** `ENV (config "key")`, the prefix of every message about this setting. */
  readonly label: string;
  /** The directory relative paths resolve against. */
  readonly cwd: string;
  /** Values of the settings read before this one (the core group comes first). */
  readonly values: Readonly<Record<string, unknown>>;
  /** Raw value of another setting (for a default derived from it). */
  rawOf(key: string): unknown;
  /** The label of another setting (for a message that names it). */
  labelOf(key: string): string;
  /** The environment variable of another setting. */
  envOf(key: string): string;
}

export interface Setting<T> {
  /** The environment variable that overrides the config-file key. */
  readonly env: string;
  /** One line for the operators' table: what it does. */
  readonly doc: string;
  /** What the config file accepts: type, range (`minimum`/`maximum`, literals) and `default`. */
  readonly schema: TSchema;
  /** How the docs show the default when `schema.default` cannot say it (derived, or "off"). */
  readonly defaultDoc?: string;
  read(input: SettingInput): T;
}

/** The values a set of declarations reads into. */
export type ValuesOf<S extends Record<string, Setting<unknown>>> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** What a group's cross-setting check may ask besides the values. */
export type CheckInput = Pick<SettingInput, 'rawOf' | 'labelOf' | 'envOf' | 'cwd'>;

export interface SettingGroup<S extends Record<string, Setting<unknown>> = Record<string, Setting<unknown>>> {
  readonly settings: S;
  /** Rules across settings of the group (e.g. two that must be set together), run after all are read. */
  check?(values: ValuesOf<S>, input: CheckInput): void;
}

/** The values a group of settings reads into (what it adds to `Config`). */
export type SettingValues<G extends SettingGroup> = ValuesOf<G['settings']>;

/** Declares a group of settings (a feature's, or the core's); `check` holds the rules across them. */
export function defineSettings<S extends Record<string, Setting<unknown>>>(
  settings: S,
  check?: (values: ValuesOf<S>, input: CheckInput) => void,
): SettingGroup<S> {
  return check === undefined ? { settings } : { settings, check };
}

interface Common {
  readonly env: string;
  readonly doc: string;
  readonly defaultDoc?: string;
}

const unset = (v: unknown) => v === undefined || v === null;

function fail(input: SettingInput, message: string): never {
  throw new ConfigError(`${input.label} ${message}`);
}

/** A string (a number is taken as its digits); `fallback` when unset. */
export function readString(input: SettingInput, fallback: string): string {
  const v = input.raw;
  if (unset(v)) return fallback;
  if (typeof v !== 'string' && typeof v !== 'number') fail(input, 'must be a string');
  return String(v);
}

/** A trimmed string, null when unset or empty. */
export function readOptionalText(input: SettingInput): string | null {
  const v = readString(input, '').trim();
  return v === '' ? null : v;
}

/** An integer in the schema's range. */
export function integer(o: Common & { readonly default: number; readonly min: number; readonly max: number }): Setting<number> {
  const schema = Type.Integer({ minimum: o.min, maximum: o.max, default: o.default });
  return { ...o, schema, read: (input) => readInteger(input, o.default, o.min, o.max) };
}

export function readInteger(input: SettingInput, fallback: number, min: number, max: number): number {
  const v = input.raw;
  if (unset(v) || v === '') return fallback;
  const n = typeof v === 'number' ? v : /^\d+$/.test(String(v).trim()) ? Number(String(v).trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) fail(input, `must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return n;
}

/** On or off: true/false, 1/0, yes/no, on/off. */
export function flag(o: Common & { readonly default?: boolean }): Setting<boolean> {
  const fallback = o.default ?? false;
  return {
    ...o,
    schema: Type.Boolean({ default: fallback }),
    read(input) {
      const v = input.raw;
      if (unset(v) || v === '') return fallback;
      if (typeof v === 'boolean') return v;
      const s = String(v).trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      return fail(input, `must be true or false (1/0, yes/no) (got ${JSON.stringify(v)})`);
    },
  };
}

/** One of a few words (case-insensitive). */
export function choice<const V extends string>(o: Common & { readonly values: readonly V[]; readonly default: NoInfer<V> }): Setting<V> {
  return {
    ...o,
    schema: Type.Union(
      o.values.map((v) => Type.Literal(v)),
      { default: o.default },
    ),
    read(input) {
      const v = readString(input, o.default).trim().toLowerCase();
      if (!(o.values as readonly string[]).includes(v))
        fail(input, `must be one of ${o.values.join(', ')} (got ${JSON.stringify(input.raw)})`);
      return v as V;
    },
  };
}

/** Free text, as given. */
export function text(o: Common & { readonly default: string }): Setting<string> {
  return { ...o, schema: Type.String({ default: o.default }), read: (input) => readString(input, o.default) };
}

/** Free text, trimmed; null when unset or empty. */
export function optionalText(o: Common): Setting<string | null> {
  return { ...o, schema: Type.Union([Type.String(), Type.Null()], { default: null }), read: readOptionalText };
}

/** A comma-separated list (or a JSON array in the file); empty entries dropped. */
export function list(o: Common): Setting<string[]> {
  return {
    ...o,
    schema: Type.Array(Type.String(), { default: [] }),
    read({ raw }) {
      if (unset(raw)) return [];
      const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
      return items.map((s) => s.trim()).filter(Boolean);
    },
  };
}

/** A file or directory path resolved against the working directory; null when unset. */
export function optionalPath(o: Common): Setting<string | null> {
  return {
    ...o,
    schema: Type.Union([Type.String(), Type.Null()], { default: null }),
    read: (input) => (input.raw ? path.resolve(input.cwd, readString(input, '')) : null),
  };
}

/** An absolute URL with one of `protocols`; null when unset. */
export function optionalUrl(o: Common & { readonly protocols: readonly string[] }): Setting<string | null> {
  return {
    ...o,
    schema: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { default: null }),
    read(input) {
      const value = readString(input, '').trim();
      if (value === '') return null;
      const url = parseUrl(value);
      if (url === null || !o.protocols.includes(url.protocol))
        fail(input, `must be an absolute ${o.protocols.map((p) => p.slice(0, -1)).join('/')} URL`);
      return value;
    },
  };
}

/** An absolute http(s) URL without trailing slashes. */
export function httpUrl(o: Common & { readonly default: string }): Setting<string> {
  return {
    ...o,
    schema: Type.String({ format: 'uri', default: o.default }),
    read(input) {
      const value = readString(input, o.default).trim().replace(/\/+$/, '');
      const url = parseUrl(value);
      if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        fail(input, `must be an absolute http(s) URL (got ${JSON.stringify(input.raw)})`);
      return value;
    },
  };
}

/**
 * A setting whose reading is its own (a schedule, a URL with extra rules). `schema` states what the
 * file accepts, for the docs; `read` throws `ConfigError` naming `input.label` for a bad value.
 */
export function custom<T>(o: Common & { readonly schema: TSchema; read(input: SettingInput): T }): Setting<T> {
  return o;
}

/** `new URL(text)`, or null when it is not one. */
export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
