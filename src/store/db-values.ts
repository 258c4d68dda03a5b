import type { JsonValue } from '../core/json.js';
import { StoreDataError } from './errors.js';

/**
 * Narrowing at the database boundary: drivers hand back `unknown`-ish values (node-postgres
 * returns BIGINT as a string, better-sqlite3 may return a bigint), and a corrupt row should
 * fail loudly rather than flow on as the wrong type.
 */

/** An integer column value as a JS number. */
export function toInt(value: unknown, column: string): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  throw new StoreDataError(`column ${column}: expected an integer, got ${typeof value}`);
}

export function toIntOrNull(value: unknown, column: string): number | null {
  return value === null || value === undefined ? null : toInt(value, column);
}

export function toText(value: unknown, column: string): string {
  if (typeof value === 'string') return value;
  throw new StoreDataError(`column ${column}: expected text, got ${typeof value}`);
}

/** Parses a stored JSON text. */
export function parseJson(text: unknown, column: string): JsonValue {
  const source = toText(text, column);
  try {
    return JSON.parse(source) as JsonValue;
  } catch {
    throw new StoreDataError(`column ${column}: invalid JSON`);
  }
}

/** Serializes a value for a JSON text column; rejects what JSON cannot hold (e.g. undefined). */
export function toJsonText(value: JsonValue): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError('value is not representable as JSON');
  return text;
}

/** The name of the unique index or constraint a driver error reports, or null for other errors. */
export function uniqueViolationTarget(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, constraint } = error as { code?: unknown; message?: unknown; constraint?: unknown };
  // node-postgres: SQLSTATE 23505 with the constraint (index) name.
  if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  // better-sqlite3: "UNIQUE constraint failed: index 'users_login_key'" or "...: users.login".
  if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT') && typeof message === 'string') {
    const match = /UNIQUE constraint failed: (?:index '([^']+)'|(.+))$/.exec(message);
    if (match) return match[1] ?? match[2] ?? '';
  }
  return null;
}
